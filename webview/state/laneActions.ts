import type { TaskView } from '../types';
import { messageOf, type BoardController } from './controller';
import { laneFields, laneKeyOf, parseGroupBy } from './lanes';
import { placeTask, refreshTask } from './placement';
import { moveCard } from './taskActions';

/** The ids one lane shows in one column, in column order (those matching the filter, when set). */
export function laneIdsOf(ctrl: BoardController, status: string, lane: string): string[] {
  const { order, matches, tasks, labels, groupBy } = ctrl.state;
  const grouping = parseGroupBy(groupBy);
  const all = order[status] ?? [];
  const visible = matches ? all.filter((id) => matches.has(id)) : all;
  if (!grouping) return visible;
  return visible.filter((id) => tasks[id] && laneKeyOf(grouping, tasks[id], labels) === lane);
}

/** The lane a card is drawn in, or null without lanes. */
export function laneOfTask(ctrl: BoardController, taskId: string): string | null {
  const grouping = parseGroupBy(ctrl.state.groupBy);
  const task = ctrl.state.tasks[taskId];
  return grouping && task ? laneKeyOf(grouping, task, ctrl.state.labels) : null;
}

/**
 * A drop into another lane (and maybe another column): the lane's field, the column and the place
 * go in ONE move request, so a refusal (a WIP limit that blocks, a bad value) changes none of them
 * and the card never shows half moved.
 */
export async function moveCardToLane(
  ctrl: BoardController,
  taskId: string,
  status: string,
  position: number,
  lane: string,
): Promise<boolean> {
  const { boardId, tasks, order, labels, groupBy } = ctrl.state;
  const grouping = parseGroupBy(groupBy);
  const task = tasks[taskId];
  if (!boardId || !task) return false;
  if (!grouping || laneKeyOf(grouping, task, labels) === lane) return moveCard(ctrl, taskId, status, position);
  const fields = laneFields(grouping, task, lane, labels);
  const originalIndex = (order[task.status] ?? []).indexOf(taskId);
  ctrl.store.set((s) => placeTask(s, { ...task, ...fields, status, position } as TaskView));
  try {
    const moved = await ctrl.api.moveTask(boardId, taskId, status, position, fields);
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => refreshTask(s, moved));
  } catch (error) {
    if (ctrl.state.boardId === boardId && ctrl.state.tasks[taskId])
      ctrl.store.set((s) => placeTask(s, task, originalIndex));
    ctrl.toast('error', `The card could not be moved: ${messageOf(error)}`);
    return false;
  }
  ctrl.scheduleFilter(0);
  return true;
}
