/** The data model shared by the core, the storage providers and every host. */

export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The hidden column that holds soft-deleted cards. */
export const DELETED_STATUS = 'deleted';

export const DEFAULT_COLUMN_COLOR = '#6b7280';

export interface Column {
  id: string;
  name: string;
  color: string;
  /** Soft WIP limit: how many cards the column should hold at most (archived ones not counted). */
  wipLimit?: number;
}

/** What a move or create into a column at its WIP limit does: go ahead with a warning, or be refused. */
export const WIP_POLICIES = ['warn', 'block'] as const;
export type WipPolicy = (typeof WIP_POLICIES)[number];

export interface BoardConfig {
  id: string;
  name: string;
  description?: string;
  columns: Column[];
  defaultStatus?: string;
  /** The column `kanban start` moves a card to; absent: see core/startColumn. Must be a column of the board. */
  startStatus?: string;
  /** The columns `pick` takes cards from; absent: the columns before the start column (core/startColumn). */
  pickFrom?: string[];
  defaultPriority?: Priority;
  actions: Record<string, string>;
  minimizedColumnIds: string[];
  /** Default `warn`. */
  wipPolicy?: WipPolicy;
  /** Cards that stayed this many days in the last column (by `completedAt`) are archived. */
  autoArchiveDays?: number;
}

export const BACKGROUND_MODES = ['fancy', 'plain'] as const;
export const BACKGROUND_PRESETS = [
  'aurora',
  'sunset',
  'meadow',
  'nebula',
  'lagoon',
  'candy',
  'ember',
  'violet',
  'paper',
  'mist',
  'sand',
] as const;

export interface Settings {
  showPriorityBadges: boolean;
  showAssignee: boolean;
  showDueDate: boolean;
  showLabels: boolean;
  showFileName: boolean;
  compactMode: boolean;
  showDeletedColumn: boolean;
  defaultPriority: Priority;
  defaultStatus: string;
  boardBackgroundMode: (typeof BACKGROUND_MODES)[number];
  boardBackgroundPreset: (typeof BACKGROUND_PRESETS)[number];
}

export interface LabelDefinition {
  color: string;
  group?: string;
}

export interface Comment {
  id: string;
  author: string;
  content: string;
  created: string;
  modified?: string;
}

/** An inline form definition on a card, or a reference to a workspace form by name. */
export type CardForm =
  { name: string } | { id?: string; name?: string; schema: Record<string, unknown>; data?: Record<string, unknown> };

/** A card as stored: everything the files or rows hold. `title` is derived from `content`. */
export interface Card {
  id: string;
  boardId: string;
  status: string;
  content: string;
  priority: Priority;
  assignee?: string;
  dueDate?: string;
  labels: string[];
  metadata: Record<string, unknown>;
  forms: CardForm[];
  formData: Record<string, Record<string, unknown>>;
  actions?: string[] | Record<string, string>;
  attachments: string[];
  comments: Comment[];
  order: string;
  created: string;
  modified: string;
  completedAt?: string;
  /** Ids of the cards (on any board) that must be finished before this one can start. */
  blockedBy?: string[];
  /** When the card was archived (ISO 8601). Archived cards keep their status and leave the lists. */
  archivedAt?: string;
  /** The column a soft-deleted card was in when it was deleted, so a restore puts it back there. */
  deletedFrom?: string;
}

export interface CardState {
  unread: boolean;
  open: boolean;
}

import type { CardSession } from './sessions';

/** An agent's lease on a card, as the read model shows it (rules in core/claims.ts). */
export interface CardClaim {
  agent: string;
  /** When the agent first claimed the card (a renewal keeps it). */
  since: string;
  /** When the lease ends unless renewed; from then on the card is free. */
  until: string;
}

/** What the API returns for a card. */
export interface TaskView {
  id: string;
  boardId: string;
  title: string;
  content: string;
  status: string;
  priority: Priority;
  assignee: string | null;
  dueDate: string | null;
  labels: string[];
  metadata: Record<string, unknown>;
  forms: CardForm[];
  formData: Record<string, Record<string, unknown>>;
  actions: string[] | Record<string, string>;
  attachments: string[];
  comments?: Comment[];
  commentCount: number;
  created: string;
  modified: string;
  completedAt: string | null;
  /** Ticked and total task list items of the content; null when it has none. */
  checklist: { done: number; total: number } | null;
  /** Whole ids of the cards this one waits for (any board). */
  blockedBy: string[];
  /** When the card was archived, or null. */
  archivedAt: string | null;
  position: number;
  cardState: CardState;
  /** Ids of the cards whose blockedBy names this one (derived). */
  blocks: string[];
  /** Whether a blocker is neither in its board's last column nor archived. */
  blocked: boolean;
  /** How many blockers are still open (the "blocked by N" badge): 0 when not blocked. */
  openBlockers: number;
  /** The agent working on the card under a running lease, or null (core/claims.ts). */
  claim: CardClaim | null;
  /** What the agent working on the card last reported (core/sessions.ts), or null. */
  session: CardSession | null;
  /** Every task list item, on a single card (with comments). */
  checklistItems?: { index: number; text: string; done: boolean }[];
  filePath?: string;
}

/** Title of a card: the first `#` heading of its content, else its first non-empty line. */
export function titleOf(content: string): string {
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(content);
  if (heading) return heading[1].trim();
  const firstLine = content.split('\n').find((line) => line.trim() !== '');
  return (firstLine ?? '').trim().slice(0, 200);
}
