import type { BoardController } from './controller';
import { removeTask, type TaskSet } from './placement';

/** The column ids in `ids` with `columnId` moved to `index` (an index into the list without it). */
export function reordered(ids: string[], columnId: string, index: number): string[] {
  const rest = ids.filter((id) => id !== columnId);
  const at = Math.max(0, Math.min(index, rest.length));
  return [...rest.slice(0, at), columnId, ...rest.slice(at)];
}

/**
 * Put a column at a new place: shown at once, then saved. On refusal the board is re-read from the
 * server and the server's message shows.
 */
export async function moveColumn(ctrl: BoardController, columnId: string, index: number): Promise<void> {
  const board = ctrl.state.board;
  if (!board) return;
  const ids = board.columns.map((c) => c.id);
  const next = reordered(ids, columnId, index);
  if (next.join('\n') === ids.join('\n')) return;
  const byId = new Map(board.columns.map((c) => [c.id, c]));
  ctrl.store.set({ board: { ...board, columns: next.map((id) => byId.get(id)!) } });
  const saved = await ctrl.attempt(() => ctrl.api.reorderColumns(board.id, next));
  if (saved === undefined) await ctrl.refreshBoard();
}

/** Keyboard alternative to dragging: one place to the left (-1) or right (+1). */
export function shiftColumn(ctrl: BoardController, columnId: string, step: -1 | 1): Promise<void> {
  const ids = ctrl.state.board?.columns.map((c) => c.id) ?? [];
  const index = ids.indexOf(columnId);
  if (index < 0) return Promise.resolve();
  return moveColumn(ctrl, columnId, index + step);
}

/** "Archive all": every card of the column, in one request; each leaves the board at once. */
export async function archiveColumnCards(ctrl: BoardController, columnId: string): Promise<void> {
  const boardId = ctrl.state.boardId;
  if (!boardId) return;
  const archived = await ctrl.attempt(() => ctrl.api.archiveColumn(boardId, columnId));
  if (!archived) return;
  if (ctrl.state.boardId === boardId)
    ctrl.store.set((s) => archived.reduce<TaskSet>((set, card) => removeTask(set, card.id), s));
  ctrl.toast(
    'info',
    archived.length ? `${archived.length} card(s) archived.` : 'Nothing to archive.',
    archived.length ? { label: 'Open archive', run: () => ctrl.store.set({ panel: 'archive' }) } : undefined,
  );
}
