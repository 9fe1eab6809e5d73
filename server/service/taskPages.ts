import { createHash } from 'node:crypto';
import { ValidationError } from '../core/errors';
import {
  DEFAULT_SORT,
  SCORE_ORDER,
  columnRanker,
  compareKeys,
  decodeCursor,
  encodeCursor,
  sortKeyOf,
  sortName,
  type ColumnRank,
  type ListField,
  type PageInfo,
  type SortKey,
  type SortSpec,
} from '../core/listPaging';
import type { Card } from '../core/model';
import {
  isFuzzySearch,
  keepsWholeColumns,
  listedStatuses,
  selectTasks,
  type Selected,
  type TaskQuery,
} from './taskQueries';
import { selectionStamp, type BuiltAnswer } from './readCache';
import { JsonBytes, pushProjectedJson, pushTaskViewJson } from './views';
import { pushCompactTaskViewJson } from './compactViews';
import type { Workspace } from './workspace';

/** A list request beyond its filters: which page, in which order, with which fields. */
export interface ListShape {
  sort?: SortSpec;
  limit?: number;
  cursor?: string;
  fields?: ListField[];
  /** Leave out the fields that hold their empty default (core/shapes/listDefaults). */
  compact?: boolean;
}

/** The cards a query selects, in the order asked, with each one's sort key. */
interface Selection {
  stamp: string;
  items: Selected[];
  keys: SortKey[];
}

/** Selections kept per workspace: at 100,000 cards a sort costs ~100 ms, a page read after it well under 1. */
const selections = new WeakMap<Workspace, Map<string, Selection>>();
const MAX_SELECTIONS = 8;

/** The filters (and board) a cursor belongs to, as a short digest: a cursor of one query is refused by another. */
function filterDigest(boardId: string, query: TaskQuery): string {
  const { actor: _actor, ...filters } = query;
  return createHash('sha1')
    .update(JSON.stringify([boardId, filters]))
    .digest('base64url')
    .slice(0, 12);
}

function buildSelection(ws: Workspace, boardId: string, query: TaskQuery, sort: SortSpec, stamp: string): Selection {
  const items = selectTasks(ws, boardId, query);
  let keys = items.map((item) => sortKeyOf(item.card, sort, item.score));
  // Column order and fuse order already are the wanted orders; anything else is sorted here.
  if (sort.descending || (sort.field !== 'position' && sort.field !== 'score')) {
    const rank = columnRanker(ws.board(boardId).columns.map((c) => c.id));
    const order = items.map((_, i) => i).sort((a, b) => compareKeys(keys[a], keys[b], sort, rank));
    const sorted = order.map((i) => items[i]);
    keys = order.map((i) => keys[i]);
    return { stamp, items: sorted, keys };
  }
  return { stamp, items, keys };
}

function selectionOf(ws: Workspace, boardId: string, query: TaskQuery, sort: SortSpec): Selection {
  let kept = selections.get(ws);
  if (!kept) selections.set(ws, (kept = new Map()));
  const key = JSON.stringify([boardId, sortName(sort), { ...query, actor: undefined }]);
  const stamp = selectionStamp(ws);
  const held = kept.get(key);
  if (held && held.stamp === stamp) {
    kept.delete(key);
    kept.set(key, held);
    return held;
  }
  const fresh = buildSelection(ws, boardId, query, sort, stamp);
  kept.delete(key);
  kept.set(key, fresh);
  // Stale ones go, then the least recently made, until within the limit.
  for (const [name, selection] of kept) {
    if (name !== key && (selection.stamp !== stamp || kept.size > MAX_SELECTIONS)) kept.delete(name);
  }
  return fresh;
}

