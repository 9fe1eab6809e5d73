import { DELETED_STATUS, PRIORITIES, type Board, type TaskView } from '../types';
import type { ColumnOrder } from './placement';

/**
 * The rows of the table view and their order: pure logic, no DOM. The table shows the same cards
 * as the board (its columns in order, the Deleted column when the board shows it, the same filter)
 * and sorts them on the client, the way the list route would, so a live change re-sorts at once.
 */

/** A sortable column of the table. */
export type TableField =
  'title' | 'status' | 'priority' | 'assignee' | 'due' | 'labels' | 'checklist' | 'blocked' | 'modified';

/**
 * The list route's `sort` value of a column, where it has one (saved views and links keep these);
 * the other columns sort on the client only.
 */
export const ROUTE_SORT: Partial<Record<TableField, string>> = {
  title: 'title',
  priority: 'priority',
  due: 'due',
  modified: 'modified',
};

/** What a table is sorted by: a list-route value in `state.sort`, or a client-only column. */
export interface TableSort {
  field: string;
  descending: boolean;
}

export function parseSort(text: string): TableSort | null {
  if (!text) return null;
  const descending = text.startsWith('-');
  return { field: descending ? text.slice(1) : text, descending };
}

export function sortText(sort: TableSort): string {
  return `${sort.descending ? '-' : ''}${sort.field}`;
}

/** A header click: the same column flips ascending/descending; another column starts ascending. */
export function nextSort(current: TableSort | null, field: TableField): TableSort {
  const same = current && (current.field === field || current.field === ROUTE_SORT[field]);
  return { field: ROUTE_SORT[field] ?? field, descending: same ? !current.descending : false };
}

/** The cards the table lists, in board order: column by column, each in the server's order. */
export function boardOrderIds(
  board: Board,
  order: ColumnOrder,
  showDeleted: boolean,
  matches: Set<string> | null,
): string[] {
  const statuses = board.columns.map((c) => c.id);
  if (showDeleted) statuses.push(DELETED_STATUS);
  const ids: string[] = [];
  for (const status of statuses) {
    for (const id of order[status] ?? []) if (!matches || matches.has(id)) ids.push(id);
  }
  return ids;
}

type SortValue = string | number | null;

/**
 * The value a card sorts by. Null (no due date, nobody assigned, no checklist) sorts last in both
 * directions, as the list route does, so the cards that have the field stay on top.
 */
function valueOf(task: TaskView, field: string, columnRank: Map<string, number>): SortValue {
  switch (field) {
    case 'title':
      return (task.title || task.id).toLowerCase();
    case 'priority': {
      const rank = PRIORITIES.indexOf(task.priority);
      return rank === -1 ? PRIORITIES.length : rank;
    }
    case 'due':
      return task.dueDate ? task.dueDate.slice(0, 10) : null;
    case 'modified':
      return task.modified;
    case 'created':
      return task.created;
    case 'status':
      return columnRank.get(task.status) ?? columnRank.size;
    case 'assignee':
      return task.assignee ? task.assignee.toLowerCase() : null;
    case 'labels':
      return task.labels.length ? [...task.labels].sort().join(',').toLowerCase() : null;
    case 'checklist':
      return task.checklist ? task.checklist.done / task.checklist.total : null;
    case 'blocked':
      return task.openBlockers > 0 ? task.openBlockers : null;
    default:
      return null;
  }
}

/**
 * The ids sorted by `sort` (a stable sort: equal cards keep board order). `position` (and no sort)
 * is the board order itself.
 */
export function sortIds(
  ids: string[],
  tasks: Record<string, TaskView>,
  sort: TableSort | null,
  board: Board,
): string[] {
  if (!sort || sort.field === 'position') return sort?.descending ? [...ids].reverse() : ids;
  const columnRank = new Map(board.columns.map((c, i) => [c.id, i]));
  const keyed = ids.map((id, index) => ({ id, index, value: valueOf(tasks[id], sort.field, columnRank) }));
  const direction = sort.descending ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.value === b.value) return a.index - b.index;
    if (a.value === null) return 1;
    if (b.value === null) return -1;
    return (a.value < b.value ? -1 : 1) * direction;
  });
  return keyed.map((k) => k.id);
}

/** Whether any card has a checklist / open blockers: the table shows those columns only then. */
export function optionalColumns(
  ids: string[],
  tasks: Record<string, TaskView>,
): { checklist: boolean; blocked: boolean } {
  let checklist = false;
  let blocked = false;
  for (const id of ids) {
    const task = tasks[id];
    checklist ||= task.checklist !== null;
    blocked ||= task.blockedBy.length > 0;
    if (checklist && blocked) break;
  }
  return { checklist, blocked };
}

/** Which rows to draw: those in view plus `margin` above and below, for a fixed row height. */
export function visibleRange(
  scrollTop: number,
  viewHeight: number,
  rowHeight: number,
  count: number,
  margin: number,
): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - margin);
  const last = Math.min(count, Math.ceil((scrollTop + viewHeight) / rowHeight) + margin);
  return [first, Math.max(first, last)];
}

/** A table row when sub-cards are shown under their parent: its card and how deep it is nested. */
export interface NestedRow {
  id: string;
  depth: number;
}

/**
 * The rows with each sub-card right under its parent (and its own sub-cards under it), siblings in
 * the order `ids` has them. A sub-card whose parent is not among the rows (filtered out, on the
 * Deleted column) stays a top row. Each card is placed once, so odd data (a cycle) cannot loop.
 */
export function nestUnderParents(ids: readonly string[], tasks: Readonly<Record<string, TaskView>>): NestedRow[] {
  const shown = new Set(ids);
  const childrenOf = new Map<string, string[]>();
  const tops: string[] = [];
  for (const id of ids) {
    const parent = tasks[id].parent;
    if (parent && parent !== id && shown.has(parent)) {
      const siblings = childrenOf.get(parent);
      if (siblings) siblings.push(id);
      else childrenOf.set(parent, [id]);
    } else tops.push(id);
  }
  const rows: NestedRow[] = [];
  const placed = new Set<string>();
  const visit = (id: string, depth: number) => {
    if (placed.has(id)) return;
    placed.add(id);
    rows.push({ id, depth });
    for (const child of childrenOf.get(id) ?? []) visit(child, depth + 1);
  };
  for (const id of tops) visit(id, 0);
  // Cards only reachable through a cycle were never visited from a top row: they still get a row.
  for (const id of ids) visit(id, 0);
  return rows;
}
