import type { BrokenFile, DisplayPreferences } from '../protocol';
import type { ConnectionState } from '../transport';
import { EMPTY_FILTER, type Board, type BoardSummary, type Labels, type Settings, type TaskFilter } from '../types';
import type { TaskSet } from './placement';
import { DEFAULT_SETTINGS as SERVICE_DEFAULT_SETTINGS } from '../../server/core/defaults';

export interface Toast {
  id: number;
  kind: 'error' | 'info';
  text: string;
  action?: { label: string; run: () => void };
}

export type Panel = 'settings' | 'labels' | 'board' | 'new-board' | 'columns' | 'archive' | null;
export type ThemeChoice = 'auto' | 'light' | 'dark';

/** Where a dragged card would land: shown as a gap in that column before the drop. */
export interface DropTarget {
  taskId: string;
  status: string;
  /** Index among the column's visible cards, the dragged card left out. */
  index: number;
  height: number;
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
  /** The VS Code user's own display preferences; null outside VS Code (the shared settings rule). */
  display: DisplayPreferences | null;
  /** Who new comments are by, as the host knows it (git user name); null when it does not say. */
  identity: string | null;
  /** The card whose context menu is open, and where (page coordinates). */
  cardMenu: CardMenuAt | null;
}

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
    openTaskId: null,
    quickAddStatus: null,
    panel: null,
    toasts: [],
    theme,
    drop: null,
    authPrompt: null,
    invalidFiles: [],
    display: null,
    identity: null,
    cardMenu: null,
  };
}
