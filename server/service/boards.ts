import { isDeepStrictEqual } from 'node:util';
import type { Static } from '@sinclair/typebox';
import type { BoardSummarySchema } from '../core/shapes/board';
import { mergeBoard } from './boardMerge';
import { StateRuleError, NotFoundError, ValidationError } from '../core/errors';
import { STANDARD_COLUMNS } from '../core/defaults';
import { DEFAULT_COLUMN_COLOR, type BoardConfig, type BoardView, type Column } from '../core/model';
import { ARCHIVED_STATUS, DELETED_STATUS, RESERVED_STATUS_IDS, type Priority } from '../core/shapes/vocabulary';
import { isArchived } from '../core/cardPlace';
import { checkColor, checkPriority, checkSlugId } from './validate';
import type { WorkspaceState } from './workspaceState';
import type { BoardCreateBody, BoardUpdateBody, ColumnBody } from '../core/shapes/requests/boards';

export type BoardSummary = Static<typeof BoardSummarySchema>;

/** The full board as the API shows it; the defaults are the effective values. */
export function boardView(ws: WorkspaceState, board: BoardConfig): BoardView {
  return {
    id: board.id,
    name: board.name,
    description: board.description ?? null,
    columns: board.columns,
    // A board without columns has no status to default to yet.
    defaultStatus: board.columns.length ? effectiveDefaultStatus(ws, board) : null,
    defaultPriority: effectiveDefaultPriority(ws, board),
    actions: board.actions,
    minimizedColumnIds: board.minimizedColumnIds,
    wipPolicy: board.wipPolicy ?? 'warn',
    autoArchiveDays: board.autoArchiveDays ?? null,
  };
}

export function listBoards(ws: WorkspaceState): BoardSummary[] {
  return ws.config.boards.map((board) => ({
    id: board.id,
    name: board.name,
    description: board.description ?? null,
    isDefault: board.id === ws.defaultBoardId,
    taskCount: [...ws.index.cardsOf(board.id)].filter((c) => c.status !== DELETED_STATUS && !isArchived(c)).length,
    columns: board.columns,
  }));
}

/** Column ids that would collide with the folders a board keeps beside its status folders. */
export const RESERVED_COLUMN_IDS = new Set([...RESERVED_STATUS_IDS, 'attachments', 'logs']);

export function normalizeColumns(columns: ColumnBody[]): Column[] {
  const seen = new Set<string>();
  return columns.map((c) => {
    checkSlugId(c.id, 'column id');
    if (RESERVED_COLUMN_IDS.has(c.id)) throw new ValidationError(`column id "${c.id}" is reserved`);
    if (seen.has(c.id)) throw new ValidationError(`column id "${c.id}" appears twice`);
    seen.add(c.id);
    if (c.name.trim() === '') throw new ValidationError(`column "${c.id}" needs a name`);
    const column: Column = {
      id: c.id,
      name: c.name,
      color: checkColor(c.color ?? DEFAULT_COLUMN_COLOR, `color of column "${c.id}"`),
    };
    if (c.wipLimit !== undefined && c.wipLimit !== null) column.wipLimit = checkWipLimit(c.wipLimit, c.id);
    return column;
  });
}

export function checkWipLimit(limit: number, columnId: string): number {
  if (!Number.isInteger(limit) || limit < 1)
    throw new ValidationError(
      `wipLimit of column "${columnId}" must be a whole number, 1 or more (got ${limit}); send null to remove the limit`,
    );
  return limit;
}

function checkDefaultStatus(columns: Column[], status: string | undefined): void {
  if (status !== undefined && !columns.some((c) => c.id === status)) {
    throw new ValidationError(
      `defaultStatus "${status}" is not a column of the board (columns: ${columns.map((c) => c.id).join(', ')})`,
    );
  }
}

export async function createBoard(ws: WorkspaceState, input: BoardCreateBody) {
  return ws.mutate(async () => {
    checkSlugId(input.id, 'board id');
    if (ws.config.boards.some((b) => b.id === input.id)) throw new StateRuleError(`board "${input.id}" already exists`);
    if (input.name.trim() === '') throw new ValidationError('name must not be empty');
    const inherited = ws.config.boards.find((b) => b.id === ws.defaultBoardId)?.columns ?? [];
    const columns = input.columns
      ? normalizeColumns(input.columns)
      : (inherited.length ? inherited : STANDARD_COLUMNS).map((c) => ({ ...c }));
    checkDefaultStatus(columns, input.defaultStatus);
    if (input.defaultPriority !== undefined) checkPriority(input.defaultPriority);
    const board: BoardConfig = {
      id: input.id,
      name: input.name,
      ...(input.description !== undefined ? { description: input.description } : {}),
      columns,
      ...(input.defaultStatus !== undefined ? { defaultStatus: input.defaultStatus } : {}),
      ...(input.defaultPriority !== undefined ? { defaultPriority: input.defaultPriority } : {}),
      actions: input.actions ?? {},
      minimizedColumnIds: [],
    };
    await ws.updateConfig((config) => config.boards.push(board));
    ws.emit('board.created', board.id, { board: boardView(ws, board) });
    return boardView(ws, board);
  });
}

