import { spawn } from 'node:child_process';
import * as path from 'node:path';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** Run a TypeScript fixture in a fresh Node process (no module loaded by earlier tests), return its stdout. */
export function runFixture(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  preload: string[] = [],
): Promise<string> {
  const requires = ['tsx/cjs', ...preload.map((p) => path.join(FIXTURES, p))].flatMap((r) => ['--require', r]);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...requires, path.join(FIXTURES, script), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${script} exited with ${code}: ${err}`));
      else resolve(out);
    });
  });
}

/** The last JSON line a fixture printed. */
export function lastJson(out: string): any {
  const lines = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'));
  if (lines.length === 0) throw new Error(`no JSON line in: ${out}`);
  return JSON.parse(lines[lines.length - 1]);
}

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
  /** `kill -9`: the process dies at once, with no clean-up. */
  kill(): Promise<void>;
  /** Everything it printed so far (stdout, then stderr): its log. */
  output(): string;
}

/** A real server in its own process over `root`, with `env` added to ours; resolves once it listens. */
export function startServerProcess(root: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(FIXTURES, 'serveWorkspace.ts'), root], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let settled = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server process did not start in time: ${errors}`));
    }, 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line || settled) return;
      settled = true;
      clearTimeout(timer);
      const message = JSON.parse(line);
      if (message.error) return reject(new Error(`server process failed: ${message.error}`));
      resolve({
        url: message.url,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(killer);
        },
        async kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
        output: () => out + errors,
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server process exited with ${code}: ${errors}`));
    });
  });
}

/** A request to a server (in any process): its `data`, or an error naming the request and the answer. */
export async function call(base: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const response = await fetch(base + urlPath, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { ok: boolean; data?: unknown; error?: string };
  if (!json.ok) throw new Error(`${method} ${urlPath} answered ${response.status}: ${json.error}`);
  return json.data;
}
