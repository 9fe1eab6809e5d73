import type { TaskFilter } from '../types';
import type { AppState, Layout } from './appState';

/**
 * What a VS Code webview keeps across a reload of its page (a window reload, "Reload Webviews", a
 * restored panel): the open card, the filter, and how the cards are shown (layout, lanes, order,
 * saved view). A browser tab keeps the same things in its URL instead (deepLinks.ts).
 */
export type KeptView = Pick<AppState, 'openTaskId' | 'filter' | 'layout' | 'groupBy' | 'sort' | 'viewId'>;

const KEYS = ['openTaskId', 'filter', 'layout', 'groupBy', 'sort', 'viewId'] as const;

export function keptViewOf(state: AppState): KeptView {
  return {
    openTaskId: state.openTaskId,
    filter: state.filter,
    layout: state.layout,
    groupBy: state.groupBy,
    sort: state.sort,
    viewId: state.viewId,
  };
}

/** Compared by identity: the store replaces a value (a filter object) whenever it changes. */
export function sameKeptView(a: KeptView, b: KeptView): boolean {
  return KEYS.every((key) => a[key] === b[key]);
}

const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * The parts of a kept view (as the webview state holds it, unchecked) to put back once the board is
 * loaded; a card that is no longer on the board is left closed.
 */
export function restoredParts(
  saved: Record<string, unknown>,
  state: AppState,
): { patch: Partial<AppState>; filter: Partial<TaskFilter> | null } {
  const patch: Partial<AppState> = {};
  if (saved.layout === 'board' || saved.layout === 'table' || saved.layout === 'metrics')
    patch.layout = saved.layout as Layout;
  if (saved.groupBy === null || isText(saved.groupBy)) patch.groupBy = saved.groupBy;
  if (isText(saved.sort)) patch.sort = saved.sort;
  if (saved.viewId === null || isText(saved.viewId)) patch.viewId = saved.viewId;
  if (isText(saved.openTaskId) && state.tasks[saved.openTaskId] && !state.openTaskId)
    patch.openTaskId = saved.openTaskId;
  const filter = saved.filter && typeof saved.filter === 'object' ? (saved.filter as Partial<TaskFilter>) : null;
  return { patch, filter };
}
