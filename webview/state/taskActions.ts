import { DELETED_STATUS, type TaskView } from '../types';
import { messageOf, type BoardController } from './controller';
import { placeTask, refreshTask, removeTask } from './placement';

/**
 * Move a card and show it at once; the server decides. On refusal the card goes back where it was
 * and the server's message shows.
 */
export async function moveCard(
  ctrl: BoardController,
  taskId: string,
  status: string,
  position: number,
  undoable = true,
): Promise<boolean> {
  const { boardId, tasks, order } = ctrl.state;
  const task = tasks[taskId];
  if (!boardId || !task) return false;
  const originalIndex = (order[task.status] ?? []).indexOf(taskId);
  if (task.status === status && originalIndex === position) return true;
  ctrl.store.set((s) => placeTask(s, { ...task, status, position }));
  const request = ctrl.api.moveTask(boardId, taskId, status, position);
  // The step is there from the moment the card is drawn in its new place: Ctrl+Z pressed before the
  // server has answered takes the move back once it has landed (and does nothing if it was refused).
  // Taking a move back is a move of its own, not a step to take back again.
  if (undoable)
    ctrl.rememberUndo(
      () =>
        void request.then(
          () => moveCard(ctrl, taskId, task.status, Math.max(0, originalIndex), false),
          () => undefined,
        ),
      taskId,
    );
  try {
    const moved = await request;
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => refreshTask(s, moved));
    ctrl.scheduleFilter(0);
    return true;
  } catch (error) {
    if (ctrl.state.boardId === boardId && ctrl.state.tasks[taskId]) {
      ctrl.store.set((s) => placeTask(s, task, originalIndex));
    }
    ctrl.toast('error', `The card could not be moved: ${messageOf(error)}`);
    return false;
  }
}

/**
 * Create a card from a title (and optional fields) at the end of a column: where the API puts a new
 * card, so a card looks the same in a column whoever added it.
 */
export async function createCard(
  ctrl: BoardController,
  status: string,
  title: string,
  fields: Record<string, unknown> = {},
): Promise<TaskView | undefined> {
  const boardId = ctrl.state.boardId;
  if (!boardId) return undefined;
  const created = await ctrl.attempt(() =>
    ctrl.api.createTask(boardId, { content: `# ${title.trim()}\n`, status, ...fields }),
  );
  if (!created) return undefined;
  ctrl.store.set((s) => placeTask(s, created));
  ctrl.scheduleFilter(0);
  return created;
}

/** Soft delete, with an undo that puts the card back in its column at its place. */
export async function softDeleteCard(ctrl: BoardController, taskId: string): Promise<void> {
  const { boardId, tasks, order } = ctrl.state;
  const task = tasks[taskId];
  if (!boardId || !task) return;
  const place = (order[task.status] ?? []).indexOf(taskId);
  const deleted = await ctrl.attempt(() => ctrl.api.deleteTask(boardId, taskId));
  if (!deleted) return;
  ctrl.store.set((s) => ({ ...placeTask(s, deleted), openTaskId: s.openTaskId === taskId ? null : s.openTaskId }));
  ctrl.offerUndo(
    `“${task.title}” moved to Deleted.`,
    () => void moveCard(ctrl, taskId, task.status, Math.max(0, place), false),
    taskId,
  );
}

/** Bring a soft-deleted card back to a column (the board's first by default), at the top. */
/**
 * Bring a card out of the deleted column: to `status` when the user picked one, else where the
 * service puts it (the column it was deleted from, or the board's default when that is gone).
 */
export async function restoreCard(ctrl: BoardController, taskId: string, status?: string): Promise<void> {
  const boardId = ctrl.state.boardId;
  if (status === undefined && boardId) {
    const restored = await ctrl.attempt(() => ctrl.api.restoreTask(boardId, taskId));
    if (!restored) return;
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, restored));
    ctrl.toast('info', 'Card restored.');
    return;
  }
  if (!status || status === DELETED_STATUS) return;
  if (await moveCard(ctrl, taskId, status, 0)) ctrl.toast('info', 'Card restored.');
}

export async function deleteCardPermanently(ctrl: BoardController, taskId: string): Promise<void> {
  const boardId = ctrl.state.boardId;
  if (!boardId) return;
  const done = await ctrl.attempt(async () => {
    await ctrl.api.deleteTaskPermanently(boardId, taskId);
    return true;
  });
  if (done)
    ctrl.store.set((s) => ({ ...removeTask(s, taskId), openTaskId: s.openTaskId === taskId ? null : s.openTaskId }));
}

/** Archive a card: it leaves the board (the Archive panel lists it), with an undo that restores it. */
export async function archiveCard(ctrl: BoardController, taskId: string): Promise<void> {
  const { boardId, tasks } = ctrl.state;
  const task = tasks[taskId];
  if (!boardId || !task) return;
  const archived = await ctrl.attempt(() => ctrl.api.archiveTask(boardId, taskId));
  if (!archived) return;
  ctrl.store.set((s) => ({ ...removeTask(s, taskId), openTaskId: s.openTaskId === taskId ? null : s.openTaskId }));
  ctrl.offerUndo(
    `“${task.title}” archived.`,
    () =>
      void ctrl.attempt(async () => {
        const restored = await ctrl.api.restoreTask(boardId, taskId);
        if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, restored));
        return restored;
      }),
    taskId,
  );
}
