import type { BoardController } from './controller';

/**
 * After a card entered a column: if the column is now over its WIP limit, say so. The server let
 * the change happen (policy warn) and says the same in its `Warning` header; the board's own count
 * is what the user sees, so the toast goes by it, in the browser and in VS Code alike.
 */
export function noticeWipLimit(ctrl: BoardController, status: string): void {
  const column = ctrl.state.board?.columns.find((c) => c.id === status);
  if (!column?.wipLimit) return;
  const count = ctrl.state.order[status]?.length ?? 0;
  if (count > column.wipLimit) ctrl.toast('info', `Column ${column.name} is over its WIP limit (${count}/${column.wipLimit}).`);
}