/** First index whose key sorts strictly after `after`. */
function startAfter(selection: Selection, after: SortKey, sort: SortSpec, ws: Workspace, boardId: string): number {
  const rank = columnRanker(ws.board(boardId).columns.map((c) => c.id));
  let low = 0;
  let high = selection.keys.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareKeys(selection.keys[mid], after, sort, rank) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The cards of one page, how many match in all, and the key the next page starts after. */
interface PageSlice {
  items: Selected[];
  total: number;
  nextAfter?: SortKey;
}

/** First index of a sorted column whose card sorts strictly after `after`. */
function columnStartAfter(column: readonly Card[], after: SortKey, rank: ColumnRank): number {
  let low = 0;
  let high = column.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareKeys(sortKeyOf(column[mid], DEFAULT_SORT), after, DEFAULT_SORT, rank) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * A page in board order of a query that keeps whole columns, read straight from the index's
 * sorted columns (which sort exactly as the position key does): no selection to build, so the
 * first page after a write costs as little as any other (a binary search and the page).
 */
function columnWalk(
  ws: Workspace,
  boardId: string,
  query: TaskQuery,
  after: SortKey | undefined,
  limit: number | undefined,
): PageSlice {
  const rank = columnRanker(ws.board(boardId).columns.map((c) => c.id));
  const statuses = listedStatuses(ws, boardId, query);
  let total = 0;
  // Counted, not sorted: a first page after a start sorts only the columns it shows.
  for (const status of statuses) total += ws.index.countIn(boardId, status);
  const wanted = limit === undefined ? Infinity : limit + 1;
  const items: Selected[] = [];
  for (const status of statuses) {
    if (items.length >= wanted) break;
    const column = ws.index.column(boardId, status);
    let start = 0;
    if (after) {
      const [group, name] = rank(status);
      const [afterGroup, afterName] = rank(String(after[0]));
      const byColumn = group - afterGroup || (name < afterName ? -1 : name > afterName ? 1 : 0);
      if (byColumn < 0) continue;
      if (byColumn === 0) start = columnStartAfter(column, after, rank);
    }
    for (let i = start; i < column.length && items.length < wanted; i++) items.push({ card: column[i], position: i });
  }
  if (items.length <= (limit ?? Infinity)) return { items, total };
  items.pop();
  return { items, total, nextAfter: sortKeyOf(items[items.length - 1].card, DEFAULT_SORT) };
}

/** A page cut from the kept selection of the query in this order. */
function selectionSlice(
  ws: Workspace,
  boardId: string,
  query: TaskQuery,
  sort: SortSpec,
  after: SortKey | undefined,
  limit: number | undefined,
): PageSlice {
  const selection = selectionOf(ws, boardId, query, sort);
  const start = after === undefined ? 0 : startAfter(selection, after, sort, ws, boardId);
  const end = limit === undefined ? selection.items.length : Math.min(selection.items.length, start + limit);
  const slice: PageSlice = { items: selection.items.slice(start, end), total: selection.items.length };
  if (end < selection.items.length && end > start) slice.nextAfter = selection.keys[end - 1];
  return slice;
}

/** The order a list is in: fuzzy searches by score (no `sort` then), others as asked. */
export function listOrder(query: TaskQuery, sort: SortSpec | undefined): SortSpec {
  if (!isFuzzySearch(query)) return sort ?? DEFAULT_SORT;
  if (sort)
    throw new ValidationError(
      'sort cannot be combined with a fuzzy search (fuzzy=true with q): its results are ordered by score; drop one of them',
    );
  return SCORE_ORDER;
}

/**
 * The answer `{"ok":true,"data":[...]}` for a page of a list, and what it tells about the page.
 * Keyset paging: the page starts after the cursor's key and its last card's key makes the next
 * cursor. A fuzzy search pages the same way on (score, id): a card's score depends on the card and
 * the search text only, so it stays put while other cards change.
 */
export function listPage(
  ws: Workspace,
  boardId: string,
  query: TaskQuery,
  shape: ListShape,
): BuiltAnswer & { page: PageInfo } {
  const sort = listOrder(query, shape.sort);
  const digest = filterDigest(boardId, query);
  const after = shape.cursor === undefined ? undefined : decodeCursor(shape.cursor, sort, digest);
  const inBoardOrder = sort.field === 'position' && !sort.descending && keepsWholeColumns(query);
  const slice = inBoardOrder
    ? columnWalk(ws, boardId, query, after, shape.limit)
    : selectionSlice(ws, boardId, query, sort, after, shape.limit);
  const actor = query.actor ?? 'default';
  const pushWhole = shape.compact ? pushCompactTaskViewJson : pushTaskViewJson;
  const out = new JsonBytes();
  out.push('{"ok":true,"data":[');
  slice.items.forEach((item, i) => {
    if (i > 0) out.push(',', 1);
    if (shape.fields) pushProjectedJson(out, ws, item.card, shape.fields, item.position, actor);
    else pushWhole(out, ws, item.card, item.position ?? ws.index.positionOf(item.card), actor);
  });
  out.push(']}');
  const page: PageInfo = { total: slice.total };
  if (slice.nextAfter) page.nextCursor = encodeCursor(sort, digest, slice.nextAfter);
  return { body: out.toBuffer(), page };
}
