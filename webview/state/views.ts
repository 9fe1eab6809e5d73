import { EMPTY_FILTER, type TaskFilter } from '../types';
import type { AppState } from './appState';
import type { BoardAccess } from './boardAccess';

/** A saved view as `GET /api/views` answers it (`.kanban.json` `views`): the service's own type. */
export type { SavedView } from '../../server/core/savedViews';
import type { SavedView } from '../../server/core/savedViews';

/** The parts of the UI state a view sets; the URL holds the same ones. */
export type ViewState = Pick<AppState, 'filter' | 'layout' | 'groupBy' | 'sort'>;

/** The UI filter fields that are list-route parameters of the same name. */
const TEXT_KEYS = ['q', 'priority', 'assignee', 'label', 'labelGroup', 'due', 'byAgent'] as const;
const FLAG_KEYS = ['fuzzy', 'ready'] as const;

/** The UI filter as list-route parameters: only what is set, so a saved view stays small. */
export function filterToQuery(filter: TaskFilter): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const key of TEXT_KEYS) if (filter[key].trim()) out[key] = filter[key];
  for (const key of FLAG_KEYS) if (filter[key]) out[key] = true;
  // Both of its values filter (claimed=false: the free cards), unlike the flags above.
  if (filter.claimed) out.claimed = filter.claimed === 'true';
  return out;
}

/** List-route parameters (a view's filter, a URL's query) as the UI filter; keys it has no field for are left out. */
export function filterFromQuery(query: Record<string, unknown>): TaskFilter {
  const filter: TaskFilter = { ...EMPTY_FILTER };
  for (const key of TEXT_KEYS) if (typeof query[key] === 'string') filter[key] = query[key] as string;
  for (const key of FLAG_KEYS) filter[key] = query[key] === true || query[key] === 'true';
  if (query.claimed === true || query.claimed === 'true') filter.claimed = 'true';
  if (query.claimed === false || query.claimed === 'false') filter.claimed = 'false';
  return filter;
}

export function viewStateOf(view: SavedView): ViewState {
  return { filter: filterFromQuery(view.filter), layout: view.layout, groupBy: view.groupBy, sort: view.sort };
}

/** Whether the board shows exactly what the view says (any change after applying it clears `viewId`). */
export function showsView(state: ViewState, view: SavedView): boolean {
  const wanted = viewStateOf(view);
  return (
    JSON.stringify(filterToQuery(state.filter)) === JSON.stringify(filterToQuery(wanted.filter)) &&
    state.layout === wanted.layout &&
    state.groupBy === wanted.groupBy &&
    state.sort === wanted.sort
  );
}

/** The views of the board shown, fetched on each board load and on every view event. */
export async function refreshViews(ctrl: BoardAccess): Promise<void> {
  const boardId = ctrl.state.boardId;
  if (!boardId) return;
  const views = await ctrl.api
    .call<SavedView[]>('GET', `/views?board=${encodeURIComponent(boardId)}`)
    .catch(() => null);
  if (views && boardId === ctrl.state.boardId) ctrl.store.set({ savedViews: views });
}

/** Show a view: its filter, layout, grouping and order, remembered as the current view. */
export function applyView(ctrl: BoardAccess, view: SavedView): void {
  // One change, so the tracking below never sees the view's id beside the previous filter.
  ctrl.store.set({ ...viewStateOf(view), viewId: view.id });
  ctrl.scheduleFilter(0);
}

export async function saveCurrentView(ctrl: BoardAccess, name: string): Promise<SavedView | undefined> {
  const { boardId, filter, layout, groupBy, sort } = ctrl.state;
  if (!boardId || !name.trim()) return undefined;
  // A saved view says how its cards show (board, table or graph); the metrics panel shows none, so the board.
  const shown = layout === 'metrics' ? 'board' : layout;
  const body = { name: name.trim(), board: boardId, layout: shown, groupBy, sort, filter: filterToQuery(filter) };
  const view = await ctrl.attempt(() => ctrl.api.call<SavedView>('POST', '/views', body));
  if (!view) return undefined;
  await refreshViews(ctrl);
  ctrl.store.set({ viewId: view.id });
  ctrl.toast('info', `Saved the view "${view.name}".`);
  return view;
}

export async function deleteSavedView(ctrl: BoardAccess, view: SavedView): Promise<void> {
  const done = await ctrl.attempt(() => ctrl.api.call('DELETE', `/views/${encodeURIComponent(view.id)}`));
  if (done === undefined) return;
  if (ctrl.state.viewId === view.id) ctrl.store.set({ viewId: null });
  await refreshViews(ctrl);
}

/**
 * `viewId` names the view only while the board still shows it: a filter, layout, grouping or order
 * changed by hand turns it back to "no view". Views are fetched again when the board changes.
 */
export function installViewTracking(ctrl: BoardAccess): void {
  let boardId = ctrl.state.boardId;
  ctrl.store.subscribe(() => {
    const state = ctrl.store.get();
    if (state.boardId !== boardId) {
      boardId = state.boardId;
      void refreshViews(ctrl);
    }
    if (state.viewId === null) return;
    const view = state.savedViews.find((v) => v.id === state.viewId);
    if (view && !showsView(state, view)) ctrl.store.set({ viewId: null });
  });
}
