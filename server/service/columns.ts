import { StateRuleError, NotFoundError, ValidationError } from '../core/errors';
import type { BoardConfig, Column } from '../core/model';
import { RESERVED_STATUS_IDS } from '../core/shapes/vocabulary';
import { checkWipLimit, normalizeColumns, replaceBoard } from './boards';
import { checkColor } from './validate';
import type { Workspace } from './workspace';
import type { ColumnBody, ColumnUpdateBody } from '../core/shapes/requests/boards';

export function listColumns(ws: Workspace, boardId: string): Column[] {
  return ws.board(boardId).columns;
}

function requireColumn(board: BoardConfig, columnId: string): Column {
  const column = board.columns.find((c) => c.id === columnId);
  if (!column) throw new NotFoundError(`column "${columnId}" not found on board "${board.id}"`);
  return column;
}

export async function createColumn(ws: Workspace, boardId: string, input: ColumnBody) {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const [column] = normalizeColumns([input]);
    if (board.columns.some((c) => c.id === column.id))
      throw new StateRuleError(`column "${column.id}" already exists on board "${boardId}"`);
    await replaceBoard(ws, { ...board, columns: [...board.columns, column] });
    ws.emit('column.created', boardId, { column });
    return column;
  });
}

export async function updateColumn(ws: Workspace, boardId: string, columnId: string, patch: ColumnUpdateBody) {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const current = requireColumn(board, columnId);
    if (patch.name !== undefined && patch.name.trim() === '') throw new ValidationError('name must not be empty');
    const column: Column = {
      id: current.id,
      name: patch.name ?? current.name,
      color: patch.color === undefined ? current.color : checkColor(patch.color),
    };
    const wipLimit =
      patch.wipLimit === undefined
        ? current.wipLimit
        : patch.wipLimit === null
          ? undefined
          : checkWipLimit(patch.wipLimit, columnId);
    if (wipLimit !== undefined) column.wipLimit = wipLimit;
    await replaceBoard(ws, { ...board, columns: board.columns.map((c) => (c.id === columnId ? column : c)) });
    ws.emit('column.updated', boardId, { column });
    return column;
  });
}

export async function reorderColumns(ws: Workspace, boardId: string, columnIds: string[]) {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const current = board.columns.map((c) => c.id);
    const same =
      columnIds.length === current.length &&
      new Set(columnIds).size === columnIds.length &&
      columnIds.every((id) => current.includes(id));
    if (!same) {
      throw new ValidationError(
        `columnIds must list every column of board "${boardId}" exactly once: ${current.join(', ')}`,
      );
    }
    const columns = columnIds.map((id) => requireColumn(board, id));
    await replaceBoard(ws, { ...board, columns });
    ws.emit('column.reordered', boardId, { columnIds });
    return columns;
  });
}

export async function setMinimizedColumns(ws: Workspace, boardId: string, columnIds: string[]) {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    const unknown = columnIds.filter((id) => !board.columns.some((c) => c.id === id));
    if (unknown.length) throw new ValidationError(`unknown column(s) on board "${boardId}": ${unknown.join(', ')}`);
    const minimizedColumnIds = [...new Set(columnIds)];
    await replaceBoard(ws, { ...board, minimizedColumnIds });
    ws.emit('column.updated', boardId, { minimizedColumnIds });
    return minimizedColumnIds;
  });
}

export async function deleteColumn(ws: Workspace, boardId: string, columnId: string) {
  return ws.mutate(async () => {
    const board = ws.board(boardId);
    if (RESERVED_STATUS_IDS.includes(columnId))
      throw new ValidationError(`the ${columnId} column is built in and cannot be removed`);
    requireColumn(board, columnId);
    const count = ws.index.countIn(boardId, columnId);
    if (count > 0) throw new StateRuleError(`column "${columnId}" still holds ${count} card(s); move them out first`);
    const next: BoardConfig = {
      ...board,
      columns: board.columns.filter((c) => c.id !== columnId),
      minimizedColumnIds: board.minimizedColumnIds.filter((id) => id !== columnId),
    };
    if (next.defaultStatus === columnId) delete next.defaultStatus;
    // A startStatus naming a missing column would make .kanban.json refuse to load.
    if (next.startStatus === columnId) delete next.startStatus;
    // So would pickFrom; an emptied list goes (pick then takes the columns before the start column).
    if (next.pickFrom !== undefined) next.pickFrom = next.pickFrom.filter((id) => id !== columnId);
    if (next.pickFrom?.length === 0) delete next.pickFrom;
    await replaceBoard(ws, next);
    ws.emit('column.deleted', boardId, { columnId });
    return { deleted: columnId };
  });
}
