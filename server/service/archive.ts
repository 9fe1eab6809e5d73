import { NotFoundError, ValidationError } from '../core/errors';
import { isArchived } from '../core/cardPlace';
import { withColumnStep } from '../core/columnHistory';
import { ARCHIVED_STATUS, DELETED_STATUS } from '../core/shapes/vocabulary';
import type { BoardConfig, Card, TaskView } from '../core/model';
import { effectiveDefaultStatus } from './boards';
import { resolveCard } from './taskQueries';
import { appendKey, keyForPosition, saveCards, withCompletion } from './tasks';
import { taskView } from './views';
import { announceWipEntry, checkWipEntry } from './wipLimits';
import type { Workspace } from './workspace';
import type { Payload } from '../core/events';

/**
 * Archive: a card put away, distinct from a soft delete. It keeps its status (so a restore knows
 * where it came from), leaves the columns and the lists, and lives in the archive (`archived/` in
 * the Markdown store, `archived_at` in SQL). Every card archived or restored gets its own event.
 */

function archived(card: Card, at: string): Card {
  return { ...card, archivedAt: at, modified: at };
}

function checkArchivable(card: Card): void {
  if (card.status === DELETED_STATUS)
    throw new ValidationError(`card "${card.id}" is deleted; restore it before archiving it`);
}

/** Write archived copies of cards and announce each; an already archived card is left as it is. */
async function archiveCards(
  ws: Workspace,
  cards: readonly Card[],
  reason: Pick<Payload<'task.archived'>, 'column' | 'auto' | 'autoArchiveDays'> = {},
): Promise<Card[]> {
  const now = new Date().toISOString();
  const changes = cards
    .filter((card) => !isArchived(card))
    .map((previous) => ({ card: archived(previous, now), previous }));
  await saveCards(ws, changes);
  for (const { card } of changes)
    ws.emit('task.archived', card.boardId, { taskId: card.id, status: card.status, ...reason }, card);
  return changes.map((c) => c.card);
}

export async function archiveTask(ws: Workspace, boardId: string, idish: string): Promise<TaskView> {
  return ws.mutate(async () => {
    const previous = resolveCard(ws, boardId, idish);
    checkArchivable(previous);
    const [card = previous] = await archiveCards(ws, [previous]);
    return taskView(ws, card, { withComments: true });
  });
}

/** "Archive all": every card of one column, written as one change where the store can (SQL). */
export async function archiveColumn(ws: Workspace, boardId: string, columnId: string): Promise<TaskView[]> {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    if (!board.columns.some((c) => c.id === columnId))
      throw new NotFoundError(
        `column "${columnId}" is not a column of board "${boardId}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
      );
    const cards = await archiveCards(ws, [...ws.index.column(boardId, columnId)], { column: columnId });
    return cards.map((card) => taskView(ws, card));
  });
}

/**
 * Where a restored card goes: the column asked for, else the one it kept when archived or left
 * when deleted, else (that column is gone, or an older card never said) the board's default.
 */
export function restoreTarget(ws: Workspace, board: BoardConfig, card: Card, asked: string | undefined): string {
  const isColumn = (status: string) => board.columns.some((c) => c.id === status);
  if (asked !== undefined) {
    if (!isColumn(asked))
      throw new ValidationError(
        `status "${asked}" is not a column of board "${board.id}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
      );
    return asked;
  }
  if (isArchived(card) && isColumn(card.status)) return card.status;
  if (card.status === DELETED_STATUS && card.deletedFrom && isColumn(card.deletedFrom)) return card.deletedFrom;
  return effectiveDefaultStatus(ws, board);
}

/**
 * Bring a card back from the archive or from the deleted column, to `status` when given, else
 * where it was before (see restoreTarget). It lands at `position` when given (an undo puts it back where it was), else at the column's end.
 */
export async function restoreTask(
  ws: Workspace,
  boardId: string,
  idish: string,
  status?: string,
  position?: number,
): Promise<TaskView> {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const previous = resolveCard(ws, boardId, idish);
    const from = isArchived(previous) ? ARCHIVED_STATUS : previous.status === DELETED_STATUS ? DELETED_STATUS : null;
    if (!from)
      throw new ValidationError(
        `card "${previous.id}" is neither archived nor deleted (it is in ${previous.status}); nothing to restore`,
      );
    const target = restoreTarget(ws, board, previous, status);
    const wip = checkWipEntry(ws, board, target, { ...previous, status: DELETED_STATUS });
    const now = new Date().toISOString();
    const order =
      position === undefined
        ? appendKey(ws, boardId, target, previous.id)
        : await keyForPosition(ws, previous, target, position);
    const moved: Card = {
      ...previous,
      status: target,
      archivedAt: undefined,
      deletedFrom: undefined,
      order,
      modified: now,
    };
    const card = withColumnStep(withCompletion(moved, board, now), previous.status, now);
    await saveCards(ws, [{ card, previous }]);
    ws.emit('task.restored', boardId, { taskId: card.id, from, to: target }, card);
    announceWipEntry(ws, wip);
    return taskView(ws, card, { withComments: true });
  });
}

/**
 * Archive the cards that have stayed in their board's last column for `autoArchiveDays` or more
 * (by `completedAt`), on every board that sets it. Runs at start and hourly (live/autoArchive.ts);
 * `now` is a parameter so a test can ask about any moment without waiting.
 */
export async function runAutoArchive(ws: Workspace, now: Date = new Date()): Promise<TaskView[]> {
  return ws.mutate(async () => {
    const done: TaskView[] = [];
    for (const board of ws.config.boards) {
      const last = board.columns[board.columns.length - 1];
      if (!board.autoArchiveDays || !last) continue;
      const cutoff = now.getTime() - board.autoArchiveDays * 86_400_000;
      const due = ws.index
        .column(board.id, last.id)
        .filter((card) => card.completedAt !== undefined && Date.parse(card.completedAt) <= cutoff);
      const cards = await archiveCards(ws, due, { auto: true, autoArchiveDays: board.autoArchiveDays });
      done.push(...cards.map((card) => taskView(ws, card)));
    }
    return done;
  });
}
