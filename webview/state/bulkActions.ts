import type { Priority, TaskView } from '../types';
import { DELETED_STATUS } from '../types';
import type { BoardController } from './controller';
import { refreshTask, removeTask } from './placement';
import { clearSelection, selectedIds } from './selection';

/** One kind of change, as `POST .../tasks/bulk` takes it. */
export type BulkChange =
  | { status: string; position?: number }
  | { priority: Priority }
  | { assignee: string | null }
  | { labels: { set?: string[]; add?: string[]; remove?: string[] } }
  | { archive: true }
  | { delete: true }
  | { restore: true; status?: string; position?: number };

type PerCard = { id: string } & Record<string, unknown>;

const enc = encodeURIComponent;

function describe(change: BulkChange, count: number): string {
  const cards = `${count} card${count === 1 ? '' : 's'}`;
  if ('status' in change) return `${cards} moved.`;
  if ('archive' in change) return `${cards} archived.`;
  if ('delete' in change) return `${cards} moved to Deleted.`;
  return `${cards} changed.`;
}

/**
 * What puts every card back as it was before `change`: per-card values of the same kind, for one
 * second bulk request. A move is undone by moves; an archive or a delete by restores, so listeners
 * hear `task.restored` (not a move out of the archive). Either goes back column by column in
 * ascending place, so each card lands exactly where it was.
 */
function undoOf(change: BulkChange, before: TaskView[], order: Record<string, string[]>): PerCard[] {
  if ('priority' in change) return before.map((t) => ({ id: t.id, priority: t.priority }));
  if ('assignee' in change) return before.map((t) => ({ id: t.id, assignee: t.assignee ?? null }));
  if ('labels' in change) return before.map((t) => ({ id: t.id, labels: { set: t.labels } }));
  const restoring = 'archive' in change || 'delete' in change;
  const places = before.map((t) => ({
    id: t.id,
    ...(restoring ? { restore: true } : {}),
    status: t.status,
    position: Math.max(0, (order[t.status] ?? []).indexOf(t.id)),
  }));
  return places.sort((a, b) => (a.status === b.status ? a.position - b.position : a.status < b.status ? -1 : 1));
}

/** Show what the server answered: archived cards leave the board, the others take their new state. */
function showAnswer(ctrl: BoardController, views: TaskView[]): void {
  ctrl.store.set((s) => {
    let set = { tasks: s.tasks, order: s.order };
    for (const view of views) set = view.archivedAt ? removeTask(set, view.id) : refreshTask(set, view);
    return {
      ...set,
      openTaskId: views.some((v) => v.id === s.openTaskId && (v.archivedAt || v.status === DELETED_STATUS))
        ? null
        : s.openTaskId,
    };
  });
}

async function send(
  ctrl: BoardController,
  boardId: string,
  body: { ids?: string[]; change?: BulkChange; changes?: PerCard[] },
): Promise<TaskView[] | undefined> {
  const views = await ctrl.attempt(() => ctrl.api.call<TaskView[]>('POST', `/boards/${enc(boardId)}/tasks/bulk`, body));
  if (!views || ctrl.state.boardId !== boardId) return views;
  showAnswer(ctrl, views);
  // A block move shifts places in the columns it leaves and enters: take the server's order whole.
  const move = body.change ? 'status' in body.change : 'status' in (body.changes?.[0] ?? {});
  if (move) void ctrl.refreshTasks();
  else ctrl.scheduleFilter(0);
  return views;
}

/**
 * Apply one change to the selected cards (or `ids`), all or nothing, then offer one Undo that
 * reverses the whole change with a second bulk request. A refusal shows the server's message and
 * leaves the selection as it was, so the user can adjust and retry.
 */
export async function bulkEdit(
  ctrl: BoardController,
  change: BulkChange,
  ids = selectedIds(ctrl.state),
): Promise<boolean> {
  const { boardId, tasks, order } = ctrl.state;
  if (!boardId || ids.length === 0) return false;
  const before = ids.map((id) => tasks[id]).filter((t): t is TaskView => Boolean(t));
  const undo = undoOf(change, before, order);
  const views = await send(ctrl, boardId, { ids, change });
  if (!views) return false;
  if ('archive' in change || 'delete' in change) clearSelection(ctrl);
  // Focus goes back to the first card of the block (in board order) once it is taken back.
  ctrl.offerUndo(describe(change, views.length), () => void send(ctrl, boardId, { changes: undo }), ids[0]);
  return true;
}

/** Drop of a selected card: every selected card moves, as one block where the dragged card was dropped. */
export function moveSelected(ctrl: BoardController, status: string, position: number): Promise<boolean> {
  return bulkEdit(ctrl, { status, position });
}
