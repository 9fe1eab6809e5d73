import * as path from 'node:path';
import { PRIORITIES, RESERVED_STATUS_IDS } from '../../server/core/shapes/vocabulary';
import type { KanbanService } from '../service/kanbanService';
import { type CardFileLookup, serviceOfFile } from './cardOfFile';

/** What a card file's frontmatter may say, as its board's service knows it now. */
export interface CardFileVocabulary {
  service: KanbanService;
  boardId: string;
  /** The status folder the file sits in. */
  folderStatus: string;
  columns: { id: string; name: string }[];
  priorities: readonly string[];
  labels: string[];
  /** The assignees of the board's cards: free text, so offered but never checked. */
  assignees: string[];
  /** Statuses the service writes itself (trash, archive): accepted, never offered. */
  reservedStatuses: readonly string[];
}

const BOARD_AND_FOLDER = /[\\/]\.kanban[\\/]boards[\\/]([^\\/]+)[\\/]([^\\/]+)[\\/][^\\/]+\.md$/i;

/**
 * Read from the folder's in-process service (its config and card index), never from the files
 * again: what the editor offers is what the board accepts. Undefined for a file outside any board.
 */
export async function vocabularyOf(lookup: CardFileLookup, fsPath: string): Promise<CardFileVocabulary | undefined> {
  const where = BOARD_AND_FOLDER.exec(path.resolve(fsPath));
  const owner = where && (await serviceOfFile(lookup, fsPath));
  if (!where || !owner) return undefined;
  const [, boardId, folderStatus] = where;
  const { config, index } = owner.service.workspace;
  const board = config.boards.find((b) => b.id === boardId);
  if (!board) return undefined;
  const assignees = new Set<string>();
  for (const card of index.cardsOf(boardId)) if (card.assignee) assignees.add(card.assignee);
  return {
    service: owner.service,
    boardId,
    folderStatus,
    columns: board.columns.map(({ id, name }) => ({ id, name })),
    priorities: PRIORITIES,
    labels: Object.keys(config.labels ?? {}).sort(),
    assignees: [...assignees].sort((a, b) => a.localeCompare(b)),
    reservedStatuses: RESERVED_STATUS_IDS,
  };
}
