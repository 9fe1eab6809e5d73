import type { Static } from '@sinclair/typebox';
import type { ImportResultSchema, PlannedCardSchema } from '../../core/shapes/importResult';
import { ValidationError } from '../../core/errors';
import type { BoardConfig, Comment } from '../../core/model';
import { PRIORITIES } from '../../core/shapes/vocabulary';
import { newCommentId } from '../../core/ids';
import { effectiveDefaultStatus } from '../boards';
import { createTask, permanentDeleteTask, type NewTaskFields } from '../tasks';
import { throwIfCancelled, type RunControl } from '../../core/progress';
import { log } from '../../core/log';
import { isIsoDate } from '../validate';
import type { Workspace } from '../workspace';
import type { ImportedCard, ImportFormat, ImportNote } from './importTypes';

/**
 * The shared half of every import: place the source's cards on a board (column, priority), leave
 * out those an earlier import already made on that board (same `importedFrom`), and
 * either say what would be created (the default) or create it.
 */

export type PlannedCard = Static<typeof PlannedCardSchema>;

export type ImportResult = Static<typeof ImportResultSchema>;

/**
 * `importedFrom` metadata of every card on the board (deleted ones too: a card deleted after an
 * import stays deleted on a re-run), to its card id. Per board, so one source can seed two boards.
 */
function importedKeys(ws: Workspace, boardId: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const card of ws.index.cardsOf(boardId)) {
    const from = card.metadata.importedFrom;
    if (typeof from === 'string') keys.set(from, card.id);
  }
  return keys;
}

/** The board column a source column names: by id, else by name, case and spacing aside. */
export function matchColumn(board: BoardConfig, wanted: string | undefined): string | undefined {
  if (!wanted) return undefined;
  const norm = (text: string) =>
    text
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ');
  const target = norm(wanted);
  return board.columns.find((c) => norm(c.id) === target)?.id ?? board.columns.find((c) => norm(c.name) === target)?.id;
}

function statusFor(ws: Workspace, board: BoardConfig, card: ImportedCard): string {
  if (card.done) return board.columns[board.columns.length - 1].id;
  const candidates = Array.isArray(card.column) ? card.column : [card.column];
  for (const candidate of candidates) {
    const column = matchColumn(board, candidate);
    if (column) return column;
  }
  return effectiveDefaultStatus(ws, board);
}

function priorityFor(text: string | undefined): (typeof PRIORITIES)[number] | undefined {
  const wanted = text?.trim().toLowerCase();
  return PRIORITIES.find((p) => p === wanted);
}

function contentOf(card: ImportedCard): string {
  const title = card.title.replace(/[\r\n]+/g, ' ').trim() || 'Untitled';
  const body = card.body.replace(/\r\n?/g, '\n').trim();
  return body ? `# ${title}\n\n${body}\n` : `# ${title}\n`;
}

function commentsOf(card: ImportedCard, now: string): Comment[] {
  return card.comments
    .filter((c) => c.content.trim() !== '')
    .map((c) => ({
      id: newCommentId(),
      author: c.author.trim() || 'unknown',
      content: c.content,
      created: c.created && !Number.isNaN(Date.parse(c.created)) ? new Date(c.created).toISOString() : now,
    }));
}

/** Check the source's due date is one the card model takes; a bad one is a note, not a failed import. */
function dueDateOf(card: ImportedCard, notes: ImportNote[]): string | undefined {
  if (!card.dueDate) return undefined;
  if (isIsoDate(card.dueDate)) return card.dueDate;
  notes.push({ title: card.title, reason: `due date "${card.dueDate}" is not an ISO 8601 date; left out` });
  return undefined;
}

/** Labels the card model takes (1-64 printable characters); others become notes. */
function labelsOf(card: ImportedCard, notes: ImportNote[]): string[] {
  const labels = card.labels.map((l) => l.trim()).filter((l) => l !== '');
  const bad = labels.filter((l) => l.length > 64 || /[\u0000-\u001f\u007f]/.test(l));
  if (bad.length)
    notes.push({
      title: card.title,
      reason: `labels ${bad.map((l) => JSON.stringify(l.slice(0, 70))).join(', ')} are not 1-64 printable characters; left out`,
    });
  return labels.filter((l) => !bad.includes(l));
}

