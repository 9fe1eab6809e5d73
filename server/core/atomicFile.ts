import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Temp files carry this marker so loaders and watchers can ignore them. */
export const TEMP_MARKER = '.tmp-';

/** Unique per process: a random run id once, then a counter (random bytes per write cost more). */
const RUN_ID = randomBytes(4).toString('hex');
let tempCounter = 0;

function tempPathFor(target: string): string {
  const dir = path.dirname(target);
  return path.join(dir, `.${path.basename(target)}${TEMP_MARKER}${process.pid}-${RUN_ID}-${(tempCounter++).toString(36)}`);
}

/** Open a new temp file, making its folder only when it is missing (a mkdir per write is a wasted syscall). */
async function openTemp(temp: string, mode?: number): Promise<fs.FileHandle> {
  try {
    return await fs.open(temp, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await fs.mkdir(path.dirname(temp), { recursive: true });
    return fs.open(temp, 'wx', mode);
  }
}

async function writeTemp(target: string, data: string | Buffer, mode?: number): Promise<string> {
  const temp = tempPathFor(target);
  const handle = await openTemp(temp, mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  return temp;
}

/**
 * Write a file so that readers see the old or the new content, never a mix (temp, fsync, rename).
 * `mode` applies from the temp file's creation on, so a private file is never readable by others.
 */
export async function writeFileAtomic(target: string, data: string | Buffer, options: { mode?: number } = {}): Promise<void> {
  const temp = await writeTemp(target, data, options.mode);
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Create a file with its full content only if no file of that name exists. Returns false when the
 * name is taken. A hard link from a complete temp file makes the claim atomic across processes.
 */
export async function createFileExclusive(target: string, data: string | Buffer): Promise<boolean> {
  const temp = await writeTemp(target, data);
  try {
    await fs.link(temp, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}

export function isTempFile(name: string): boolean {
  return path.basename(name).includes(TEMP_MARKER);
}
