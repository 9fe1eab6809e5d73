import { promises as fs, renameSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Temp files carry this marker so loaders and watchers can ignore them. */
export const TEMP_MARKER = '.tmp-';

/** Unique per process: a random run id once, then a counter (random bytes per write cost more). */
const RUN_ID = randomBytes(4).toString('hex');
let tempCounter = 0;

function tempPathFor(target: string, tempDir?: string): string {
  const dir = tempDir ?? path.dirname(target);
  return path.join(
    dir,
    `.${path.basename(target)}${TEMP_MARKER}${process.pid}-${RUN_ID}-${(tempCounter++).toString(36)}`,
  );
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

/**
 * A failed write(2) or fsync(2) names no file (ENOSPC from a write has no `path`): give the error
 * the file it was for, so the answer to the request can name it.
 */
function naming(error: unknown, file: string): unknown {
  const errno = error as NodeJS.ErrnoException;
  if (error instanceof Error && typeof errno.code === 'string' && errno.path === undefined) errno.path = file;
  return error;
}

async function writeTemp(
  target: string,
  data: string | Buffer,
  options: { tempDir?: string; mode?: number } = {},
): Promise<string> {
  const temp = tempPathFor(target, options.tempDir);
  const handle = await openTemp(temp, options.mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw naming(error, target);
  }
  await handle.close();
  return temp;
}

/**
 * Write a file so that readers see the old or the new content, never a mix (temp, fsync, rename).
 * `tempDir` (same file system) keeps the temp file out of a folder users look at, such as the
 * workspace root where git would list a crash's leftover. `mode` applies from the temp file's
 * creation on, so a private file is never readable by others.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Buffer,
  options: { tempDir?: string; mode?: number } = {},
): Promise<void> {
  const temp = await writeTemp(target, data, options);
  try {
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Write `target` atomically, but only while `stillCurrent()` holds at the moment of the rename. The
 * slow part (temp file, fsync) runs first; then the check, the rename and the removal of
 * `alsoRemove` (the old file of a moved card) run synchronously, so nothing in this process can
 * slip in between, and another process (an editor saving) has microseconds instead of the
 * milliseconds an fsync takes. Answers false, having written nothing, when the check fails.
 */
export async function writeFileIfUnchanged(
  target: string,
  data: string | Buffer,
  stillCurrent: () => boolean,
  options: { tempDir?: string; alsoRemove?: string } = {},
): Promise<boolean> {
  const temp = await writeTemp(target, data, { tempDir: options.tempDir });
  try {
    if (!stillCurrent()) {
      await fs.rm(temp, { force: true });
      return false;
    }
    renameSync(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  if (options.alsoRemove !== undefined && options.alsoRemove !== target) rmSync(options.alsoRemove, { force: true });
  return true;
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

/** Whether a temp file was left by a process that is gone (a crash), so nobody will finish it. */
export function isOrphanTempFile(name: string): boolean {
  const match = /\.tmp-(\d+)-([0-9a-f]+)-/.exec(path.basename(name));
  if (!match) return false;
  const pid = Number(match[1]);
  // Our own pid with another run id: a crashed process whose pid came round again (containers).
  if (pid === process.pid) return match[2] !== RUN_ID;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Remove the orphaned temp files directly in `dir`; answers how many went. */
export async function removeOrphanTempFiles(dir: string): Promise<number> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const orphans = names.filter((name) => isTempFile(name) && isOrphanTempFile(name));
  await Promise.all(orphans.map((name) => fs.rm(path.join(dir, name), { force: true })));
  return orphans.length;
}