export async function runImport(
  ws: Workspace,
  format: ImportFormat,
  boardId: string,
  source: { cards: ImportedCard[]; notes: ImportNote[] },
  apply: boolean,
  run: RunControl = {},
): Promise<ImportResult> {
  const board = ws.board(boardId);
  const existing = importedKeys(ws, board.id);
  const notes = [...source.notes];
  const result: ImportResult = { format, board: board.id, applied: apply, created: 0, cards: [], skipped: [], notes };
  const seen = new Set<string>();
  const toCreate: { card: ImportedCard; planned: PlannedCard }[] = [];
  for (const card of source.cards) {
    const earlier = existing.get(card.importedFrom);
    if (earlier) {
      result.skipped.push({ title: card.title, importedFrom: card.importedFrom, existingId: earlier });
      continue;
    }
    if (seen.has(card.importedFrom)) {
      notes.push({ title: card.title, reason: `appears twice in the source as ${card.importedFrom}; imported once` });
      continue;
    }
    seen.add(card.importedFrom);
    const planned = { title: card.title, status: statusFor(ws, board, card), importedFrom: card.importedFrom };
    toCreate.push({ card, planned });
    result.cards.push(planned);
  }
  result.created = toCreate.length;
  if (!apply) return result;
  const fields = toCreate.map(({ card, planned }) => ({
    planned,
    fields: fieldsOf(card, planned, notes),
    comments: commentsOf(card, new Date().toISOString()),
  }));
  await createAllOrNone(ws, board.id, fields, run);
  return result;
}

function fieldsOf(card: ImportedCard, planned: PlannedCard, notes: ImportNote[]): NewTaskFields {
  return {
    content: contentOf(card),
    status: planned.status,
    priority: priorityFor(card.priority),
    assignee: card.assignee?.trim() || undefined,
    dueDate: dueDateOf(card, notes),
    labels: labelsOf(card, notes),
    metadata: { ...card.metadata, importedFrom: card.importedFrom },
  };
}

/**
 * Create the prepared cards as one mutation, so no other write lands between them. A cancel (or a
 * failure) part way removes the cards this run created, so the board is as it was before. A crash
 * part way leaves the cards made so far; running the same import again adds only the rest, since
 * each carries its `importedFrom`.
 */
async function createAllOrNone(
  ws: Workspace,
  boardId: string,
  prepared: { planned: PlannedCard; fields: NewTaskFields; comments: Comment[] }[],
  run: RunControl,
): Promise<void> {
  const report = ws.progress.reporter('import', run.onProgress);
  const created: string[] = [];
  await ws.mutate(async () => {
    try {
      for (const { planned, fields, comments } of prepared) {
        throwIfCancelled(run.signal, 'the import');
        report('creating cards', created.length, prepared.length);
        const view = await createTask(ws, boardId, fields, { comments });
        planned.id = view.id;
        created.push(view.id);
      }
      report('creating cards', prepared.length, prepared.length);
    } catch (error) {
      await removeCreated(ws, boardId, created, report);
      throw error;
    }
  });
}

/** Take back the cards a cancelled or failed import made, newest first. */
async function removeCreated(
  ws: Workspace,
  boardId: string,
  ids: string[],
  report: (phase: string, done: number, total: number) => void,
): Promise<void> {
  for (const [done, id] of [...ids].reverse().entries()) {
    report('removing the cards made so far', done, ids.length);
    await permanentDeleteTask(ws, boardId, id).catch((error) =>
      log.error(`kanban: a cancelled import could not remove card ${id}:`, error),
    );
  }
}

/** The `data` of an import request must have the shape its format reads. */
export function requireShape(ok: boolean, format: ImportFormat, expected: string): asserts ok {
  if (!ok) throw new ValidationError(`data for format "${format}" must be ${expected}`);
}
