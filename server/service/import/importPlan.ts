import type { Static } from '@sinclair/typebox';
import type { ImportResultSchema } from '../../core/shapes/importResult';
import { ValidationError } from '../../core/errors';
import type { BoardConfig, Column, Comment } from '../../core/model';
import { PRIORITIES } from '../../core/shapes/vocabulary';
import { newCommentId } from '../../core/ids';
import { effectiveDefaultStatus } from '../boards';
import type { NewTaskFields } from '../tasks';
import type { RunControl } from '../../core/progress';
import { isIsoDate } from '../validate';
import type { Workspace } from '../workspace';
import type { ImportedCard, ImportFormat, ImportNote, ParsedSource, PlannedCard } from './importTypes';
import { writeImport } from './importApply';
import { dropUnknownLinks, linkOrder, newColumnFor, sourceColumnName } from './importRelations';

/**
 * The shared half of every import: place the source's cards on a board (column, priority), leave
 * out those an earlier import already made on that board (same `importedFrom`), and
 * either say what would be created (the default) or create it.
 */

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

/**
 * The column a card goes to. `added` (when the source has columns of its own) collects the columns
 * to create for the names the board lacks, one per name.
 */
function statusFor(ws: Workspace, board: BoardConfig, card: ImportedCard, added?: Column[]): string {
  if (card.done) return board.columns[board.columns.length - 1].id;
  const candidates = Array.isArray(card.column) ? card.column : [card.column];
  for (const candidate of candidates) {
    const column = matchColumn(board, candidate) ?? matchColumn({ ...board, columns: added ?? [] }, candidate);
    if (column) return column;
  }
  const name = added && sourceColumnName(card);
  if (!added || !name) return effectiveDefaultStatus(ws, board);
  const column = newColumnFor(board, added, name);
  added.push(column);
  return column.id;
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
  source: ParsedSource,
  apply: boolean,
  run: RunControl = {},
): Promise<ImportResult> {
  const board = ws.board(boardId);
  const existing = importedKeys(ws, board.id);
  const notes = [...source.notes];
  const newColumns: Column[] = [];
  const result: ImportResult = {
    format,
    board: board.id,
    applied: apply,
    created: 0,
    newColumns,
    cards: [],
    skipped: [],
    notes,
  };
  const seen = new Set<string>();
  const toCreate = new Map<ImportedCard, PlannedCard>();
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
    const status = statusFor(ws, board, card, source.createsColumns ? newColumns : undefined);
    const planned = { title: card.title, status, importedFrom: card.importedFrom };
    toCreate.set(card, planned);
    result.cards.push(planned);
  }
  result.created = toCreate.size;
  dropUnknownLinks([...toCreate.keys()], new Set([...existing.keys(), ...seen]), notes);
  const ordered = linkOrder([...toCreate.keys()], notes);
  if (!apply) return result;
  const now = new Date().toISOString();
  const cards = ordered.map((card) => {
    const planned = toCreate.get(card)!;
    return { card, planned, fields: fieldsOf(card, planned, notes), comments: commentsOf(card, now) };
  });
  const labels = ordered.flatMap((card) => card.groupedLabels ?? []);
  await writeImport(ws, board.id, { columns: newColumns, labels, cards, existing }, run);
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

/** The `data` of an import request must have the shape its format reads. */
export function requireShape(ok: boolean, format: ImportFormat, expected: string): asserts ok {
  if (!ok) throw new ValidationError(`data for format "${format}" must be ${expected}`);
}
