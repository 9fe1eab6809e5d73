import type { BrokenFile, DisplayPreferences } from '../protocol';
import type { ConnectionState } from '../transport';
import { EMPTY_FILTER, type Board, type BoardSummary, type Labels, type Settings, type TaskFilter } from '../types';
import type { TaskSet } from './placement';
import type { SavedView } from '../../server/core/savedViews';
import { DEFAULT_SETTINGS as SERVICE_DEFAULT_SETTINGS } from '../../server/core/defaults';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
  action?: { label: string; run: () => void };
}

export type Panel = 'settings' | 'labels' | 'board' | 'new-board' | 'columns' | 'archive' | 'shortcuts' | null;
export type ThemeChoice = 'auto' | 'light' | 'dark';

/** Where a dragged card would land: shown as a gap in that column before the drop. */
export interface DropTarget {
  taskId: string;
  status: string;
  /** Index among the column's visible cards, the dragged card left out. */
  index: number;
  height: number;
  /** The swimlane (lanes.ts key) under the pointer, when the board is grouped. */
  lane?: string;
}

export interface AppState extends TaskSet {
  connection: ConnectionState;
  loaded: boolean;
  loadError: string | null;
  boards: BoardSummary[];
  boardId: string | null;
  board: Board | null;
  settings: Settings;
  labels: Labels;
  filter: TaskFilter;
  /** Ids that match the filter, or null when no filter is set. */
  matches: Set<string> | null;
  /** The filter `matches` answers: while it is not `filter`, a search is still on its way. */
  matchesFilter: TaskFilter | null;
  openTaskId: string | null;
  /** The column whose quick-add box is open. */
  quickAddStatus: string | null;
  panel: Panel;
  toasts: Toast[];
  theme: ThemeChoice;
  drop: DropTarget | null;
  /** The server asked for a token (401): its message, shown in the token prompt. */
  authPrompt: { message: string } | null;
  /** Card files and `.kanban.json` versions that do not parse: listed in a notice above the board. */
  invalidFiles: BrokenFile[];
  /** Why the board is read-only (VS Code's Restricted Mode), shown above it; null when it is not. */
  readOnlyNotice: string | null;
  /** The VS Code user's own display preferences; null outside VS Code (the shared settings rule). */
  display: DisplayPreferences | null;
  /** Who new comments are by, as the host knows it (git user name); null when it does not say. */
  identity: string | null;
  /** The card whose context menu is open, and where (page coordinates). */
  cardMenu: CardMenuAt | null;
  layout: Layout;
  groupBy: GroupBy;
  sort: ViewSort;
  /** The saved view (`.kanban.json` `views`) last applied, while nothing was changed since; else null. */
  viewId: string | null;
  /** Saved views of the board shown (`GET /api/views?board=`), for the view switcher. */
  savedViews: SavedView[];
  /** Cards picked for a bulk edit (Shift/Ctrl-click, Shift+arrows); empty when none. */
  selection: ReadonlySet<string>;
}

/**
 * How the cards are laid out: the board's columns, or a table of rows. Part of a saved view and of
 * the page URL.
 */
export type Layout = 'board' | 'table' | 'metrics';

/**
 * What the board's rows (swimlanes) are grouped by: `assignee`, `priority`, `labelGroup:<group>`
 * or `metadata:<key path>`; null for no lanes. Part of a saved view and of the page URL.
 */
export type GroupBy = string | null;

/**
 * The order of the table view and of a saved view: a list route sort value (`due`, `-modified`,
 * ...); '' keeps the board's own order.
 */
export type ViewSort = string;

export interface CardMenuAt {
  taskId: string;
  x: number;
  y: number;
}

/** Shown until the server's settings arrive; the service's own defaults, so nothing jumps on load. */
export const DEFAULT_SETTINGS: Settings = { ...SERVICE_DEFAULT_SETTINGS };

export function initialState(theme: ThemeChoice): AppState {
  return {
    connection: 'connecting',
    loaded: false,
    loadError: null,
    boards: [],
    boardId: null,
    board: null,
    settings: DEFAULT_SETTINGS,
    labels: {},
    tasks: {},
    order: {},
    filter: EMPTY_FILTER,
    matches: null,
    matchesFilter: null,
    openTaskId: null,
    quickAddStatus: null,
    panel: null,
    toasts: [],
    theme,
    drop: null,
    authPrompt: null,
    invalidFiles: [],
    readOnlyNotice: null,
    display: null,
    identity: null,
    cardMenu: null,
    layout: 'board',
    groupBy: null,
    sort: '',
    viewId: null,
    savedViews: [],
    selection: new Set<string>(),
  };
}
