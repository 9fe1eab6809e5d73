import * as path from 'node:path';
import { originProblem } from '../config/origins';
import { startServer } from '../server';
import { UsageError } from './usage';
import { limitHeapGrowth } from '../live/heapTuning';

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  allowUnauthenticated: boolean;
}

export const SERVE_USAGE = `usage: kanban serve [--dir <workspace>] [--port <n>] [--host <addr>] [--allowed-host <name>]... [--allow-origin <origin>]...
  --dir           workspace folder (env KANBAN_WORKSPACE; default: current folder)
  --port          port to listen on (env PORT; default 3000; 0 picks a free one)
  --host          address to bind (env HOST; default 127.0.0.1)
  --allowed-host  extra Host header name to accept (repeatable), e.g. behind a proxy
  --allow-origin  web origin whose pages may change the board (repeatable), e.g. http://localhost:5173;
                  also .kanban.json "server": {"allowedOrigins": [...]}
  --allow-unauthenticated  serve a non-loopback --host without an auth.identity provider`;

function fail(message: string): never {
  throw new UsageError(message, SERVE_USAGE);
}

function checkedOrigin(origin: string): string {
  const problem = originProblem(origin);
  return problem ? fail(`--allow-origin: ${problem}`) : origin;
}

/** The options of `kanban serve`; `--help` answers null (the caller prints the usage). */
export function parseServeArgs(argv: string[], env: NodeJS.ProcessEnv): ServeOptions | null {
  const options: ServeOptions = {
    dir: env.KANBAN_WORKSPACE || process.cwd(),
    port: env.PORT ? Number(env.PORT) : 3000,
    host: env.HOST || '127.0.0.1',
    allowedHosts: [],
    allowedOrigins: [],
    allowUnauthenticated: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--dir') options.dir = value();
    else if (flag === '--port') options.port = Number(value());
    else if (flag === '--host') options.host = value();
    else if (flag === '--allowed-host') options.allowedHosts.push(value());
    else if (flag === '--allow-origin') options.allowedOrigins.push(checkedOrigin(value()));
    else if (flag === '--allow-unauthenticated') options.allowUnauthenticated = true;
    else if (flag === '--help' || flag === '-h') return null;
    else fail(`unknown option ${arg}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    fail('port must be a whole number from 0 to 65535');
  options.dir = path.resolve(options.dir);
  return options;
}

/** `kanban serve` (and dist/server.js): the board and API until SIGINT or SIGTERM. */
export async function runServe(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const options = parseServeArgs(argv, env);
  if (!options) {
    console.log(SERVE_USAGE);
    return;
  }
  const started = Date.now();
  let running;
  try {
    running = await startServer({ ...options, root: options.dir });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') fail(`port ${options.port} is already in use; pick another with --port`);
    console.error(`kanban: cannot start: ${e.message}`);
    process.exit(1);
  }
  limitHeapGrowth();
  const cards = running.workspace.index.size;
  console.log(`kanban: board and API on ${running.url} (API at ${running.url}/api, docs at ${running.url}/api/docs)`);
  console.log(`kanban: workspace ${options.dir}, ${cards} card(s), ready in ${Date.now() - started} ms`);
  const stop = async () => {
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
