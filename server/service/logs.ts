import { ValidationError } from '../core/errors';
import type { Card } from '../core/model';
import { checkCardWrite } from './fileTruth';
import { isIsoDate } from './validate';
import type { Workspace } from './workspace';
import type { LogBody } from '../core/shapes/requests/cardNotes';
import type { LogEntry, LogOwner } from '../storage/logStore';

export type { LogEntry } from '../storage/logStore';

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

/** The log of a card, as the log store names it. */
export function cardLog(card: Pick<Card, 'boardId' | 'id'>): LogOwner {
  return { boardId: card.boardId, cardId: card.id };
}

// Operations: every append or clear goes through the mutation queue and emits one event.

export async function addTaskLog(ws: Workspace, card: Card, input: LogBody, actor: string): Promise<LogEntry> {
  return ws.mutate(async () => {
    const entry = makeEntry(input);
    await ws.logs.append(cardLog(card), entry);
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
    await ws.logs.clear(cardLog(card));
    ws.emit('log.cleared', card.boardId, { taskId: card.id }, card);
    return { cleared: true };
  });
}

export async function addBoardLog(ws: Workspace, boardId: string, input: LogBody): Promise<LogEntry> {
  return ws.mutate(async () => {
    const entry = makeEntry(input);
    await ws.logs.append({ boardId }, entry);
    ws.emit('board.log.added', boardId, { entry });
    return entry;
  });
}

export async function clearBoardLogs(ws: Workspace, boardId: string) {
  return ws.mutate(async () => {
    await ws.logs.clear({ boardId });
    ws.emit('board.log.cleared', boardId, {});
    return { cleared: true };
  });
}
