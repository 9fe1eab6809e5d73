import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../core/atomicFile';
import { ensureStateDir } from '../storage/state/fileCardStateStore';

/**
 * A running server leaves a note in its workspace (`.kanban/.state/server.json`) so that the
 * command line, working on the same folder in-process, can tell that another process is writing
 * the same files and send its changes through that server instead.
 */
export interface ServerRecord {
  pid: number;
  url: string;
  started: string;
}

export function serverRecordPath(root: string): string {
  return path.join(root, '.kanban', '.state', 'server.json');
}

/** Write the note; a workspace that cannot take it still serves (the note is a courtesy). */
export async function writeServerRecord(root: string, url: string): Promise<ServerRecord> {
  const record: ServerRecord = { pid: process.pid, url, started: new Date().toISOString() };
  const file = serverRecordPath(root);
  try {
    // Also keeps .kanban/.state/ out of git, as the card state does.
    await ensureStateDir(path.dirname(file));
    await writeFileAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
  } catch (error) {
    console.warn(`kanban: could not record the running server in ${file}: ${(error as Error).message}`);
  }
  return record;
}

/** Remove the note, but only our own: a second server on the same folder may have replaced it. */
export async function removeServerRecord(root: string, record: ServerRecord): Promise<void> {
  const file = serverRecordPath(root);
  const current = await readRecordFile(file);
  if (current && current.pid === record.pid && current.url === record.url) await fs.rm(file, { force: true });
}

async function readRecordFile(file: string): Promise<ServerRecord | null> {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<ServerRecord>;
    if (typeof parsed.pid !== 'number' || typeof parsed.url !== 'string') return null;
    return { pid: parsed.pid, url: parsed.url, started: String(parsed.started ?? '') };
  } catch {
    return null;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server serving this folder now, or null (no note, or the note of a process that is gone). */
export async function findLiveServer(root: string): Promise<ServerRecord | null> {
  const record = await readRecordFile(serverRecordPath(root));
  return record && processAlive(record.pid) ? record : null;
}
