import { promises as fs, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';

/**
 * The checked-out branch of a folder, read from git's HEAD file (no git process, no git extension
 * needed). `.git` may be a file pointing elsewhere (a worktree, a submodule).
 */
export async function gitDirOf(folder: string): Promise<string | null> {
  const dotGit = path.join(folder, '.git');
  const stat = await fs.stat(dotGit).catch(() => null);
  if (!stat) return null;
  if (stat.isDirectory()) return dotGit;
  const pointer = /^gitdir:\s*(.+)$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''));
  return pointer ? path.resolve(folder, pointer[1].trim()) : null;
}

/** The short branch name HEAD points at; null when detached or unreadable. */
export async function branchOfHead(gitDir: string): Promise<string | null> {
  const head = await fs.readFile(path.join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  return /^ref:\s*refs\/heads\/(.+)$/m.exec(head)?.[1].trim() ?? null;
}

/**
 * Calls back when HEAD may have changed (a checkout, a branch switch). Git replaces HEAD by renaming
 * a new file over it, which a watch on the file itself would lose: the directory is watched instead.
 */
export function watchHead(gitDir: string, changed: () => void): { dispose(): void } {
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(gitDir, (_event, name) => {
      if (name === null || name.toString() === 'HEAD') changed();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // A git directory that cannot be watched: the status item keeps what it read at start.
  }
  return { dispose: () => watcher?.close() };
}
