import { log } from '../core/log';
import { AttachmentsWithLocalFiles, LogsWithLocalFiles } from '../storage/localFilesFallback';
import type { Card } from '../core/model';
import type { AttachmentStore } from '../storage/attachmentStore';
import type { LogStore } from '../storage/logStore';

/** What the adoption reads of a workspace (passed in: the workspace calls it while it opens). */
export interface AdoptionParts {
  attachments: AttachmentStore;
  logs: LogStore;
  /** Asked only when attachments may have local files: a list of every card costs a large board's start. */
  cards: () => Iterable<Card>;
  boardIds: string[];
}

/**
 * A MySQL workspace from before attachments and logs lived in the database still has them in the
 * local files of the instance that took them: served by that instance only. At start they move
 * into the database, one file per commit, each file removed only once its copy is committed: a
 * crash midway leaves every file either still local or in the database (whose copy then wins, and
 * the next start removes the file). Two instances over one folder at once never add an entry twice.
 */
export async function adoptLocalFiles(parts: AdoptionParts): Promise<void> {
  const attachments = parts.attachments instanceof AttachmentsWithLocalFiles ? parts.attachments : null;
  const logs = parts.logs instanceof LogsWithLocalFiles ? parts.logs : null;
  if (!attachments && !logs) return;
  let files = 0;
  let logFiles = 0;
  // One listing per board rather than one lookup per attachment: a start with nothing left to
  // adopt costs as many directory reads as there are boards, yet files an older service writes
  // later are still found.
  if (attachments) {
    const local = new Map<string, Set<string>>();
    for (const card of parts.cards()) {
      if (card.attachments.length === 0) continue;
      let cards = local.get(card.boardId);
      if (!cards) local.set(card.boardId, (cards = await attachments.cardsWithLocalFiles(card.boardId)));
      if (!cards.has(card.id)) continue;
      for (const name of card.attachments) if (await attachments.adoptLocalFile(card, name)) files++;
    }
  }
  // Listing each board's log folder keeps a start at 100,000 cards from one file lookup per card.
  if (logs)
    for (const boardId of parts.boardIds) {
      if (await logs.adoptLocalFile({ boardId })) logFiles++;
      for (const cardId of await logs.cardsWithLocalLogs(boardId))
        if (await logs.adoptLocalFile({ boardId, cardId })) logFiles++;
    }
  if (files + logFiles > 0)
    log.info(
      `kanban: moved ${files} attachment(s) and ${logFiles} log file(s) an older service kept in .kanban/ into the database, where every instance sees them`,
    );
}
