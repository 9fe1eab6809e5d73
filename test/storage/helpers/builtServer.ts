import { execFileSync, spawn } from 'node:child_process';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..');
const BUNDLE = path.join(REPO, 'dist', 'server.js');
const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** Build dist/server.js from the current sources (what `node dist/server.js` users run). */
export function buildServerBundle(): void {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'pipe' });
}

export interface BuiltServerRun {
  /** The server process, e.g. to read its memory from /proc. */
  pid: number;
  /** Set once the server said it is ready; null when it exited first. */
  url: string | null;
  /** Resolves with the exit code and everything it printed once the process has ended. */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** SIGTERM (the server closes cleanly), then wait for the exit. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** SIGKILL now, as a crash would (no handler runs); resolves once the process is gone. */
  kill(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/**
 * `node dist/server.js --dir <root> --port 0`, optionally with preloaded fixture scripts. Resolves
 * when the server prints its ready line or exits, whichever comes first.
 */
export function runBuiltServer(
  root: string,
  options: { env?: Record<string, string>; preload?: string[]; args?: string[] } = {},
): Promise<BuiltServerRun> {
  const requires = (options.preload ?? []).flatMap((p) => ['--require', path.join(FIXTURES, p)]);
  const child = spawn(process.execPath, [...requires, BUNDLE, '--dir', root, '--port', '0', ...(options.args ?? [])], {
    cwd: REPO,
    env: { ...process.env, HOST: '', PORT: '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  };
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = /board and API on (http:\/\/\S+) /.exec(stdout);
      // main.ts installs its SIGTERM handler right after the second ready line.
      if (ready && stdout.includes('ready in')) resolve({ pid: child.pid ?? 0, url: ready[1], exited, stop, kill });
    });
    void exited.then(() => resolve({ pid: child.pid ?? 0, url: null, exited, stop, kill }));
  });
}
