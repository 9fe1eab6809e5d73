import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CliError } from './usage';

/**
 * The few git operations `kanban start` needs, run in the workspace folder. Always `execFile` with
 * an argument array: a branch name or a path is never read by a shell. These read git state and
 * create refs (a branch, a worktree); they never commit.
 */

interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

function git(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: dir, env, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        return reject(
          new CliError(
            missing && existsSync(dir)
              ? 'git is not installed (or not on PATH)'
              : `cannot run git in ${dir}: ${error.message}`,
          ),
        );
      }
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

/** What went wrong, in git's own words, for a refusal message. */
function reason(run: GitRun): string {
  return (run.stderr || run.stdout).trim().replace(/^fatal: /, '') || `git exited with ${run.code}`;
}

/** `git config user.name` as seen from `dir` (the repository's, else the global one), or null. */
export async function gitUserName(dir: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const run = await git(dir, ['config', 'user.name'], env).catch(() => null);
  const name = run?.code === 0 ? run.stdout.trim() : '';
  return name || null;
}

/** The branch `kanban start --branch` makes for a card. */
export function branchFor(cardId: string): string {
  return `kanban/${cardId}`;
}

/**
 * Refuses, with the reason, when `branch` cannot be created at HEAD in `dir` right now: not a git
 * repository, a merge or rebase under way (a branch made then would start from a half-done state),
 * no commit yet, an invalid name, or the branch already there.
 */
export async function checkBranchCanStart(dir: string, branch: string, env: NodeJS.ProcessEnv): Promise<void> {
  const gitDirRun = await git(dir, ['rev-parse', '--git-dir'], env);
  if (gitDirRun.code !== 0)
    throw new CliError(`${dir} is not in a git repository, so there is no branch to make (${reason(gitDirRun)})`);
  // Per worktree: in a linked worktree this is .git/worktrees/<name>, where its own merge state lives.
  const gitDir = path.resolve(dir, gitDirRun.stdout.trim());
  if (existsSync(path.join(gitDir, 'MERGE_HEAD'))) {
    throw new CliError(
      'the repository is in the middle of a merge; finish it (git commit) or abort it (git merge --abort) first',
    );
  }
  if (existsSync(path.join(gitDir, 'rebase-merge')) || existsSync(path.join(gitDir, 'rebase-apply'))) {
    throw new CliError(
      'the repository is in the middle of a rebase; finish it (git rebase --continue) or abort it (git rebase --abort) first',
    );
  }
  const head = await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], env);
  if (head.code !== 0)
    throw new CliError('the repository has no commit yet, so a branch has nothing to start from; commit once first');
  const name = await git(dir, ['check-ref-format', '--branch', branch], env);
  if (name.code !== 0) throw new CliError(`"${branch}" is not a valid git branch name`);
  const existing = await git(dir, ['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], env);
  if (existing.code === 0)
    throw new CliError(
      `branch ${branch} already exists; check it out, or delete it (git branch -d ${branch}) to start again`,
    );
}

/** Refuses a worktree folder git would refuse: one that exists and is not empty. */
export async function checkWorktreePath(worktree: string): Promise<void> {
  const entries = await fs.readdir(worktree).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new CliError(`${worktree} is a file; the worktree needs a new or empty folder`);
    throw new CliError(`cannot use ${worktree} for the worktree: ${error.message}`);
  });
  if (entries.length)
    throw new CliError(`${worktree} already exists and is not empty; the worktree needs a new or empty folder`);
}

/** `git branch <branch> HEAD`: the branch at the current commit, without checking it out. */
export async function createBranch(dir: string, branch: string, env: NodeJS.ProcessEnv): Promise<void> {
  const run = await git(dir, ['branch', branch, 'HEAD'], env);
  if (run.code !== 0) throw new CliError(`git could not create branch ${branch}: ${reason(run)}`);
}

/** `git worktree add <worktree> <branch>`: the existing branch checked out in a new folder. */
export async function addWorktree(
  dir: string,
  worktree: string,
  branch: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const run = await git(dir, ['worktree', 'add', worktree, branch], env);
  if (run.code !== 0) throw new CliError(`git could not add the worktree ${worktree}: ${reason(run)}`);
}
