import type { Board, TaskView } from '../types';
import { DELETED_STATUS } from '../types';
import { messageOf, type BoardController } from './controller';
import { placeTask } from './placement';

/** A new sub-card starts where its parent is, or in the board's first column when the parent is deleted. */
export function subCardColumn(board: Board, parent: Pick<TaskView, 'status'>): string | undefined {
  const here = parent.status !== DELETED_STATUS && board.columns.some((c) => c.id === parent.status);
  return here ? parent.status : board.columns[0]?.id;
}

/** Create a card with `parent` set; it shows at once on the board. Resolves with it, or undefined when refused. */
export async function addSubCard(
  ctrl: BoardController,
  parent: TaskView,
  title: string,
): Promise<TaskView | undefined> {
  const { boardId, board } = ctrl.state;
  if (!boardId || !board || !title.trim()) return undefined;
  try {
    const created = await ctrl.api.createTask(boardId, {
      content: `# ${title.trim()}\n`,
      parent: parent.id,
      status: subCardColumn(board, parent),
    });
    if (ctrl.state.boardId === boardId) ctrl.store.set((s) => placeTask(s, created));
    return created;
  } catch (error) {
    ctrl.toast('error', `The sub-card could not be added: ${messageOf(error)}`);
    return undefined;
  }
}
