import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { statfsSync } from 'node:fs';

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

/**
 * Make the tmpfs on `dir` full: shrink it to exactly the blocks its files use now, so a new file or
 * a write past a file's last block fails with ENOSPC (as on a disk filled to the brim). Answers how
 * to give the room back. Shrinking is one remount, where writing the disk full took seconds.
 */
export function fillUp(dir: string): () => void {
  const { blocks, bfree, bsize } = statfsSync(dir);
  const used = (blocks - bfree) * bsize;
  // size=0 means "no limit" to tmpfs: a full disk needs something on it.
  assert.ok(used > 0, `the tmpfs on ${dir} holds nothing to fill it up with`);
  remount(dir, `size=${used}`);
  return () => remount(dir, `size=${blocks * bsize}`);
}

function remount(dir: string, options: string): void {
  execFileSync('mount', ['-o', `remount,${options}`, dir], { stdio: 'pipe' });
}
