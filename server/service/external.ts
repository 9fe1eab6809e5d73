import type { Card } from '../core/model';
import type { Payload } from '../core/events';
import { isArchived } from '../core/cardPlace';
import { ARCHIVED_STATUS } from '../core/shapes/vocabulary';
import { ConfigError, defaultConfig, parseConfig } from '../config/parseConfig';
import type { KanbanConfig } from '../config/types';
import { serializeCard } from '../storage/cardFile';
import type { ExternalChange } from '../storage/cardStore';
import { boardView } from './boards';
import type { WorkspaceState } from './workspaceState';
import { log } from '../core/log';
import { unknownConfigKeysIn } from '../config/unknownKeys';
import { noteConfigWarnings } from './configWarnings';

/**
 * Changes made outside the service — a hand edit, a git checkout, another server on the same
 * database — applied to the index with the same events an API change would emit. A change equal to
 * what the index holds (the echo of our own write) emits nothing.
 */
export function applyExternalChanges(ws: WorkspaceState, changes: ExternalChange[]): Promise<number> {
  return ws.mutate(async () => applyExternalChangesNow(ws, changes));
}

/** The same, for callers already inside the mutation queue (they must read files there too). */
export function applyExternalChangesNow(ws: WorkspaceState, changes: ExternalChange[]): number {
  let applied = 0;
  for (const change of changes) {
    const origin: Origin = change.peer ? { external: true, peer: true } : { external: true };
    if (
      change.kind === 'upsert'
        ? applyUpsert(ws, change.card, origin, change.relocated)
        : applyRemove(ws, change.boardId, change.id, origin)
    )
      applied++;
  }
  return applied;
}

/** How an outside change marks its events (the same fields on every event it can emit). */
type Origin = Pick<Payload<'task.created'>, 'external' | 'peer'>;

function applyUpsert(ws: WorkspaceState, card: Card, origin: Origin, relocated = false): boolean {
  const existing = ws.index.findById(card.id);
  if (!existing) {
    ws.index.put(card);
    ws.emit('task.created', card.boardId, { taskId: card.id, ...origin }, card);
    return true;
  }
  const moved = existing.boardId !== card.boardId || existing.status !== card.status;
  if (!moved && !relocated && serializeCard(existing) === serializeCard(card)) return false;
  ws.index.put(card);
  if (isArchived(existing) !== isArchived(card)) {
    // A file moved into or out of archived/ by hand: the same events as the archive routes.
    if (isArchived(card))
      ws.emit('task.archived', card.boardId, { taskId: card.id, status: card.status, ...origin }, card);
    else
      ws.emit(
        'task.restored',
        card.boardId,
        { taskId: card.id, from: ARCHIVED_STATUS, to: card.status, ...origin },
        card,
      );
  } else if (moved) {
    const data = { taskId: card.id, from: existing.status, to: card.status, ...origin };
    ws.emit(
      'task.moved',
      card.boardId,
      existing.boardId === card.boardId ? data : { ...data, fromBoard: existing.boardId, toBoard: card.boardId },
      card,
    );
  } else {
    ws.emit('task.updated', card.boardId, { taskId: card.id, ...origin }, card);
  }
  return true;
}

function applyRemove(ws: WorkspaceState, boardId: string, id: string, origin: Origin): boolean {
  const existing = ws.index.get(boardId, id);
  if (!existing) return false;
  ws.index.remove(existing);
  ws.emit('task.deleted', boardId, { taskId: id, permanent: true, ...origin }, existing);
  return true;
}

/**
 * Apply a `.kanban.json` changed on disk. A file that does not parse keeps the last good config.
 * Call inside the mutation queue with text read there, or a stale read could undo a newer write.
 */
export function applyExternalConfigNow(ws: WorkspaceState, text: string | null): boolean {
  if (ws.shared && text !== ws.configText) {
    // The shared part lives in the database; this file only says how to connect, read at start.
    // A file that does not parse is noted and not taken as read: a migration out of the
    // database writes this file, and must refuse to replace it.
    if (parsedOrNotedInvalid(ws, text)) ws.configText = text;
    log.warn(
      'kanban: .kanban.json changed; over a shared database its boards, labels, settings and webhooks are not used (they live in the database), and connection changes apply after a restart',
    );
    return false;
  }
  if (text === ws.configText) {
    // Back to the text in effect (a broken edit undone by hand): nothing to apply, nothing broken.
    ws.invalidFiles = ws.invalidFiles.filter((f) => f.path !== '.kanban.json');
    return false;
  }
  const next = parsedOrNotedInvalid(ws, text);
  if (!next) return false;
  const previous = ws.config;
  ws.config = next;
  ws.configText = text;
  noteConfigWarnings(ws, unknownConfigKeysIn(text));
  emitConfigDifferences(ws, previous, next);
  return true;
}

/** The configuration `text` holds, or null with the file listed among the invalid ones. */
function parsedOrNotedInvalid(ws: WorkspaceState, text: string | null): KanbanConfig | null {
  const others = ws.invalidFiles.filter((f) => f.path !== '.kanban.json');
  try {
    const parsed = text === null ? defaultConfig() : parseConfig(text);
    ws.invalidFiles = others;
    return parsed;
  } catch (error) {
    const reason = error instanceof ConfigError ? error.message : String(error);
    const line = error instanceof ConfigError ? error.line : undefined;
    ws.invalidFiles = [...others, { path: '.kanban.json', reason, ...(line ? { line } : {}) }];
    log.warn(`kanban: .kanban.json is invalid (${reason}); keeping the last good configuration`);
    return null;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `peer`: the change came from another instance over the shared database (see ExternalChange). */
export function emitConfigDifferences(
  ws: WorkspaceState,
  before: KanbanConfig,
  after: KanbanConfig,
  peer = false,
): void {
  const origin: Origin = peer ? { external: true, peer: true } : { external: true };
  if (!same(before.settings, after.settings))
    ws.emit('settings.updated', null, { settings: after.settings, ...origin });
  if (!same(before.labels, after.labels)) ws.emit('label.updated', null, { labels: after.labels, ...origin });
  const beforeBoards = new Map(before.boards.map((b) => [b.id, b]));
  const afterIds = new Set(after.boards.map((b) => b.id));
  for (const board of after.boards) {
    const old = beforeBoards.get(board.id);
    if (!old) ws.emit('board.created', board.id, { board: boardView(ws, board), ...origin });
    else if (!same(old, board)) ws.emit('board.updated', board.id, { board: boardView(ws, board), ...origin });
  }
  for (const board of before.boards)
    if (!afterIds.has(board.id)) ws.emit('board.deleted', board.id, { boardId: board.id, ...origin });
  // One event for any number of views changed by hand; `views` is the whole new list.
  if (!same(before.views, after.views)) ws.emit('view.updated', null, { views: after.views, ...origin });
  const rest = (c: KanbanConfig) => ({ ...c, settings: null, labels: null, boards: null, views: null });
  if (!same(rest(before), rest(after)) && same(before.settings, after.settings)) {
    // Forms, webhooks, plugins or the default board changed: clients refresh on settings.updated.
    ws.emit('settings.updated', null, { settings: after.settings, ...origin, config: true });
  }
}
