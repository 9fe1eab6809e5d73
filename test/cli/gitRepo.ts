import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { expectCode, jsonOf, kanban, type Run } from './helpers';

/**
 * A real git repository in a temporary folder, for the tests of the board under git (branches,
 * merges, worktrees). Git reads no global or system config; commits carry a fixed author.
 */
export const GIT_ENV = {
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: dir,
    env: { ...process.env, ...GIT_ENV },
    encoding: 'utf8',
    stdio: 'pipe',
  }).trim();
}

/** `git status --porcelain` with untracked files listed one by one: '' is a clean tree. */
export function gitStatus(dir: string): string {
  return git(dir, 'status', '--porcelain', '--untracked-files=all');
}

export function commitAll(dir: string, message: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
}

/** `kanban ...` in-process on `dir`, as a separate process; the exit code is left to the caller. */
export function k(dir: string, ...args: string[]): Promise<Run> {
  return kanban([...args, '--dir', dir], { env: GIT_ENV });
}

export async function kOk(dir: string, ...args: string[]): Promise<Run> {
  return expectCode(await k(dir, ...args), 0);
}

export async function listed(dir: string): Promise<any[]> {
  return jsonOf(await k(dir, 'list', '--json'));
}

/** A repository with `kanban init` done and committed on `main`. */
export async function initRepo(): Promise<{ tmp: string; root: string }> {
  const tmp = await makeTempDir('kanban-git-');
  const root = path.join(tmp, 'repo');
  await fs.mkdir(root);
  git(root, 'init', '-q', '-b', 'main');
  await kOk(root, 'init');
  commitAll(root, 'init');
  return { tmp, root };
}

/** A card file written as another branch or an older version would have (an id without a suffix). */
export function cardText(id: string, status: string, title: string, created: string): string {
  return `---\nid: ${id}\nstatus: ${status}\npriority: medium\norder: a0\ncreated: ${created}\nmodified: ${created}\n---\n\n# ${title}\n`;
}

export async function writeCard(root: string, status: string, name: string, text: string): Promise<string> {
  const file = path.join(root, '.kanban', 'boards', 'default', status, `${name}.md`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}
