import type { AppState } from './appState';
import type { BoardController } from './controller';
import { applyView, filterFromQuery, filterToQuery } from './views';

/**
 * The page URL says what the board shows, so a link can be shared and Back works. It is
 * the query string of the page: `?board=ops&card=<id>&view=<id>&layout=table&groupBy=assignee&sort=-due`
 * and the list route's own filter names (`q`, `priority`, `assignee`, `label`, `labelGroup`, `due`,
 * `fuzzy`, `ready`, `claimed`, `byAgent`), each only when it is not the default. Opening or closing a card, switching
 * board or view, layout, grouping or order adds a history entry; typing a search replaces it.
 */

/** Keys whose change is a step the Back button should undo. */
type Step = Pick<AppState, 'boardId' | 'openTaskId' | 'viewId' | 'layout' | 'groupBy' | 'sort'>;

function stepOf(state: AppState): string {
  const step: Step = {
    boardId: state.boardId,
    openTaskId: state.openTaskId,
    viewId: state.viewId,
    layout: state.layout,
    groupBy: state.groupBy,
    sort: state.sort,
  };
  return JSON.stringify(step);
}

/** The query string for a state, with the keys in a fixed order so equal states give equal URLs. */
export function searchFor(state: AppState): string {
  const params = new URLSearchParams();
  if (state.boardId) params.set('board', state.boardId);
  if (state.openTaskId) params.set('card', state.openTaskId);
  if (state.viewId) params.set('view', state.viewId);
  if (state.layout !== 'board') params.set('layout', state.layout);
  if (state.groupBy) params.set('groupBy', state.groupBy);
  if (state.sort) params.set('sort', state.sort);
  for (const [key, value] of Object.entries(filterToQuery(state.filter))) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface Wanted {
  board: string | null;
  card: string | null;
  view: string | null;
  /** Whether the URL spells out the layout, grouping, order or filter (else a named view supplies them). */
  explicit: boolean;
  state: Pick<AppState, 'layout' | 'groupBy' | 'sort' | 'filter'>;
  /** The page was opened without a layout in its URL: the one chosen last time stays (see restoreLayout). */
  keepLayout?: boolean;
}

function wantedFrom(search: string): Wanted {
  const params = new URLSearchParams(search);
  const query = Object.fromEntries(params.entries());
  const layout = query.layout === 'table' || query.layout === 'metrics' ? query.layout : 'board';
  const { board, card, view, ...rest } = query;
  return {
    board: board ?? null,
    card: card ?? null,
    view: view ?? null,
    explicit: Object.keys(rest).length > 0,
    state: { layout, groupBy: query.groupBy || null, sort: query.sort ?? '', filter: filterFromQuery(query) },
  };
}

/** Resolves once the board `boardId` is loaded (at once when it already is). */
function boardLoaded(ctrl: BoardController, boardId: string | null): Promise<void> {
  const ready = () =>
    ctrl.state.loaded &&
    (boardId === null || ctrl.state.boardId === boardId || !ctrl.state.boards.some((b) => b.id === boardId));
  if (ready()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = ctrl.store.subscribe(() => {
      if (!ready()) return;
      stop();
      resolve();
    });
  });
}

/** Resolves once the views of the board shown are fetched (or at once when there is none to wait for). */
function viewsLoaded(ctrl: BoardController, viewId: string): Promise<void> {
  const ready = () => ctrl.state.savedViews.some((v) => v.id === viewId && v.board === ctrl.state.boardId);
  if (ready()) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = ctrl.store.subscribe(() => {
      if (ready()) (stop(), resolve());
    });
    // A view that does not exist (deleted since the link was made) must not hold the rest back.
    setTimeout(() => (stop(), resolve()), 3000);
  });
}

async function show(ctrl: BoardController, wanted: Wanted): Promise<void> {
  if (wanted.board && wanted.board !== ctrl.state.boardId && ctrl.state.loaded) ctrl.switchBoard(wanted.board);
  await boardLoaded(ctrl, wanted.board);
  if (wanted.view && !wanted.explicit) {
    await viewsLoaded(ctrl, wanted.view);
    const view = ctrl.state.savedViews.find((v) => v.id === wanted.view);
    if (view) applyView(ctrl, view);
  } else {
    ctrl.store.set({
      ...wanted.state,
      ...(wanted.keepLayout ? { layout: ctrl.state.layout } : {}),
      viewId: wanted.view,
    });
    ctrl.scheduleFilter(0);
  }
  const card = wanted.card && ctrl.state.tasks[wanted.card] ? wanted.card : null;
  ctrl.store.set({ openTaskId: card, ...(card ? { panel: null } : {}) });
}

/** Browser only: restore the URL's board view at start, follow Back and Forward, and keep the URL current. */
export function installDeepLinks(ctrl: BoardController, win: Window = window): void {
  const first: Wanted = {
    ...wantedFrom(win.location.search),
    keepLayout: !new URLSearchParams(win.location.search).has('layout'),
  };
  // The first load reads the board to show from the kept preferences.
  if (first.board) ctrl.persist({ boardId: first.board });
  let following = false;
  let lastStep = '';
  const follow = async (wanted: Wanted) => {
    following = true;
    try {
      await show(ctrl, wanted);
    } finally {
      following = false;
      lastStep = stepOf(ctrl.state);
      win.history.replaceState(
        win.history.state,
        '',
        `${win.location.pathname}${searchFor(ctrl.state)}${win.location.hash}`,
      );
    }
  };
  let started = false;
  void follow(first).then(() => (started = true));
  win.addEventListener('popstate', () => void follow(wantedFrom(win.location.search)));
  ctrl.store.subscribe(() => {
    const state = ctrl.store.get();
    if (!started || following || !state.loaded) return;
    const search = searchFor(state);
    if (search === win.location.search) return;
    const step = stepOf(state);
    const url = `${win.location.pathname}${search}${win.location.hash}`;
    if (step !== lastStep) win.history.pushState(null, '', url);
    else win.history.replaceState(win.history.state, '', url);
    lastStep = step;
  });
}
