import { ApiError, type Versioned } from '../api';
import type { TaskView } from '../types';
import { messageOf, type BoardController } from './controller';
import { CHANGED_ELSEWHERE, type CardVersion } from './drawerActions';
import { placeTask } from './placement';

/**
 * Tick, reword or add a checklist item from the drawer, onto the version the drawer shows
 * (If-Match). The answer (or, after a 412, the newer card) goes to the board at once, so the
 * card's progress chip follows without waiting for the live event.
 */
export async function changeChecklist(
  ctrl: BoardController,
  taskId: string,
  call: (boardId: string) => Promise<Versioned<TaskView>>,
): Promise<CardVersion | null> {
  const boardId = ctrl.state.boardId;
  if (!boardId) return null;
  try {
    const { data, etag } = await call(boardId);
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, data));
    return { task: data, etag };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 412)) {
      ctrl.toast('error', messageOf(error));
      return null;
    }
    ctrl.toast('info', `${CHANGED_ELSEWHERE} The newer checklist is shown; nothing was changed.`);
    const latest = await ctrl.attempt(() => ctrl.api.getTaskVersioned(boardId, taskId));
    if (!latest) return null;
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, latest.data));
    return { task: latest.data, etag: latest.etag };
  }
}

/** The board a card is on: the one shown when it holds the card, else the first that answers for it. */
export async function boardOfCard(ctrl: BoardController, taskId: string): Promise<string | null> {
  if (ctrl.state.boardId && ctrl.state.tasks[taskId]) return ctrl.state.boardId;
  for (const board of ctrl.state.boards) {
    const found = await ctrl.api.getTask(board.id, taskId).then(
      () => true,
      () => false,
    );
    if (found) return board.id;
  }
  return null;
}
