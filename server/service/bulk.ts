import type { Card, TaskView } from '../core/model';
import { log } from '../core/log';
import { archiveTask, restoreTask } from './archive';
import { planBulk, placeIn, type BulkChange, type BulkItem, type BulkPlan, type BulkRequest } from './bulkPlan';
import { writeCardsChecked } from './fileTruth';
import { moveTask, saveCards, softDeleteTask, updateTask } from './tasks';
import type { Workspace } from './workspace';
import { throwIfCancelled, type RunControl } from '../core/progress';

export type { BulkRequest } from './bulkPlan';

/**
 * Bulk edits: one kind of change to many cards, all or nothing. Everything is checked first (ids,
 * the change, WIP limits under `block`, `versions`, and that no card file changed on disk); then
 * each card goes through the same function as its single edit, so each gets its own event. Should a
 * write still fail part way (a disk error, a file edited in the instant between the check and the
 * write), the cards already changed are written back as they were, each with an event saying so.
 */
export async function bulkEdit(
  ws: Workspace,
  boardId: string,
  request: BulkRequest,
  versionOf: (card: Card) => string,
  run: RunControl = {},
): Promise<TaskView[]> {
  return ws.mutate(async () => {
    const plan = planBulk(ws, boardId, request, versionOf);
    // Every file checked before any is written: a card edited by hand refuses the request (409) untouched.
    await writeCardsChecked(
      ws,
      plan.items.map((item) => item.card),
      async () => undefined,
    );
    return applyPlan(ws, boardId, plan, run);
  });
}

/** A cancel is looked at between cards and rolls back the ones already changed, as a failed write does. */
async function applyPlan(ws: Workspace, boardId: string, plan: BulkPlan, run: RunControl): Promise<TaskView[]> {
  const done: Card[] = [];
  const views: TaskView[] = [];
  const report = ws.progress.reporter('tasks.bulk', run.onProgress);
  let blockAt: { previous: TaskView } | null = null;
  try {
    for (const item of plan.items) {
      throwIfCancelled(run.signal, 'the bulk edit');
      report('changing cards', done.length, plan.items.length);
      const position = plan.block && blockAt ? nextInBlock(ws, blockAt.previous, item) : item.change.position;
      const view = await applyOne(ws, boardId, plan.kind, item.card, item.change, position);
      done.push(item.card);
      views.push(view);
      blockAt = { previous: view };
    }
    report('changing cards', done.length, plan.items.length);
  } catch (error) {
    await rollBack(ws, done);
    throw error;
  }
  return views;
}

/**
 * The place right under the card moved before, counted without the card about to move (a move's
 * position is among the column's other cards), so a bulk move lands as one block in the order given.
 */
function nextInBlock(ws: Workspace, previous: TaskView, item: BulkItem): number {
  const before = ws.index.get(previous.boardId, previous.id);
  if (!before) return previous.position + 1;
  const at = ws.index.positionOf(before);
  const status = item.change.status as string;
  const own = placeIn(item.card, status) ? ws.index.positionOf(item.card) : -1;
  return at - (own !== -1 && own < at ? 1 : 0) + 1;
}

function applyOne(
  ws: Workspace,
  boardId: string,
  kind: BulkPlan['kind'],
  card: Card,
  change: BulkChange,
  position: number | undefined,
): Promise<TaskView> {
  switch (kind) {
    case 'move':
      return moveTask(ws, boardId, card.id, change.status as string, position ?? 0);
    case 'priority':
      return updateTask(ws, boardId, card.id, { priority: change.priority });
    case 'assignee':
      return updateTask(ws, boardId, card.id, { assignee: change.assignee ?? null });
    case 'labels':
      return updateTask(ws, boardId, card.id, { labels: labelsAfter(card.labels, change.labels ?? {}) });
    case 'archive':
      return archiveTask(ws, boardId, card.id);
    case 'delete':
      return softDeleteTask(ws, boardId, card.id);
    case 'restore':
      return restoreTask(ws, boardId, card.id, change.status, position);
  }
}

/** `set` replaces the list; otherwise `remove` takes names out and `add` appends the missing ones. */
export function labelsAfter(current: readonly string[], change: NonNullable<BulkChange['labels']>): string[] {
  if (change.set !== undefined) return [...change.set];
  const removed = new Set(change.remove ?? []);
  const kept = current.filter((label) => !removed.has(label));
  return [...kept, ...(change.add ?? []).filter((label) => !kept.includes(label))];
}

/**
 * Put back the cards a failed bulk request had already changed, newest first. Each is a write of
 * the card as it was, with an event (`data.rolledBack: true`), so clients that saw the change see
 * it undone. A card that cannot be written back either is logged and named by the error.
 */
async function rollBack(ws: Workspace, changed: Card[]): Promise<void> {
  for (const previous of [...changed].reverse()) {
    const current = ws.index.findById(previous.id);
    if (!current || current === previous) continue;
    try {
      await saveCards(ws, [{ card: previous, previous: current }]);
      const moved = current.status !== previous.status || current.archivedAt !== previous.archivedAt;
      if (moved)
        ws.emit(
          'task.moved',
          previous.boardId,
          { taskId: previous.id, from: current.status, to: previous.status, rolledBack: true },
          previous,
        );
      else ws.emit('task.updated', previous.boardId, { taskId: previous.id, rolledBack: true }, previous);
    } catch (error) {
      log.error(`kanban: a failed bulk edit could not put card ${previous.id} back:`, error);
    }
  }
}
