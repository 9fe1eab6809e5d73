import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { jsonOf, kanban, type Run } from './helpers';

/**
 * A real git repository holding a board, for the `kanban start` tests: the CLI runs in it either on
 * the folder (--dir) or through a server serving it (--url). Git reads no global or system config,
 * so `user.name` is only what a test sets in the repository.
 */

export const GIT_ENV = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

function gitOutput(dir: string, args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8', stdio: 'pipe' });
}

export function git(dir: string, ...args: string[]): string {
  return gitOutput(dir, args).trim();
}

/** A git command that is expected to fail (a conflicting merge or rebase); its exit code. */
export function gitFailing(dir: string, ...args: string[]): number {
  return spawnSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, stdio: 'pipe' }).status ?? -1;
}

export type ModeName = 'dir' | 'url';

export interface StartRepo {
  /** The temporary folder holding the repository (and any worktree a test adds beside it). */
  tmp: string;
  root: string;
  /** Where `kanban` runs: the folder above the repository in-process (--dir names it), the repository through a server. */
  cwd: string;
  k(...args: string[]): Promise<Run>;
  card(id: string): Promise<any>;
  add(title: string, ...flags: string[]): Promise<string>;
  close(): Promise<void>;
}

export interface RepoOptions {
  config?: unknown;
  /** The repository's `user.name`; null leaves it unset. */
  userName?: string | null;
  /** false: a plain folder, not a git repository. */
  git?: boolean;
}

export async function openStartRepo(mode: ModeName, options: RepoOptions = {}): Promise<StartRepo> {
  const tmp = await makeTempDir('kanban-start-');
  const root = path.join(tmp, 'repo');
  await fs.mkdir(root);
  await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(options.config ?? { version: 2 }, null, 2));
  await fs.writeFile(path.join(root, 'README.md'), '# A project\n');
  if (options.git !== false) {
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'config', 'user.email', 'dev@example.com');
    const name = options.userName === undefined ? 'Ada Lovelace' : options.userName;
    if (name !== null) git(root, 'config', 'user.name', name);
    git(root, 'add', '-A');
    git(root, '-c', 'user.name=Setup', 'commit', '-q', '-m', 'A project with a board');
  }
  let server: TestServer | undefined;
  if (mode === 'url') server = await startTestServer({ root, server: { watch: false } });
  const modeArgs = server ? ['--url', server.url] : ['--dir', root];
  const cwd = server ? root : tmp;
  const k = (...args: string[]) => kanban([...args, ...modeArgs], { cwd, env: GIT_ENV });
  return {
    tmp,
    root,
    cwd,
    k,
    card: async (id) => jsonOf(await k('show', id, '--json')),
    add: async (title, ...flags) => jsonOf(await k('add', title, ...flags, '--json')).id,
    close: async () => {
      await server?.running.close();
      await fs.rm(tmp, { recursive: true, force: true });
    },
  };
}

/** What the board shows, for "nothing changed": every card with its column, assignee and version. */
export async function boardOf(repo: StartRepo): Promise<unknown> {
  return jsonOf(await repo.k('list', '--json')).map((c: any) => [c.id, c.status, c.assignee ?? null, c.modified]);
}

/** `git status` outside the board's own files (which a start changes by moving the card's file). */
export function statusOutsideBoard(root: string): string[] {
  return gitOutput(root, ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter((line) => line && !line.slice(3).startsWith('.kanban/'));
}
