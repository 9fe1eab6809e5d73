import type { BoardConfig, Column, Settings } from './model';

export const STANDARD_COLUMNS: readonly Column[] = [
  { id: 'backlog', name: 'Backlog', color: '#6b7280' },
  { id: 'todo', name: 'To Do', color: '#3b82f6' },
  { id: 'in-progress', name: 'In Progress', color: '#f59e0b' },
  { id: 'review', name: 'Review', color: '#8b5cf6' },
  { id: 'done', name: 'Done', color: '#22c55e' },
];

export const DEFAULT_SETTINGS: Readonly<Settings> = {
  showPriorityBadges: true,
  showAssignee: true,
  showDueDate: true,
  showLabels: true,
  showFileName: false,
  compactMode: false,
  showDeletedColumn: false,
  defaultPriority: 'medium',
  defaultStatus: 'backlog',
  boardBackgroundMode: 'fancy',
  boardBackgroundPreset: 'aurora',
};

/**
 * The board of a new workspace. It sets no defaultStatus or defaultPriority of its own, so new cards
 * follow the workspace settings (backlog and medium until changed in PUT /settings).
 */
export function defaultBoard(): BoardConfig {
  return {
    id: 'default',
    name: 'Default',
    columns: STANDARD_COLUMNS.map((c) => ({ ...c })),
    actions: {},
    minimizedColumnIds: [],
  };
}
