import { PRIORITIES, type Priority } from '../../core/shapes/vocabulary';
import type { Card, Comment } from '../../core/model';

/**
 * How a card maps onto rows, shared by the SQLite and MySQL stores. Structured fields are JSON
 * text so both databases hold them the same way and any value survives a round trip.
 */
export const CARD_COLUMNS = [
  'id',
  'board_id',
  'status',
  'order_key',
  'content',
  'priority',
  'assignee',
  'due_date',
  'labels',
  'metadata',
  'forms',
  'form_data',
  'actions',
  'attachments',
  'created',
  'modified',
  'completed_at',
  'blocked_by',
  'archived_at',
  'deleted_from',
  'links',
] as const;

export type CardColumn = (typeof CARD_COLUMNS)[number];
export type CardRow = Record<CardColumn, string | null>;

export interface CommentRow {
  card_id: string;
  id: string;
  seq_no: number;
  author: string;
  content: string;
  created: string;
  modified: string | null;
}

/** A row that does not make a card (edited by hand or by another tool). */
export class CardRowError extends Error {}

export function cardToRow(card: Card): CardRow {
  return {
    id: card.id,
    board_id: card.boardId,
    status: card.status,
    order_key: card.order,
    content: card.content,
    priority: card.priority,
    assignee: card.assignee ?? null,
    due_date: card.dueDate ?? null,
    labels: JSON.stringify(card.labels),
    metadata: JSON.stringify(card.metadata),
    forms: JSON.stringify(card.forms),
    form_data: JSON.stringify(card.formData),
    actions: card.actions === undefined ? null : JSON.stringify(card.actions),
    attachments: JSON.stringify(card.attachments),
    created: card.created,
    modified: card.modified,
    completed_at: card.completedAt ?? null,
    blocked_by: card.blockedBy?.length ? JSON.stringify(card.blockedBy) : null,
    archived_at: card.archivedAt ?? null,
    deleted_from: card.deletedFrom ?? null,
    links: linksColumn(card),
  };
}

/**
 * The sub-card and relation fields and the column history, as one JSON object (keys only when set),
 * or null when none is: the fields added after the first schemas, which no query filters on.
 */
function linksColumn(card: Card): string | null {
  const links: Partial<Pick<Card, LinkField>> = {};
  if (card.parent) links.parent = card.parent;
  if (card.relatesTo?.length) links.relatesTo = card.relatesTo;
  if (card.duplicateOf?.length) links.duplicateOf = card.duplicateOf;
  if (card.columnHistory?.length) links.columnHistory = card.columnHistory;
  return Object.keys(links).length ? JSON.stringify(links) : null;
}

type LinkField = 'parent' | 'relatesTo' | 'duplicateOf' | 'columnHistory';

const isLinks = (v: unknown) => {
  if (!isObject(v)) return false;
  const links = v as Record<string, unknown>;
  return (
    (links.parent === undefined || typeof links.parent === 'string') &&
    (links.relatesTo === undefined || isStringList(links.relatesTo)) &&
    (links.duplicateOf === undefined || isStringList(links.duplicateOf)) &&
    (links.columnHistory === undefined || isStringList(links.columnHistory))
  );
};

function linkFields(row: CardRow): Pick<Card, LinkField> {
  const links = parseJson<Pick<Card, LinkField>>(row, 'links', isLinks, {});
  const out: Pick<Card, LinkField> = {};
  if (links.parent) out.parent = links.parent;
  if (links.relatesTo?.length) out.relatesTo = links.relatesTo;
  if (links.duplicateOf?.length) out.duplicateOf = links.duplicateOf;
  if (links.columnHistory?.length) out.columnHistory = links.columnHistory;
  return out;
}

function parseJson<T>(row: CardRow, column: CardColumn, check: (value: unknown) => boolean, fallback: T): T {
  const text = row[column];
  if (text === null || text === undefined) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CardRowError(`column ${column} is not valid JSON`);
  }
  if (!check(value)) throw new CardRowError(`column ${column} has the wrong shape`);
  return value as T;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');

