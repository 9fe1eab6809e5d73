import { log } from '../core/log';
import { AttachmentsWithLocalFiles, LogsWithLocalFiles } from '../storage/localFilesFallback';
import type { Workspace } from './workspace';

/**
 * A MySQL workspace from before attachments and logs lived in the database still has them in the
 * local files of the instance that took them: served by that instance only. At start they move
 * into the database, one file per commit, each file removed only once its copy is committed: a
 * crash midway leaves every file either still local or in the database (whose copy then wins, and
 * the next start removes the file). Two instances over one folder at once never add an entry twice.
 */
export async function adoptLocalFiles(ws: Workspace): Promise<void> {
  const attachments = ws.attachments instanceof AttachmentsWithLocalFiles ? ws.attachments : null;
  const logs = ws.logs instanceof LogsWithLocalFiles ? ws.logs : null;
  if (!attachments && !logs) return;
  let files = 0;
  let logFiles = 0;
  for (const card of ws.index.allCards()) {
    if (attachments) for (const name of card.attachments) if (await attachments.adoptLocalFile(card, name)) files++;
    if (logs && (await logs.adoptLocalFile({ boardId: card.boardId, cardId: card.id }))) logFiles++;
  }
  if (logs) for (const board of ws.config.boards) if (await logs.adoptLocalFile({ boardId: board.id })) logFiles++;
  if (files + logFiles > 0)
    log.info(
      `kanban: moved ${files} attachment(s) and ${logFiles} log file(s) an older service kept in .kanban/ into the database, where every instance sees them`,
    );
}
