import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createFileExclusive, writeFileAtomic } from '../core/atomicFile';
import { ensureStateDir } from '../storage/state/fileCardStateStore';
import { processAlive } from '../live/serverRecord';

/**
 * The board process (`kanban daemon`) of a workspace leaves `.kanban/.state/daemon.json`: where it
 * listens, the key every call must carry (the file is readable by its owner only), and the version
 * of kanban it runs, so a command of another version never talks to it.
 */
export interface DaemonRecord {
  pid: number;
  url: string;
  key: string;
  version: string;
  started: string;
  cards: number;
}

/** How long a start may take before another command may try again (a 100,000-card first load is ~10 s). */
const START_LOCK_MS = 120_000;

function stateDir(root: string): string {
  return path.join(root, '.kanban', '.state');
}

export function daemonRecordPath(root: string): string {
  return path.join(stateDir(root), 'daemon.json');
}

function startLockPath(root: string): string {
  return path.join(stateDir(root), 'daemon.starting');
}

export async function writeDaemonRecord(root: string, record: DaemonRecord): Promise<void> {
  await ensureStateDir(stateDir(root));
  await writeFileAtomic(daemonRecordPath(root), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

export async function readDaemonRecord(root: string): Promise<DaemonRecord | null> {
  const text = await fs.readFile(daemonRecordPath(root), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const r = JSON.parse(text) as Partial<DaemonRecord>;
    if (
      typeof r.pid !== 'number' ||
      typeof r.url !== 'string' ||
      typeof r.key !== 'string' ||
      typeof r.version !== 'string'
    )
      return null;
    return {
      pid: r.pid,
      url: r.url,
      key: r.key,
      version: r.version,
      started: String(r.started ?? ''),
      cards: Number(r.cards ?? 0),
    };
  } catch {
    return null;
  }
}

/** The daemon serving this folder now, or null (no record, or the record of a process that is gone). */
export async function findLiveDaemon(root: string): Promise<DaemonRecord | null> {
  const record = await readDaemonRecord(root);
  return record && processAlive(record.pid) ? record : null;
}

/** Remove the record, but only this process's: a newer daemon may have replaced it. */
export async function removeDaemonRecord(root: string, pid: number): Promise<void> {
  const current = await readDaemonRecord(root);
  if (current && current.pid === pid) await fs.rm(daemonRecordPath(root), { force: true });
}

/**
 * Take the right to start this folder's daemon: one command starts it, the others go on in-process
 * meanwhile. A lock older than a start can take is left by a start that died, and is taken over.
 */
export async function takeStartLock(root: string): Promise<boolean> {
  await ensureStateDir(stateDir(root));
  const file = startLockPath(root);
  if (await createFileExclusive(file, String(process.pid))) return true;
  const stat = await fs.stat(file).catch(() => null);
  if (stat && Date.now() - stat.mtimeMs < START_LOCK_MS) return false;
  await fs.rm(file, { force: true });
  return createFileExclusive(file, String(process.pid));
}

export async function releaseStartLock(root: string): Promise<void> {
  await fs.rm(startLockPath(root), { force: true });
}
