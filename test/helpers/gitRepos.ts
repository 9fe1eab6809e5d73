import { spawn } from 'node:child_process';

/**
 * Real git in temporary repositories, for tests and the benchmark: a fixed identity and no user
 * config (no signing, hooks or templates of the machine), and none of the variables that would
 * send git to another repository.
 */

function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Ada Lovelace',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada Lovelace',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    ...extra,
  };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY'])
    delete env[name];
  return env;
}

/** Runs git in `cwd` and answers its standard output; fails with its standard error. */
export function git(
  cwd: string,
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: gitEnv(options.env),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`git ${args.join(' ')} exited with ${code}: ${Buffer.concat(err).toString('utf8')}`));
    });
    child.stdin?.end(options.input);
  });
}

export async function initRepo(dir: string): Promise<void> {
  await git(dir, ['init', '--quiet', '--initial-branch=main']);
}

let clock = Date.UTC(2026, 10, 28, 9, 0, 0) / 1000;

/** An empty commit on the current branch, each one a minute after the last (so "newest first" is defined); answers its sha. */
export async function commit(dir: string, message: string): Promise<string> {
  const date = `${(clock += 60)} +0000`;
  await git(dir, ['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message], {
    env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
  return (await git(dir, ['rev-parse', 'HEAD'])).trim();
}

/**
 * A `git fast-import` stream of `count` commits on `branch`, one after the other, each with the
 * message `message(i)` (i from 1), and `refs` pointing at commit number `at` (branches named after
 * cards, say). Commits carry no files: the history is what is being read.
 */
export function fastImportStream(
  branch: string,
  count: number,
  message: (i: number) => string,
  refs: { ref: string; at: number }[] = [],
): string {
  const parts: string[] = [];
  const start = Date.UTC(2020, 0, 1) / 1000;
  for (let i = 1; i <= count; i++) {
    const text = message(i);
    parts.push(
      `commit refs/heads/${branch}\nmark :${i}\n`,
      `author Ada Lovelace <ada@example.com> ${start + i * 60} +0000\ncommitter Ada Lovelace <ada@example.com> ${start + i * 60} +0000\n`,
      `data ${Buffer.byteLength(text)}\n${text}\n`,
      i > 1 ? `from :${i - 1}\n\n` : '\n',
    );
  }
  for (const { ref, at } of refs) parts.push(`reset ${ref}\nfrom :${at}\n\n`);
  return parts.join('');
}

/** Writes a history made by `fastImportStream` into the repository. */
export async function fastImport(dir: string, stream: string): Promise<void> {
  await git(dir, ['fast-import', '--quiet'], { input: stream });
}
