import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, promises as fs, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '../../../extension/server/freePort';

const run = promisify(execFile);
export const repoRoot = path.resolve(__dirname, '../../..');
const BIN = path.join(repoRoot, '.cache/code-server/node_modules/.bin/code-server');
/** KANBAN_E2E_VSIX: another build to measure (e.g. a copy of an older .vsix, for before and after). */
export const VSIX = process.env.KANBAN_E2E_VSIX ?? path.join(repoRoot, 'dist/repo-kanban.vsix');
/** Screenshots of the e2e run; the measurements go next to this folder (test-output/e2e-metrics.json). */
export const OUTPUT_DIR = path.join(repoRoot, 'test-output/screenshots');
export const METRICS_FILE = path.join(repoRoot, 'test-output/e2e-metrics.json');

/**
 * Adds `values` to the e2e metrics file, keeping what other suites wrote there (each suite owns its
 * keys), so one run of the e2e tests leaves all their measurements side by side.
 */
export function recordMetrics(values: Record<string, unknown>): void {
  let kept: Record<string, unknown> = {};
  try {
    kept = JSON.parse(readFileSync(METRICS_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // no file yet, or a broken one: start again
  }
  mkdirSync(path.dirname(METRICS_FILE), { recursive: true });
  writeFileSync(METRICS_FILE, `${JSON.stringify({ ...kept, ...values }, null, 2)}\n`);
  console.log(`      e2e metrics (${path.relative(process.cwd(), METRICS_FILE)}): ${JSON.stringify(values)}`);
}

export interface CodeServer {
  url: string;
  dirs: { userData: string; extensions: string; config: string };
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A real VS Code (code-server 4.100.3) over `folder`, in fresh user-data, extensions and config
 * folders, with the built .vsix installed. Started in its own process group, so stop() ends the
 * server and its extension host together.
 */
export async function startCodeServer(
  scratch: string,
  folder: string,
  settings: Record<string, unknown>,
  /** workspaceTrust: the editor asks for trust (the folder opens in Restricted Mode); off by default. */
  extra: { env?: Record<string, string>; extensionFolders?: string[]; workspaceTrust?: boolean } = {},
): Promise<CodeServer> {
  if (!existsSync(BIN))
    throw new Error(`code-server is not installed; run test/e2e/setup-code-server.sh first (${BIN})`);
  if (!existsSync(VSIX)) throw new Error(`${VSIX} is missing; npm run test:e2e packages it first`);
  const dirs = {
    userData: path.join(scratch, 'user-data'),
    extensions: path.join(scratch, 'extensions'),
    config: path.join(scratch, 'config'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  // User settings, and the same as the server machine's: a setting of machine scope (the API
  // server's host, port and autoStart) is read from there in a remote window, as code-server's is.
  const text = JSON.stringify(
    { 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, ...settings },
    null,
    2,
  );
  for (const scope of ['User', 'Machine']) {
    await fs.mkdir(path.join(dirs.userData, scope), { recursive: true });
    await fs.writeFile(path.join(dirs.userData, scope, 'settings.json'), text);
  }
  const env = { ...process.env, ...extra.env, XDG_CONFIG_HOME: dirs.config };
  const common = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];
  // Unpacked extensions go in before the first scan (the install below), which records what it finds.
  for (const source of extra.extensionFolders ?? []) {
    const manifest = JSON.parse(await fs.readFile(path.join(source, 'package.json'), 'utf8'));
    await fs.cp(source, path.join(dirs.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`), {
      recursive: true,
    });
  }
  await run(BIN, [...common, '--install-extension', VSIX], { env, timeout: 60_000 });
  const port = await findFreePort('127.0.0.1');
  const log = openSync(path.join(scratch, 'code-server.log'), 'a');
  const child = spawn(
    BIN,
    [
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      ...(extra.workspaceTrust ? [] : ['--disable-workspace-trust']),
      ...common,
      folder,
    ],
    { env, detached: true, stdio: ['ignore', log, log] },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const healthy = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`code-server did not start; see ${scratch}/code-server.log`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dirs,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      const late = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 8000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** Resident memory (MB) of the extension host that belongs to this code-server (same process group). */
export async function extensionHostRssMb(server: CodeServer): Promise<number | null> {
  for (const pid of await fs.readdir('/proc').then((names) => names.filter((n) => /^\d+$/.test(n)))) {
    try {
      const cmdline = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
      if (!/extensionHost/.test(cmdline)) continue;
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      if (group !== server.process.pid) continue;
      const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
      return Math.round((rssKb / 1024) * 10) / 10;
    } catch {
      // the process ended while we looked
    }
  }
  return null;
}

/** The lines the extension wrote to its "Kanban" output channel (the editor keeps them in its logs). */
export async function kanbanOutputLines(server: CodeServer): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (/Kanban\.log$/.test(entry.name))
        found.push(...(await fs.readFile(full, 'utf8')).split('\n').filter(Boolean));
    }
  }
  await walk(path.join(server.dirs.userData, 'logs'));
  return found;
}

/**
 * When the editor began activating this extension (the extension host logs it, in local time,
 * before it loads the bundle): with the "activated in" line this gives activation including load.
 */
export async function activationStartedAt(server: CodeServer): Promise<Date | null> {
  const entries = await fs
    .readdir(path.join(server.dirs.userData, 'logs'), { recursive: true, withFileTypes: true })
    .catch(() => []);
  for (const entry of entries.filter((e) => e.isFile() && e.name === 'remoteexthost.log')) {
    const text = await fs.readFile(path.join(entry.parentPath, entry.name), 'utf8');
    const match =
      /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[info\] ExtensionService#_doActivateExtension repo-kanban\.kanban-board-service\b/m.exec(
        text,
      );
    if (match) return new Date(`${match[1]}T${match[2]}`);
  }
  return null;
}

/**
 * Temporary folders of one suite (workspaces, editor state). Removed after a passing suite; kept
 * after a failure, where code-server.log and the editor logs explain what went wrong.
 */
export class TempDirs {
  private dirs: string[] = [];
  failed = false;

  async make(prefix: string): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async cleanUp(): Promise<void> {
    const dirs = this.dirs.splice(0);
    if (this.failed) {
      console.log(`      kept for inspection: ${dirs.join(' ')}`);
      return;
    }
    await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  }
}
