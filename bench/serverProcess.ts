import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { monotonicUs } from './profileSummary';

const SERVER_SCRIPT = path.join(__dirname, '..', 'dist', 'server.js');
const READY_LINE = /kanban: board and API on http:\/\/127\.0\.0\.1:(\d+)/;
/** Reading 100,000 card files on a busy 2-core machine can take minutes. */
const START_TIMEOUT_MS = 300_000;

/** The server could not start; `output` is what it printed, for the one-line message. */
export class ServerStartError extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/** The real server (`node dist/server.js`) as a child process over a workspace folder. */
export interface ServerChild {
  pid: number;
  baseUrl: string;
  port: number;
  /** When it was spawned, in microseconds of the monotonic clock (to line up with a CPU profile). */
  spawnedAtUs: number;
  /** Milliseconds from spawn to the first successful answer: the first page, `GET /api/tasks?limit=50`. */
  startupMs: number;
  /** Resident memory of the child now, in MB (from /proc). */
  rssMb(): Promise<number>;
  /** CPU time (user + system) the child has used so far, in ms (from /proc). */
  cpuMs(): Promise<number>;
  /** SIGTERM, then wait for the exit (a CPU profile, when asked for, is written on exit). */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra flags for node itself, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Another build's server script (a copy of an older `dist/`), to compare builds in one loop. */
  script?: string;
}

export async function startServerChild(root: string, options: StartOptions = {}): Promise<ServerChild> {
  const startedAt = performance.now();
  const spawnedAtUs = monotonicUs();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), options.script ?? SERVER_SCRIPT, '--dir', root, '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PORT: '', HOST: '', KANBAN_WORKSPACE: '' },
    },
  );
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const port = await waitForPort(child, () => output, exited);
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForFirstAnswer(baseUrl, exited, () => output);
    const startupMs = performance.now() - startedAt;
    return {
      pid: child.pid!,
      baseUrl,
      port,
      spawnedAtUs,
      startupMs,
      rssMb: () => readRssMb(child.pid!),
      cpuMs: () => readCpuMs(child.pid!),
      stop: () => stopChild(child, exited),
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

function waitForPort(child: ChildProcess, output: () => string, exited: Promise<number | null>): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ServerStartError(`the server printed no address within ${START_TIMEOUT_MS / 1000} s`, output())),
      START_TIMEOUT_MS,
    );
    const check = () => {
      const match = READY_LINE.exec(output());
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      resolve(Number(match[1]));
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new ServerStartError(`the server exited with code ${code} before it was ready`, output()));
    });
  });
}

async function waitForFirstAnswer(
  baseUrl: string,
  exited: Promise<number | null>,
  output: () => string,
): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (gone) throw new ServerStartError('the server exited before it answered', output());
    // The first page, as a paging client (the CLI, MCP) asks: the whole list is timed on its own (firstListMs).
    const answer = await fetch(`${baseUrl}/api/tasks?limit=50`).catch(() => null);
    if (answer?.ok) {
      await answer.arrayBuffer();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new ServerStartError('GET /api/tasks?limit=50 never succeeded', output());
}

async function readRssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** Linux reports process CPU time in clock ticks; 100 per second on every common kernel config. */
const CLOCK_TICKS_PER_SECOND = 100;

export async function readCpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; fields after its closing parenthesis are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime: fields 14 and 15
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref());
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}
