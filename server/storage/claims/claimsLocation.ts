import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * The folder that holds a workspace's claims. In a git repository it is under the common git
 * directory (`git rev-parse --git-common-dir`), which every worktree of the repository shares and git
 * never tracks: an agent in one worktree sees the claims of an agent in another. Outside git it is
 * `.kanban/.state/claims/`. A workspace in a sub-folder of the repository gets a folder of its own,
 * named after that sub-folder, so two boards in one repository do not share claims.
 *
 * Found by reading `.git` the way git does (a folder, or a file `gitdir: <path>` whose folder has a
 * `commondir` file), without running git: this runs at every workspace open.
 */
export async function claimsFolderOf(root: string, stateDir: string): Promise<{ dir: string; inGit: boolean }> {
  const repo = await gitCommonDirOf(root);
  if (!repo) return { dir: path.join(stateDir, 'claims'), inGit: false };
  const relative = path.relative(repo.top, root).split(path.sep).join('/');
  const base = path.join(repo.commonDir, 'kanban', 'claims');
  // Board ids never start with '@', so a sub-folder workspace's folder never meets a board's.
  return { dir: relative === '' ? base : path.join(base, `@${encodeURIComponent(relative)}`), inGit: true };
}

/** The common git directory of the repository `dir` is in, and the top of its working tree; null outside git. */
export async function gitCommonDirOf(dir: string): Promise<{ commonDir: string; top: string } | null> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const dotGit = path.join(current, '.git');
    const stat = await fs.stat(dotGit).catch(() => null);
    if (stat?.isDirectory()) return { commonDir: await commonDirOf(dotGit), top: current };
    if (stat?.isFile()) {
      const text = await fs.readFile(dotGit, 'utf8').catch(() => '');
      const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
      if (gitdir) return { commonDir: await commonDirOf(path.resolve(current, gitdir)), top: current };
    }
    if (path.dirname(current) === current) return null;
  }
}

/** A worktree's git dir names the shared one in `commondir`; the main one is its own. */
async function commonDirOf(gitDir: string): Promise<string> {
  const text = await fs.readFile(path.join(gitDir, 'commondir'), 'utf8').catch(() => null);
  return text === null ? gitDir : path.resolve(gitDir, text.trim());
}
