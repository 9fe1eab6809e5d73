import type { Column, Comment } from '../../core/model';
import { DEFAULT_COLUMN_COLOR } from '../../core/model';
import { throwIfCancelled, type RunControl } from '../../core/progress';
import { log } from '../../core/log';
import { archiveTask } from '../archive';
import { createColumn, deleteColumn, reorderColumns } from '../columns';
import { deleteLabel, putLabel } from '../labels';
import { createTask, permanentDeleteTask, type NewTaskFields } from '../tasks';
import type { Workspace } from '../workspace';
import type { ImportedCard, PlannedCard } from './importTypes';

/**
 * The writing half of an import: the columns and label groups the source brings, then the cards
 * (each after the cards it links to), as one mutation, so no other write lands between them.
 */

export interface PreparedCard {
  card: ImportedCard;
  planned: PlannedCard;
  fields: NewTaskFields;
  comments: Comment[];
}

export interface ImportWrites {
  columns: Column[];
  labels: { name: string; group: string }[];
  /** In creation order: a card after the cards it links to. */
  cards: PreparedCard[];
  /** `importedFrom` to card id of the cards already on the board. */
  existing: Map<string, string>;
}

/** The card's links, written as the ids of the cards made (now or by an earlier import). */
function withLinks(prepared: PreparedCard, ids: Map<string, string>): NewTaskFields {
  const blockedBy = (prepared.card.blockedBy ?? []).map((key) => ids.get(key)).filter((id): id is string => !!id);
  const parentId = prepared.card.parent ? ids.get(prepared.card.parent) : undefined;
  const fields = blockedBy.length ? { ...prepared.fields, blockedBy } : prepared.fields;
  return parentId ? { ...fields, parent: parentId } : fields;
}

/**
 * The source's columns the board lacks, placed before the board's last column: the last column is
 * where finished cards go, so it stays last.
 */
async function addColumns(ws: Workspace, boardId: string, columns: Column[], made: Made): Promise<void> {
  if (columns.length === 0) return;
  const last = ws.board(boardId).columns.at(-1)!.id;
  for (const column of columns) {
    await createColumn(ws, boardId, column);
    made.columns.push(column.id);
  }
  const ids = ws.board(boardId).columns.map((c) => c.id);
  await reorderColumns(ws, boardId, [...ids.filter((id) => id !== last), last]);
}

interface Made {
  columns: string[];
  labels: string[];
  cards: string[];
}

/**
 * Write everything, or nothing: a cancel (or a failure) part way removes what this run made, newest
 * first, so the board is as it was before. A crash part way leaves what was made so far; running the
 * same import again adds only the rest, since each card carries its `importedFrom`.
 */
export async function writeImport(
  ws: Workspace,
  boardId: string,
  writes: ImportWrites,
  run: RunControl,
): Promise<void> {
  const report = ws.progress.reporter('import', run.onProgress);
  const made: Made = { columns: [], labels: [], cards: [] };
  const ids = new Map(writes.existing);
  const total = writes.cards.length;
  await ws.mutate(async () => {
    try {
      await addColumns(ws, boardId, writes.columns, made);
      for (const label of writes.labels) {
        if (ws.config.labels[label.name]) continue;
        await putLabel(ws, label.name, { color: DEFAULT_COLUMN_COLOR, group: label.group });
        made.labels.push(label.name);
      }
      for (const prepared of writes.cards) {
        throwIfCancelled(run.signal, 'the import');
        report('creating cards', made.cards.length, total);
        const view = await createTask(ws, boardId, withLinks(prepared, ids), { comments: prepared.comments });
        made.cards.push(view.id);
        ids.set(prepared.card.importedFrom, view.id);
        prepared.planned.id = view.id;
        if (prepared.card.archived) await archiveTask(ws, boardId, view.id);
      }
      report('creating cards', total, total);
    } catch (error) {
      await takeBack(ws, boardId, made, report);
      throw error;
    }
  });
}

async function takeBack(
  ws: Workspace,
  boardId: string,
  made: Made,
  report: (phase: string, done: number, total: number) => void,
): Promise<void> {
  const undo = async (what: string, action: () => Promise<unknown>) =>
    action().catch((error) => log.error(`kanban: a cancelled import could not remove ${what}:`, error));
  for (const [done, id] of [...made.cards].reverse().entries()) {
    report('removing the cards made so far', done, made.cards.length);
    await undo(`card ${id}`, () => permanentDeleteTask(ws, boardId, id));
  }
  for (const name of made.labels) await undo(`label ${name}`, () => deleteLabel(ws, name));
  for (const id of made.columns) await undo(`column ${id}`, () => deleteColumn(ws, boardId, id));
}
