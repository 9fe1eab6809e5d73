import { ApiError } from '../api';
import type { TaskView } from '../types';
import { messageOf, type BoardController } from './controller';
import { CHANGED_ELSEWHERE } from './drawerActions';
import { placeTask } from './placement';
import type { Layout } from './appState';

/** The fields a table row shows: a card that differs in one of them is not the version the person saw. */
function shownFields(task: TaskView): string {
  return JSON.stringify([
    task.title,
    task.status,
    task.priority,
    task.assignee,
    task.dueDate,
    task.labels,
    task.modified,
  ]);
}

/**
 * Save an inline table edit through the update route, only onto the version the row shows. List
 * answers carry no ETag, so the card is read first: when it differs from the row the change is not
 * sent; otherwise it goes out with that read's ETag as If-Match, so a change landing in between is
 * refused (412) rather than overwritten. A refusal shows the newer card and the usual notice.
 * Resolves with the stored card, or undefined when nothing was saved.
 */
export async function saveTableEdit(
  ctrl: BoardController,
  taskId: string,
  patch: Record<string, unknown>,
): Promise<TaskView | undefined> {
  const { boardId, tasks } = ctrl.state;
  const shown = tasks[taskId];
  if (!boardId || !shown) return undefined;
  try {
    const current = await ctrl.api.getTaskVersioned(boardId, taskId);
    if (shownFields(current.data) !== shownFields(shown)) return changedElsewhere(ctrl, boardId, current.data);
    const { data } = await ctrl.api.updateTaskIfMatch(boardId, taskId, patch, current.etag);
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, data));
    ctrl.scheduleFilter(0);
    return data;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 412 || error.status === 409)) {
      const latest = await ctrl.attempt(() => ctrl.api.getTask(boardId, taskId));
      return latest ? changedElsewhere(ctrl, boardId, latest) : undefined;
    }
    ctrl.toast('error', `The card could not be saved: ${messageOf(error)}`);
    return undefined;
  }
}

function changedElsewhere(ctrl: BoardController, boardId: string, latest: TaskView): undefined {
  if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, latest));
  ctrl.toast('error', `${CHANGED_ELSEWHERE} Your change was not saved; the newer version is shown.`);
  return undefined;
}

/** Board or table: shown at once and remembered as a preference, so a reload keeps the table. */
export function setLayout(ctrl: BoardController, layout: Layout): void {
  if (ctrl.state.layout === layout) return;
  ctrl.store.set({ layout, cardMenu: null, quickAddStatus: null });
  ctrl.persist({ layout });
}

/** The layout chosen last time, put back before the first load draws anything. */
export function restoreLayout(ctrl: BoardController): void {
  const saved = ctrl.preference('layout');
  if (saved === 'table' || saved === 'board' || saved === 'metrics') ctrl.store.set({ layout: saved });
}
