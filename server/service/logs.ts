import type { Static } from '@sinclair/typebox';
import type { LogEntrySchema } from '../core/shapes/logEntry';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../core/errors';
import type { Card } from '../core/model';
import { checkCardWrite } from './fileTruth';
import { isIsoDate } from './validate';
import type { Workspace } from './workspace';
import { log } from '../core/log';
import type { LogBody } from '../core/shapes/requests/cardNotes';

/** A log entry exactly as posted, plus `source` and `timestamp` defaults. */
export type LogEntry = Static<typeof LogEntrySchema>;

export function logFileOf(ws: Workspace, card: Pick<Card, 'boardId' | 'id'>): string {
  return path.join(ws.kanbanDir, 'boards', card.boardId, 'logs', `${card.id}.jsonl`);
}

export function boardLogFileOf(ws: Workspace, boardId: string): string {
  return path.join(ws.kanbanDir, 'boards', boardId, 'board.jsonl');
}

export function makeEntry(input: LogBody): LogEntry {
  if (input.text.trim() === '') throw new ValidationError('text must not be empty');
  if (input.timestamp !== undefined && !isIsoDate(input.timestamp)) {
    throw new ValidationError(`timestamp must be ISO 8601, such as 2026-05-01T12:00:00Z (got "${input.timestamp}")`);
  }
  const entry: LogEntry = {
    text: input.text,
    source: input.source ?? 'default',
    timestamp: input.timestamp ?? new Date().toISOString(),
  };
  if (input.object !== undefined) entry.object = input.object;
  return entry;
}

/**
 * One JSON object per line. Appending a single line with O_APPEND never rewrites earlier entries;
 * a line cut short by a crash is skipped on read rather than failing the whole log.
 */
export async function appendEntry(file: string, entry: LogEntry): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // After a crash mid-line the new entry must start on a line of its own, or it is lost with the torn one.
  const separator = (await endsWithoutNewline(file)) ? '\n' : '';
  await fs.appendFile(file, separator + JSON.stringify(entry) + '\n');
}

async function endsWithoutNewline(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

export async function readEntries(file: string): Promise<LogEntry[]> {
  const text = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const entries: LogEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line));
    } catch {
      log.warn(`kanban: skipped an unreadable line in ${file}`);
    }
  }
  return entries;
}

export async function clearEntries(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

// Operations: every append or clear goes through the mutation queue and emits one event.

export async function addTaskLog(ws: Workspace, card: Card, input: LogBody, actor: string): Promise<LogEntry> {
  return ws.mutate(async () => {
    const entry = makeEntry(input);
    await appendEntry(logFileOf(ws, card), entry);
    await ws.cardStates.recordActivity(card, actor);
    ws.emit('log.added', card.boardId, { taskId: card.id, entry }, ws.index.get(card.boardId, card.id) ?? card);
    return entry;
  });
}

/**
 * A log entry sent by a caller (REST, CLI, MCP): like every other write to the card, refused while
 * another agent's claim on it runs. The service's own entries (claims, sessions) use addTaskLog.
 */
export async function addCallerLog(ws: Workspace, card: Card, input: LogBody, actor: string): Promise<LogEntry> {
  await checkCardWrite(ws, [card]);
  return addTaskLog(ws, card, input, actor);
}

/** A caller emptying a card's log: refused, like addCallerLog, while another agent holds the card. */
export async function clearCallerLogs(ws: Workspace, card: Card) {
  await checkCardWrite(ws, [card]);
  return clearTaskLogs(ws, card);
}

export async function clearTaskLogs(ws: Workspace, card: Card) {
  return ws.mutate(async () => {
    await clearEntries(logFileOf(ws, card));
    ws.emit('log.cleared', card.boardId, { taskId: card.id }, card);
    return { cleared: true };
  });
}

export async function addBoardLog(ws: Workspace, boardId: string, input: LogBody): Promise<LogEntry> {
  return ws.mutate(async () => {
    const entry = makeEntry(input);
    await appendEntry(boardLogFileOf(ws, boardId), entry);
    ws.emit('board.log.added', boardId, { entry });
    return entry;
  });
}

export async function clearBoardLogs(ws: Workspace, boardId: string) {
  return ws.mutate(async () => {
    await clearEntries(boardLogFileOf(ws, boardId));
    ws.emit('board.log.cleared', boardId, {});
    return { cleared: true };
  });
}
