/**
 * The data model shared by the core, the storage providers and every host. The read models (what
 * the API answers) are types of their schemas in core/shapes, so a field is described once.
 */

import type { Static } from '@sinclair/typebox';
import type { BoardSchema, ColumnSchema, LabelDefinitionSchema, SettingsSchema } from './shapes/board';
import type { BoardConfigSchema } from './shapes/boardConfig';
import type { ListedTask, Task } from './shapes/card';
import type { CardFormSchema, CardStateSchema, ClaimSchema, CommentSchema } from './shapes/cardParts';
import type { Priority } from './shapes/vocabulary';

export const DEFAULT_COLUMN_COLOR = '#6b7280';

/** A column of a board; its WIP limit is soft, and archived cards do not count towards it. */
export type Column = Static<typeof ColumnSchema>;

/** A board of `.kanban.json` as the service holds it after parseConfig. */
export type BoardConfig = Static<typeof BoardConfigSchema>;

/** A board as the API shows it: the defaults are the effective values, absent settings are null. */
export type BoardView = Static<typeof BoardSchema>;

export type Settings = Static<typeof SettingsSchema>;

export type LabelDefinition = Static<typeof LabelDefinitionSchema>;

export type Comment = Static<typeof CommentSchema>;

/** An inline form definition on a card, or a reference to a workspace form by name. */
export type CardForm = Static<typeof CardFormSchema>;

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
  /** The card (same board) this one is a sub-card of. */
  parent?: string;
  /** Cards (any board) this one is related to; the relation shows on both cards, stored on this one. */
  relatesTo?: string[];
  /** Cards (any board) this one duplicates; each of them shows this one among its `duplicates`. */
  duplicateOf?: string[];
  /** When the card was archived (ISO 8601). Archived cards keep their status and leave the lists. */
  archivedAt?: string;
  /** The column a soft-deleted card was in when it was deleted, so a restore puts it back there. */
  deletedFrom?: string;
  /**
   * Every change of the card's column the service made, one line each, oldest first (the format is
   * in core/columnHistory.ts). Read by the flow metrics only; not part of the read model.
   */
  columnHistory?: string[];
}

export type CardState = Static<typeof CardStateSchema>;

/** An agent's lease on a card, as the read model shows it (rules in core/claims.ts). */
export type CardClaim = Static<typeof ClaimSchema>;

/** What the API returns for a card: comments and task list items only on a single card. */
export type TaskView = ListedTask & Partial<Pick<Task, 'comments' | 'checklistItems'>>;

/** Title of a card: the first `#` heading of its content, else its first non-empty line. */
export function titleOf(content: string): string {
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(content);
  if (heading) return heading[1].trim();
  const firstLine = content.split('\n').find((line) => line.trim() !== '');
  return (firstLine ?? '').trim().slice(0, 200);
}