export async function updateBoard(ws: WorkspaceState, boardId: string, patch: BoardUpdateBody) {
  return ws.mutate(async () => {
    const current = ws.board(boardId);
    const next: BoardConfig = structuredClone(current);
    if (patch.name !== undefined) {
      if (patch.name.trim() === '') throw new ValidationError('name must not be empty');
      next.name = patch.name;
    }
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.columns !== undefined) {
      next.columns = normalizeColumns(patch.columns);
      const kept = new Set(next.columns.map((c) => c.id));
      // Archived cards may keep a status that is gone: a restore then takes them to the default column.
      const stranded = [...ws.index.statusesOf(boardId)].filter(
        (s) => s !== DELETED_STATUS && s !== ARCHIVED_STATUS && !kept.has(s),
      );
      if (stranded.length)
        throw new StateRuleError(`cannot remove column(s) ${stranded.join(', ')}: they still hold cards`);
      next.minimizedColumnIds = next.minimizedColumnIds.filter((id) => kept.has(id));
      if (next.defaultStatus !== undefined && !kept.has(next.defaultStatus)) delete next.defaultStatus;
      // A startStatus naming a missing column would make .kanban.json refuse to load.
      if (next.startStatus !== undefined && !kept.has(next.startStatus)) delete next.startStatus;
      if (next.pickFrom !== undefined) next.pickFrom = next.pickFrom.filter((id) => kept.has(id));
      if (next.pickFrom?.length === 0) delete next.pickFrom;
    }
    if (patch.defaultStatus !== undefined) {
      checkDefaultStatus(next.columns, patch.defaultStatus);
      next.defaultStatus = patch.defaultStatus;
    }
    if (patch.defaultPriority !== undefined) next.defaultPriority = checkPriority(patch.defaultPriority);
    if (patch.wipPolicy !== undefined) next.wipPolicy = patch.wipPolicy;
    if (patch.autoArchiveDays === null) delete next.autoArchiveDays;
    else if (patch.autoArchiveDays !== undefined) next.autoArchiveDays = checkDays(patch.autoArchiveDays);
    await replaceBoard(ws, next);
    ws.emit('board.updated', boardId, { board: boardView(ws, next) });
    return boardView(ws, next);
  });
}

function checkDays(days: number): number {
  if (!Number.isInteger(days) || days < 1)
    throw new ValidationError(
      `autoArchiveDays must be a whole number of days, 1 or more (got ${days}); send null to stop archiving automatically`,
    );
  return days;
}

/**
 * Write `board`, which the caller made from the current `ws.board(board.id)`. Over a shared
 * database the change may be applied again on top of another instance's newer board (see
 * updateSharedConfig): it is then merged into that board instead of replacing it.
 */
export async function replaceBoard(ws: WorkspaceState, board: BoardConfig): Promise<void> {
  const before = ws.board(board.id);
  await ws.updateConfig((config) => {
    config.boards = config.boards.map((b) =>
      b.id !== board.id ? b : isDeepStrictEqual(b, before) ? board : mergeBoard(before, board, b),
    );
  });
}

export async function deleteBoard(ws: WorkspaceState, boardId: string) {
  return ws.mutate(async () => {
    ws.board(boardId);
    if (boardId === ws.defaultBoardId)
      throw new StateRuleError(`board "${boardId}" is the default board and cannot be deleted`);
    const count = ws.index.countOf(boardId);
    if (count > 0) {
      throw new StateRuleError(
        `board "${boardId}" still holds ${count} card(s) (soft-deleted ones included); transfer or permanently delete them first`,
      );
    }
    await ws.updateConfig((config) => {
      config.boards = config.boards.filter((b) => b.id !== boardId);
      // A view names its board; one left behind would make the file invalid on the next load.
      config.views = config.views.filter((v) => v.board !== boardId);
    });
    ws.emit('board.deleted', boardId, { boardId });
    return { deleted: boardId };
  });
}

/** Status a new card gets when none is given: the board's default, the workspace's, else the first column. */
export function effectiveDefaultStatus(ws: WorkspaceState, board: BoardConfig): string {
  const candidates = [board.defaultStatus, ws.config.settings.defaultStatus];
  for (const status of candidates) if (status && board.columns.some((c) => c.id === status)) return status;
  const first = board.columns[0];
  if (!first) throw new ValidationError(`board "${board.id}" has no columns; add one first`);
  return first.id;
}

export function effectiveDefaultPriority(ws: WorkspaceState, board: BoardConfig): Priority {
  return board.defaultPriority ?? ws.config.settings.defaultPriority;
}

export function requireActionKey(board: BoardConfig, key: string): string {
  const title = Object.hasOwn(board.actions, key) ? board.actions[key] : undefined;
  if (title === undefined) throw new NotFoundError(`board "${board.id}" has no action "${key}"`);
  return title;
}
