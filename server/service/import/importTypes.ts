/** What every source format is turned into before the shared plan and apply steps. */

import type { Static } from '@sinclair/typebox';
import type { ImportNoteSchema } from '../../core/shapes/importResult';

export { IMPORT_FORMATS, type ImportFormat } from '../../core/shapes/requests/dataMoves';

export interface ImportedComment {
  author: string;
  content: string;
  /** ISO time; the import time when the source has none. */
  created?: string;
}

/** One card as a source describes it, before it is placed on a board. */
export interface ImportedCard {
  /** Where it came from, e.g. `github:owner/repo#12`: stored as metadata `importedFrom`, so a re-run skips it. */
  importedFrom: string;
  title: string;
  /** Markdown under the title (checklists as `- [ ] item` lines). */
  body: string;
  /** A column id or name from the source (or several to try in turn); matched to the board's columns, else the board's default status. */
  column?: string | string[];
  /** Closed or completed in the source: goes to the board's last column. */
  done?: boolean;
  priority?: string;
  assignee?: string;
  dueDate?: string;
  labels: string[];
  metadata: Record<string, unknown>;
  comments: ImportedComment[];
}

/** A source's own words for what it could not take, e.g. a Trello card in a closed list. */
export type ImportNote = Static<typeof ImportNoteSchema>;

export interface ParsedSource {
  cards: ImportedCard[];
  notes: ImportNote[];
}

/** `data` of `POST /import` for kanban-lite: the workspace's files as text, paths relative to its root. */
export interface KanbanLiteFiles {
  files: { path: string; content: string }[];
}
