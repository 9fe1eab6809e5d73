import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';

export const REPO = path.resolve(__dirname, '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');

/** Build dist/cli.js (and the rest) from the current sources, as users get it. */
export function buildCli(): void {
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'pipe' });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a user with none of the kanban variables set and output piped. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'KANBAN_URL',
    'KANBAN_TOKEN',
    'KANBAN_WORKSPACE',
    'KANBAN_AUTHOR',
    'KANBAN_AGENT',
    'KANBAN_PROGRESS',
    'NO_COLOR',
    'FORCE_COLOR',
  ])
    delete env[name];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** `node dist/cli.js ...args`, as a separate process; never throws for a non-zero exit. */
export function kanban(
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: options.cwd ?? REPO, env: cleanEnv(options.env), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** The run ended with this code; its output is shown when it did not. */
export function expectCode<T extends Run>(run: T, code: number): T {
  assert.equal(run.code, code, `expected exit ${code}, got ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  return run;
}

/** The JSON a `--json` run printed (exit 0 expected). */
export function jsonOf(run: Run): any {
  expectCode(run, 0);
  return JSON.parse(run.stdout);
}

/**
 * One of the two ways the command line reaches a workspace. `args` select it; `rest` asks the
 * same workspace over real HTTP (in-process: a server started for that one request, so the
 * command line never runs while a server serves the folder).
 */
export interface Mode {
  name: string;
  root: string;
  args: string[];
  rest(method: string, urlPath: string, body?: unknown): Promise<{ status: number; data: any; error?: string }>;
  restBytes(urlPath: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function inProcessMode(): Promise<Mode> {
  const root = await makeTempDir('kanban-cli-');
  const withServer = async <T>(use: (server: TestServer) => Promise<T>): Promise<T> => {
    const server = await startTestServer({ root, server: { watch: false } });
    try {
      return await use(server);
    } finally {
      await server.running.close();
    }
  };
  return {
    name: 'in-process (--dir)',
    root,
    args: ['--dir', root],
    rest: (method, urlPath, body) => withServer(async (server) => envelope(await server.api(method, urlPath, body))),
    restBytes: (urlPath) =>
      withServer(async (server) => Buffer.from(await (await fetch(server.url + urlPath)).arrayBuffer())),
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

export async function urlMode(): Promise<Mode> {
  const server = await startTestServer();
  return {
    name: 'through a server (--url)',
    root: server.root,
    args: ['--url', server.url],
    rest: async (method, urlPath, body) => envelope(await server.api(method, urlPath, body)),
    restBytes: async (urlPath) => Buffer.from(await (await fetch(server.url + urlPath)).arrayBuffer()),
    close: () => server.close(),
  };
}

function envelope(answer: { status: number; body: { ok: boolean; data?: any; error?: string } | null }) {
  return { status: answer.status, data: answer.body?.data, error: answer.body?.error };
}

/** The REST data of a successful GET. */
export async function restData(mode: Mode, urlPath: string): Promise<any> {
  const answer = await mode.rest('GET', urlPath);
  assert.equal(answer.status, 200, `GET ${urlPath}: ${answer.status} ${answer.error ?? ''}`);
  return answer.data;
}

export const ESCAPE = '\u001b[';

/** What a suite run in one mode works with: the mode, and `kanban` run with that mode's arguments. */
export interface ModeSuite {
  readonly mode: Mode;
  readonly inProcess: boolean;
  k(...args: string[]): Promise<Run>;
}

/**
 * The CLI suites' shared opening: `title` described once per mode, with the CLI built from the
 * current sources and one fresh workspace for the whole suite (`prepare` seeds it), removed after.
 */
export function describeInBothModes(
  title: string,
  body: (cli: ModeSuite) => void,
  prepare?: (mode: Mode) => Promise<void>,
): void {
  for (const open of [inProcessMode, urlMode]) {
    describe(`${title}, ${open === inProcessMode ? 'in-process (--dir)' : 'through a server (--url)'}`, function () {
      this.timeout(90_000);
      let mode: Mode | undefined;
      const current = (): Mode => {
        if (!mode) throw new Error('the mode is opened in before()');
        return mode;
      };
      before(async () => {
        buildCli();
        mode = await open();
        await prepare?.(mode);
      });
      after(async () => mode?.close());
      body({
        get mode() {
          return current();
        },
        inProcess: open === inProcessMode,
        k: (...args) => kanban([...args, ...current().args]),
      });
    });
  }
}
