import { SORT_VALUES } from './listPaging';

/** A saved view: a named filter, sort and layout of one board, shared through `.kanban.json`. */
export interface SavedView {
  id: string;
  name: string;
  board: string;
  layout: (typeof VIEW_LAYOUTS)[number];
  /** List-route query parameters (`status`, `label`, `q`, `meta.<path>`, ...) as the list route reads them. */
  filter: Record<string, string | boolean | number>;
  /** A list-route sort value; '' keeps the board order. */
  sort: string;
  /** `assignee`, `priority`, `labelGroup:<group>`, `metadata:<key path>`, or null for plain columns. */
  groupBy: string | null;
}

/** The ways a view shows its cards (the metrics panel shows none of them one by one, so it is no view's). */
export const VIEW_LAYOUTS = ['board', 'table', 'graph'] as const;

/** What a view may group its cards by; the same values the board UI's `groupBy` takes. */
const GROUP_BY = /^(assignee|priority|labelGroup:.+|metadata:.+)$/;

/**
 * List-route parameters a view's filter may not hold: paging, projection and the compact form belong to the caller,
 * `sort` has its own field, and a view naming a view would chain.
 */
export const NOT_FILTER_KEYS = ['view', 'sort', 'limit', 'cursor', 'fields', 'compact'];

type FieldProblem = { field: string; problem: string };

/** The first thing wrong with a view's settings other than its filter keys, or null. */
export function viewProblem(
  view: Pick<SavedView, 'board' | 'layout' | 'sort' | 'groupBy' | 'filter'>,
  boardIds: readonly string[],
): FieldProblem | null {
  if (!boardIds.includes(view.board)) return { field: 'board', problem: `board "${view.board}" does not exist` };
  if (!VIEW_LAYOUTS.includes(view.layout))
    return { field: 'layout', problem: `must be one of ${VIEW_LAYOUTS.join(', ')}` };
  if (view.sort !== '' && !SORT_VALUES.includes(view.sort))
    return { field: 'sort', problem: `must be "" (board order) or one of ${SORT_VALUES.join(', ')}` };
  if (view.groupBy !== null && !GROUP_BY.test(view.groupBy)) {
    return { field: 'groupBy', problem: 'must be null, assignee, priority, labelGroup:<group> or metadata:<key path>' };
  }
  for (const [key, value] of Object.entries(view.filter)) {
    if (!['string', 'boolean', 'number'].includes(typeof value))
      return { field: `filter.${key}`, problem: 'must be a string, a boolean or a number' };
  }
  const misplaced = Object.keys(view.filter).filter((key) => NOT_FILTER_KEYS.includes(key));
  if (misplaced.length)
    return {
      field: 'filter',
      problem: `may not hold ${misplaced.join(', ')} (sort is the view's own field; paging is the caller's)`,
    };
  return null;
}

/** A view's filter as the raw text a query string would carry, for the list route's own parser. */
export function filterAsQuery(filter: SavedView['filter']): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).map(([key, value]) => [key, String(value)]));
}