function text(row: CardRow, column: CardColumn): string {
  const value = row[column];
  if (typeof value !== 'string') throw new CardRowError(`column ${column} is empty`);
  return value;
}

function optional(value: string | null): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

export function commentFromRow(row: CommentRow): Comment {
  const comment: Comment = { id: row.id, author: row.author, content: row.content, created: row.created };
  if (row.modified) comment.modified = row.modified;
  return comment;
}

/** The card a row holds, with its comments in stored order. Throws CardRowError when it cannot. */
export function rowToCard(row: CardRow, comments: Comment[]): Card {
  const priority = text(row, 'priority');
  if (!PRIORITIES.includes(priority as Priority))
    throw new CardRowError(`priority "${priority}" is not one of ${PRIORITIES.join(', ')}`);
  const actions = parseJson<Card['actions']>(row, 'actions', (v) => isStringList(v) || isObject(v), undefined);
  return {
    id: text(row, 'id'),
    boardId: text(row, 'board_id'),
    status: text(row, 'status'),
    content: row.content ?? '',
    priority: priority as Priority,
    assignee: optional(row.assignee),
    dueDate: optional(row.due_date),
    labels: parseJson(row, 'labels', isStringList, []),
    metadata: parseJson(row, 'metadata', isObject, {}),
    forms: parseJson(row, 'forms', Array.isArray, []),
    formData: parseJson(row, 'form_data', isObject, {}),
    ...(actions === undefined ? {} : { actions }),
    attachments: parseJson(row, 'attachments', isStringList, []),
    comments,
    order: row.order_key ?? '',
    created: text(row, 'created'),
    modified: row.modified ?? text(row, 'created'),
    completedAt: optional(row.completed_at),
    ...optionalColumns(row),
    ...linkFields(row),
  };
}

/** Columns that hold a value only when the card has one (absent on the card otherwise). */
function optionalColumns(row: CardRow): Pick<Card, 'blockedBy' | 'archivedAt' | 'deletedFrom'> {
  const out: Pick<Card, 'blockedBy' | 'archivedAt' | 'deletedFrom'> = {};
  const blockedBy = parseJson<string[]>(row, 'blocked_by', isStringList, []);
  if (blockedBy.length) out.blockedBy = blockedBy;
  const archivedAt = optional(row.archived_at);
  if (archivedAt) out.archivedAt = archivedAt;
  const deletedFrom = optional(row.deleted_from);
  if (deletedFrom) out.deletedFrom = deletedFrom;
  return out;
}

/** Columns whose stored value differs between two versions of a card (never `id`). */
export function changedColumns(card: Card, previous: Card): { column: CardColumn; value: string | null }[] {
  const before = cardToRow(previous);
  const after = cardToRow(card);
  return CARD_COLUMNS.filter((c) => c !== 'id' && before[c] !== after[c]).map((column) => ({
    column,
    value: after[column],
  }));
}

export interface CommentChanges {
  added: Comment[];
  changed: Comment[];
  removed: Comment[];
}

/**
 * What happened to the comment list. Writing only these rows (not the whole list) keeps comments
 * that another process added to the same card meanwhile.
 */
export function diffComments(next: Comment[], previous: Comment[]): CommentChanges {
  const before = new Map(previous.map((c) => [c.id, c]));
  const after = new Map(next.map((c) => [c.id, c]));
  const differs = (a: Comment, b: Comment) =>
    a.author !== b.author ||
    a.content !== b.content ||
    a.created !== b.created ||
    (a.modified ?? null) !== (b.modified ?? null);
  return {
    added: next.filter((c) => !before.has(c.id)),
    changed: next.filter((c) => before.has(c.id) && differs(c, before.get(c.id) as Comment)),
    removed: previous.filter((c) => !after.has(c.id)),
  };
}

/** Comment ids must be unique within a card for the row key; hand-edited files can break that. */
export function duplicateCommentId(card: Card): string | undefined {
  const seen = new Set<string>();
  for (const comment of card.comments) {
    if (seen.has(comment.id)) return comment.id;
    seen.add(comment.id);
  }
  return undefined;
}
