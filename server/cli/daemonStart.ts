import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import * as path from 'node:path';
import { CliError } from './usage';
import { releaseStartLock, takeStartLock } from './daemonRecord';
import { DEFAULT_IDLE_SECONDS } from './daemonHost';

/**
 * KANBAN_DAEMON: `auto` (the default) starts the board process for a board of AUTO_MIN_CARDS
 * cards or more, `always` for any board, `never` neither starts nor uses one.
 */
export type DaemonMode = 'auto' | 'always' | 'never';

/** Below this, opening the folder in-process costs a few hundred ms at most, and no process is left behind. */
export const AUTO_MIN_CARDS = 5000;

export function daemonMode(env: NodeJS.ProcessEnv): DaemonMode {
  const value = (env.KANBAN_DAEMON ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return 'auto';
  if (value === 'always' || value === 'on' || value === '1') return 'always';
  if (value === 'never' || value === 'off' || value === '0') return 'never';
  throw new CliError(`KANBAN_DAEMON must be auto, always or never, not "${env.KANBAN_DAEMON}"`);
}

/** KANBAN_DAEMON_IDLE: seconds without a call before the board process ends (default 15 minutes). */
export function daemonIdleSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.KANBAN_DAEMON_IDLE;
  if (raw === undefined || raw === '') return DEFAULT_IDLE_SECONDS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError(`KANBAN_DAEMON_IDLE must be a number of seconds above 0, not "${raw}"`);
  return seconds;
}

/** The `kanban` bin beside this bundle (dist/cli.js), or from the sources' dist/ when run unbundled. */
function kanbanBin(): string | null {
  for (const candidate of [path.join(__dirname, 'cli.js'), path.join(__dirname, '..', '..', 'dist', 'cli.js')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Start the board process of `root` in the background, unless another command is starting it.
 * It writes its record when ready; until then commands go on in-process. Its errors go to
 * `.kanban/.state/daemon.log`. Answers the pid, or null when nothing was started.
 */
export async function startDaemon(root: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const bin = kanbanBin();
  if (!bin) return null;
  if (!(await takeStartLock(root))) return null;
  try {
    const log = openSync(path.join(root, '.kanban', '.state', 'daemon.log'), 'a');
    const child = spawn(process.execPath, [bin, 'daemon', 'run', '--dir', root], {
      cwd: root,
      env: { ...env, KANBAN_DAEMON_IDLE: String(daemonIdleSeconds(env)) },
      detached: true,
      stdio: ['ignore', log, log],
    });
    child.unref();
    return child.pid ?? null;
  } catch (error) {
    await releaseStartLock(root);
    throw error;
  }
}
