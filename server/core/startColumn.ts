import type { BoardConfig, Column } from './model';

/**
 * Names of a column where work is under way, compared after lowercasing and turning runs of
 * spaces, `_` and `-` into one `-` ("In Progress", "in_progress" and "IN-PROGRESS" are one name).
 * Whole names only: "Not started" is not a start column.
 */
export const START_COLUMN_NAMES: readonly string[] = ['in-progress', 'inprogress', 'doing', 'wip', 'started', 'active'];

function normalized(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-');
}

export function looksStarted(column: Pick<Column, 'id' | 'name'>): boolean {
  return START_COLUMN_NAMES.includes(normalized(column.id)) || START_COLUMN_NAMES.includes(normalized(column.name));
}

/**
 * The column `kanban start` moves a card to: the board's `startStatus` when it sets one (undefined
 * when that is not one of `columns`), else the first column whose id or name says work is under
 * way, else the second column (the first after where cards wait), else the only one.
 */
export function startColumnOf(columns: readonly Column[], startStatus?: string): Column | undefined {
  if (startStatus !== undefined) return columns.find((c) => c.id === startStatus);
  return columns.find(looksStarted) ?? columns[1] ?? columns[0];
}

/**
 * The columns `pick` takes cards from when the request names none: the board's `pickFrom`, else
 * every column before its start column (where cards wait to be started). A board whose start
 * column is its first has none.
 */
export function readyColumnsOf(board: Pick<BoardConfig, 'columns' | 'startStatus' | 'pickFrom'>): string[] {
  if (board.pickFrom?.length) return [...board.pickFrom];
  const start = startColumnOf(board.columns, board.startStatus);
  const at = start ? board.columns.indexOf(start) : 0;
  return board.columns.slice(0, at).map((c) => c.id);
}
