import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Running `git` as a child process, always asynchronously: the service only reads git, and a read
 * must neither block the event loop nor write anything (no optional locks, so no index refresh).
 */

/** git failed to start (no binary) or answered with a non-zero exit. */
export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
  }
}

/** Variables that would point git at another repository than the folder it runs in. */
const LOCATING_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
];

function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
  for (const name of LOCATING_VARIABLES) delete env[name];
  return env;
}

/** Settings of the user's config that would change the output we parse. */
const FIXED_CONFIG = ['-c', 'log.showSignature=false', '-c', 'color.ui=false', '-c', 'core.pager=cat'];

/** At most this many git processes at once: a burst of first reads must not fork a crowd. */
const MAX_RUNNING = 4;
let running = 0;
const queued: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => queued.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    queued.shift()?.();
  }
}

export interface GitCall {
  /** The git binary (a test may name one that does not exist). */
  git: string;
  cwd: string;
  args: string[];
  /** Written to git's standard input, which is then closed. */
  input?: string;
}

/**
 * Run git and hand its output to `onRecord` one record at a time (records end with `separator`),
 * letting other work run between batches; resolves when git has exited with status 0.
 */
export function streamGit(call: GitCall, separator: string, onRecord: (record: string) => void): Promise<void> {
  return inTurn(
    () =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(call.git, [...FIXED_CONFIG, ...call.args], {
          cwd: call.cwd,
          env: gitEnvironment(),
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsHide: true,
        });
        const stderr: Buffer[] = [];
        let failed: Error | null = null;
        child.on('error', (error) => (failed = new GitError(`git could not run: ${error.message}`, null)));
        child.stderr.on('data', (chunk: Buffer) => stderr.length < 64 && stderr.push(chunk));
        child.stdin.on('error', () => undefined); // git may exit before reading all of it
        child.stdin.end(call.input ?? '');
        const parsing = parseRecords(child.stdout, separator, onRecord).catch((error: Error) => {
          failed ??= error;
          child.kill();
        });
        child.on('close', (code) => {
          void parsing.then(() => {
            if (failed) reject(failed);
            else if (code !== 0)
              reject(
                new GitError(
                  `git ${call.args[0]} exited with ${code}: ${Buffer.concat(stderr).toString('utf8').trim().slice(0, 500)}`,
                  code,
                ),
              );
            else resolve();
          });
        });
      }),
  );
}

const BATCH = 500;

async function parseRecords(
  stdout: NodeJS.ReadableStream,
  separator: string,
  onRecord: (record: string) => void,
): Promise<void> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let sinceYield = 0;
  for await (const chunk of stdout) {
    const records = (rest + decoder.write(chunk as Buffer)).split(separator);
    rest = records.pop() ?? '';
    for (const record of records) {
      onRecord(record);
      if (++sinceYield >= BATCH) {
        sinceYield = 0;
        await nextTurn();
      }
    }
  }
  rest += decoder.end();
  if (rest.trim() !== '') onRecord(rest);
}

/** Run git and answer its whole output (for short answers). */
export async function runGit(call: GitCall): Promise<string> {
  const parts: string[] = [];
  await streamGit(call, '\u0000', (part) => parts.push(part));
  return parts.join('\u0000');
}
