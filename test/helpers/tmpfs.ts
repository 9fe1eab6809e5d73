import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

// A small tmpfs stands in for a disk the tests can fill up or make read-only; mounting one needs
// root with CAP_SYS_ADMIN (as CI has).

/** Mount a tmpfs on `dir` (options such as "size=64k" or "ro,size=1m"); answers why not when it cannot. */
export function mountTmpfs(dir: string, options: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    return (e.stderr?.toString().trim() || e.message).split('\n')[0];
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'pipe' });
}

/** Skip the suite, saying why, when this machine cannot mount (not root, or no CAP_SYS_ADMIN). */
export function skipWithoutTmpfs(context: Mocha.Context, why: string): never {
  console.log(`      skipped: cannot mount a tmpfs here (${why}); these checks need root with CAP_SYS_ADMIN`);
  context.skip();
}

/** Write zeros into `filler.bin` on `dir` until the file system says it is full; answers the file. */
export async function fillUp(dir: string): Promise<string> {
  const file = path.join(dir, 'filler.bin');
  const handle = await fs.open(file, 'w');
  try {
    await writeUntilFull(handle, 64 * 1024);
    // Then the last few bytes, so no small write can slip into the remainder of a block.
    await writeUntilFull(handle, 512);
  } finally {
    await handle.close();
  }
  return file;
}

async function writeUntilFull(handle: fs.FileHandle, chunkBytes: number): Promise<void> {
  try {
    for (;;) await handle.write(Buffer.alloc(chunkBytes));
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
  }
}
