import { ValidationError } from './errors';
import { titleOf, type Card } from './model';
import { ARCHIVED_STATUS, DELETED_STATUS, PRIORITIES } from './shapes/vocabulary';
import { placeOf } from './cardPlace';

/**
 * Paging, sorting and projection of task lists: the parts that need no workspace. A page ends at a
 * card; the cursor holds that card's sort key (not its index in the list), so the next page starts
 * strictly after the key, wherever the list has grown or shrunk in between (keyset paging).
 */

export const SORT_FIELDS = ['position', 'created', 'modified', 'due', 'priority', 'title'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** Every accepted `sort` value: each field, and each with a leading `-` for descending. */
export const SORT_VALUES: readonly string[] = SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

export interface SortSpec {
  /** `score` is the order of a fuzzy search, which takes no `sort`. */
  field: SortField | 'score';
  descending: boolean;
}

export const DEFAULT_SORT: SortSpec = { field: 'position', descending: false };
export const SCORE_ORDER: SortSpec = { field: 'score', descending: false };

export function parseSort(text: string | undefined): SortSpec {
  if (text === undefined) return DEFAULT_SORT;
  const descending = text.startsWith('-');
  const field = (descending ? text.slice(1) : text) as SortField;
  if (!SORT_FIELDS.includes(field))
    throw new ValidationError(
      `sort "${text}" is not known; use one of ${SORT_FIELDS.join(', ')} (a leading - sorts descending)`,
    );
  return { field, descending };
}

export function sortName(sort: SortSpec): string {
  return `${sort.descending ? '-' : ''}${sort.field}`;
}

/** Fields of the task read model a list entry can carry (comments are only on single GETs). */
export const LIST_FIELDS = [
  'id',
  'boardId',
  'title',
  'content',
  'status',
  'priority',
  'assignee',
  'dueDate',
  'labels',
  'metadata',
  'forms',
  'formData',
  'actions',
  'attachments',
  'commentCount',
  'created',
  'modified',
  'completedAt',
  'checklist',
  'blockedBy',
  'parent',
  'relatesTo',
  'duplicateOf',
  'archivedAt',
  'position',
  'cardState',
  'blocks',
  'blocked',
  'openBlockers',
  'children',
  'related',
  'duplicates',
  'claim',
  'session',
  'filePath',
] as const;
export type ListField = (typeof LIST_FIELDS)[number];

/** `fields=a,b`: known read-model fields, in read-model order, always with `id`. */
export function parseFields(text: string | undefined): ListField[] | undefined {
  if (text === undefined) return undefined;
  const asked = new Set(
    text
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
  for (const name of asked) {
    if (!(LIST_FIELDS as readonly string[]).includes(name))
      throw new ValidationError(`unknown field "${name}" in fields; valid fields: ${LIST_FIELDS.join(', ')}`);
  }
  return LIST_FIELDS.filter((field) => field === 'id' || asked.has(field));
}

/** The values a card sorts by, last the id: unique per card, so the order is total. */
export type SortKey = (string | number | null)[];

export const LIMIT_MAX = 1000;

/** What a list answer tells about its page, beside the data: for headers and in-process hosts. */
export interface PageInfo {
  /** How many cards match the query (all pages). */
  total: number;
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string;
}

/** Ranks past any real priority, for a hand-edited file with an unknown one. */
const UNKNOWN_PRIORITY = PRIORITIES.length;

/**
 * The sort key of a card. For `position` it is the column and the fractional `order` key (then
 * created, id: how the index sorts a column), never the zero-based position: a card created or
 * moved in above shifts every position below it, while fractional keys of cards that stay in place
 * never change (a move writes only the moved card's key; see core/ordering.ts). So a cursor keeps
 * its place among cards that were not touched. (A column whose hand-edited keys must be re-spread
 * on a move is the one exception: tasks.ts re-keys it, which counts as touching those cards.)
 */
export function sortKeyOf(card: Card, sort: SortSpec, score?: number): SortKey {
  switch (sort.field) {
    case 'position':
      return [placeOf(card), card.order, card.created, card.id];
    case 'created':
      return [card.created, card.id];
    case 'modified':
      return [card.modified, card.id];
    case 'due':
      return [card.dueDate ?? null, card.id];
    case 'priority': {
      const rank = PRIORITIES.indexOf(card.priority);
      return [rank === -1 ? UNKNOWN_PRIORITY : rank, card.id];
    }
    case 'title':
      return [titleOf(card.content).toLowerCase(), card.id];
    case 'score':
      return [score ?? 1, card.id];
  }
}

/** Column ids in board order; other statuses (hand-made folders) after them by name, then deleted, then the archive. */
export type ColumnRank = (status: string) => [number, number | string];

export function columnRanker(columnIds: string[]): ColumnRank {
  const ranks = new Map(columnIds.map((id, i) => [id, i]));
  return (status) => {
    if (status === DELETED_STATUS) return [2, 0];
    if (status === ARCHIVED_STATUS) return [3, 0];
    const rank = ranks.get(status);
    return rank === undefined ? [1, status] : [0, rank];
  };
}

function compareScalars(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Compare two sort keys. Missing values (no due date, an order key lost in a hand edit) come last
 * in both directions; everything else, ties on the id included, reverses with `-`.
 */
export function compareKeys(a: SortKey, b: SortKey, sort: SortSpec, rank: ColumnRank): number {
  const direction = sort.descending ? -1 : 1;
  for (let i = 0; i < a.length; i++) {
    let x = a[i];
    let y = b[i];
    if (sort.field === 'position' && i === 0) {
      const [gx, nx] = rank(x as string);
      const [gy, ny] = rank(y as string);
      const byColumn = gx - gy || compareScalars(nx, ny);
      if (byColumn !== 0) return byColumn * direction;
      continue;
    }
    if (sort.field === 'position' && i === 1) {
      x = x === '' ? null : x;
      y = y === '' ? null : y;
    }
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const order = compareScalars(x, y);
    if (order !== 0) return order * direction;
  }
  return 0;
}

/** What a cursor holds: the sort it belongs to, a digest of the board and filters, the last key. */
interface CursorBody {
  s: string;
  f: string;
  k: SortKey;
}

const CURSOR_HELP = 'start again without cursor';

export function encodeCursor(sort: SortSpec, filterDigest: string, key: SortKey): string {
  const body: CursorBody = { s: sortName(sort), f: filterDigest, k: key };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const KEY_LENGTHS: Record<SortSpec['field'], number> = {
  position: 4,
  created: 2,
  modified: 2,
  due: 2,
  priority: 2,
  title: 2,
  score: 2,
};

/** The key a cursor ends at, after checking it was made for this sort and these filters. */
export function decodeCursor(cursor: string, sort: SortSpec, filterDigest: string): SortKey {
  let body: Partial<CursorBody> | null = null;
  try {
    if (/^[A-Za-z0-9_-]+$/.test(cursor)) body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    body = null;
  }
  const key = body?.k;
  const wellFormed =
    typeof body === 'object' &&
    body !== null &&
    typeof body.s === 'string' &&
    typeof body.f === 'string' &&
    Array.isArray(key) &&
    key.every((v) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  if (!wellFormed || !body || !key)
    throw new ValidationError(`cursor is not one a list answer gave out; ${CURSOR_HELP}`);
  if (body.s !== sortName(sort)) {
    throw new ValidationError(
      `cursor belongs to sort=${body.s}, not sort=${sortName(sort)}; page with the sort of the first page, or ${CURSOR_HELP}`,
    );
  }
  if (body.f !== filterDigest)
    throw new ValidationError(
      `cursor belongs to another board or other filters; page with the query of the first page, or ${CURSOR_HELP}`,
    );
  if (key.length !== KEY_LENGTHS[sort.field] || typeof key[key.length - 1] !== 'string')
    throw new ValidationError(`cursor is not one a list answer gave out; ${CURSOR_HELP}`);
  return key;
}
