import type { TaskFilter } from './types';

/** The list route's query for a UI filter: set flags and non-blank texts only. */
export function listParams(filter: Partial<TaskFilter> | undefined, includeDeleted: boolean): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (value === true) params.set(key, 'true');
    else if (typeof value === 'string' && value.trim() !== '') params.set(key, value);
  }
  if (includeDeleted) params.set('includeDeleted', 'true');
  return params;
}

/**
 * The board's cards as the page loads them: compact (the empty defaults left out; `Api.listTasks`
 * puts them back), about half the bytes of the full list at 10,000 cards. The VS Code host asks
 * for the same path ahead of the page, so the answer is built and kept by the time the page asks.
 */
export function boardCardsPath(boardId: string, filter?: Partial<TaskFilter>, includeDeleted = true): string {
  const params = listParams(filter, includeDeleted);
  params.set('compact', 'true');
  return `/boards/${encodeURIComponent(boardId)}/tasks?${params}`;
}
