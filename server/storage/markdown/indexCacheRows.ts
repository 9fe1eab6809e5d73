import type { Card } from '../../core/model';

/** A card file as the index cache remembers it: its stamp when read, its text's hash and its card. */
export interface CachedFile {
  size: number;
  mtimeMs: number;
  hash: string;
  card: Card;
}

/**
 * One cached file as a JSON array: `[key, size, mtimeMs, hash, id, boardId, status, content,
 * priority, assignee, dueDate, labels, metadata, order, created, modified, completedAt, rest]`.
 * Arrays rather than objects with named fields: at 100,000 cards the cache is about 50 MB instead
 * of 70, and JSON.parse builds one array per card instead of seven keyed objects (the entry, the
 * card and its five collections, mostly empty), which was most of a restart's parse and collection
 * time. An absent optional field and an empty `labels` or `metadata` are 0; `rest` holds every
 * other field that is not empty (forms, comments, blockers and any field added later), or 0.
 */
export type CacheRow = [
  key: string,
  size: number,
  mtimeMs: number,
  hash: string,
  id: string,
  boardId: string,
  status: string,
  content: string,
  priority: string,
  assignee: string | 0,
  dueDate: string | 0,
  labels: string[] | 0,
  metadata: Record<string, unknown> | 0,
  order: string,
  created: string,
  modified: string,
  completedAt: string | 0,
  rest: Partial<Card> | 0,
];

const ROW_LENGTH = 18;

/** Fields the row holds in place; any other field of a card goes to `rest` unless it is empty. */
const IN_PLACE = new Set([
  'id',
  'boardId',
  'status',
  'content',
  'priority',
  'assignee',
  'dueDate',
  'labels',
  'metadata',
  'order',
  'created',
  'modified',
  'completedAt',
]);

/** The collections a card always has, left out of `rest` while empty. */
const ALWAYS_THERE = new Set(['forms', 'formData', 'attachments', 'comments']);

export function rowOf(key: string, entry: CachedFile): CacheRow {
  const card = entry.card;
  return [
    key,
    entry.size,
    entry.mtimeMs,
    entry.hash,
    card.id,
    card.boardId,
    card.status,
    card.content,
    card.priority,
    card.assignee ?? 0,
    card.dueDate ?? 0,
    card.labels.length ? card.labels : 0,
    isEmpty(card.metadata) ? 0 : card.metadata,
    card.order,
    card.created,
    card.modified,
    card.completedAt ?? 0,
    restOf(card),
  ];
}

function restOf(card: Card): Partial<Card> | 0 {
  let rest: Record<string, unknown> | 0 = 0;
  for (const [field, value] of Object.entries(card)) {
    if (IN_PLACE.has(field) || value === undefined) continue;
    if (ALWAYS_THERE.has(field) && isEmpty(value)) continue;
    (rest ||= {})[field] = value;
  }
  return rest as Partial<Card> | 0;
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * Strings that recur on every card (a board's id, a column, a priority) kept once: the parse made a
 * copy of each per card, which the collector then moved with the card.
 */
class Interned {
  private readonly seen = new Map<string, string>();

  of(text: string): string {
    const kept = this.seen.get(text);
    if (kept !== undefined) return kept;
    this.seen.set(text, text);
    return text;
  }
}

/** The rows of a parsed cache as entries by key; a row of the wrong shape is left out (its file is read). */
export function entriesOf(rows: unknown[], into: Map<string, CachedFile>): void {
  const interned = new Interned();
  for (const row of rows) {
    if (!isRow(row)) continue;
    into.set(row[0], { size: row[1], mtimeMs: row[2], hash: row[3], card: cardOf(row, interned) });
  }
}

function cardOf(row: CacheRow, interned: Interned): Card {
  // The same fields in the same order as a card parsed from its file, so both share one shape.
  const card: Card = {
    id: row[4],
    boardId: interned.of(row[5]),
    status: interned.of(row[6]),
    content: row[7],
    priority: interned.of(row[8]) as Card['priority'],
    assignee: row[9] === 0 ? undefined : row[9],
    dueDate: row[10] === 0 ? undefined : row[10],
    labels: row[11] === 0 ? [] : row[11],
    metadata: row[12] === 0 ? {} : row[12],
    forms: [],
    formData: {},
    actions: undefined,
    attachments: [],
    comments: [],
    order: row[13],
    created: row[14],
    modified: row[15],
    completedAt: row[16] === 0 ? undefined : row[16],
  };
  return row[17] === 0 ? card : Object.assign(card, row[17]);
}

const STRINGS_AT = [0, 3, 4, 5, 6, 7, 8, 13, 14, 15];
const OPTIONAL_STRINGS_AT = [9, 10, 16];
const OPTIONAL_OBJECTS_AT = [12, 17];

function isRow(row: unknown): row is CacheRow {
  if (!Array.isArray(row) || row.length !== ROW_LENGTH) return false;
  for (const at of STRINGS_AT) if (typeof row[at] !== 'string') return false;
  if (typeof row[1] !== 'number' || typeof row[2] !== 'number') return false;
  for (const at of OPTIONAL_STRINGS_AT) if (row[at] !== 0 && typeof row[at] !== 'string') return false;
  if (row[11] !== 0 && !Array.isArray(row[11])) return false;
  for (const at of OPTIONAL_OBJECTS_AT)
    if (row[at] !== 0 && (typeof row[at] !== 'object' || row[at] === null)) return false;
  return true;
}
