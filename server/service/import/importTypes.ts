/** What every source format is turned into before the shared plan and apply steps. */

import type { Static } from '@sinclair/typebox';
import type { ImportNoteSchema, PlannedCardSchema, SourceFilesSchema } from '../../core/shapes/importResult';

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
  /** `importedFrom` keys of the cards this one waits for (in the source or imported earlier). */
  blockedBy?: string[];
  /** `importedFrom` key of the card this one is a sub-card of. */
  parent?: string;
  /** Archived in the source: archived here too, in the column it maps to. */
  archived?: boolean;
  /** Labels of a label group (a milestone): defined in that group when the workspace does not define them yet. */
  groupedLabels?: { name: string; group: string }[];
}

/** A card an import makes (or, in a dry run, would make). */
export type PlannedCard = Static<typeof PlannedCardSchema>;

/** A source's own words for what it could not take, e.g. a Trello card in a closed list. */
export type ImportNote = Static<typeof ImportNoteSchema>;

export interface ParsedSource {
  cards: ImportedCard[];
  notes: ImportNote[];
  /**
   * The source has columns of its own (a Backlog.md status, an Obsidian lane): one the board lacks
   * is created, named as the source names it. Without it, such a card goes to the default status.
   */
  createsColumns?: boolean;
}

/** `data` of `POST /import` for a tool that keeps its cards in files: the files as text, paths relative to its folder. */
export type SourceFiles = Static<typeof SourceFilesSchema>;

/** kanban-lite's files: its `.kanban.json` and `.kanban/**.md`, paths relative to the workspace root. */
export type KanbanLiteFiles = SourceFiles;
