import { StateRuleError, NotFoundError, PreconditionFailedError, ValidationError, WipLimitError } from '../core/errors';
import { isArchived, placeOf } from '../core/cardPlace';
import type { BoardConfig, Card } from '../core/model';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import { restoreTarget } from './archive';
import { resolveCard } from './taskQueries';
import { checkLabelName, checkPriority } from './validate';
import type { Workspace } from './workspace';
import { BULK_MAX, type BulkBody, type BulkChange } from '../core/shapes/requests/bulk';

/**
 * Bulk edits, part one: read a request and check all of it before anything is written, so a bad id
 * or a refused change leaves every card as it was. Part two (bulk.ts) applies the plan.
 */

/** Checked against its route's schema: ids with one change, or per-card changes. */
export type BulkRequest = BulkBody;
export type { BulkChange };

export type BulkKind = 'move' | 'priority' | 'assignee' | 'labels' | 'archive' | 'delete' | 'restore';

export interface BulkItem {
  card: Card;
  change: BulkChange;
}

export interface BulkPlan {
  kind: BulkKind;
  items: BulkItem[];
  /** Form `ids` + `change` with a move: the cards land as one block from the first one's position. */
  block: boolean;
}

export { BULK_MAX };

const KIND_KEYS: Record<BulkKind, (keyof BulkChange)[]> = {
  move: ['status', 'position'],
  priority: ['priority'],
  assignee: ['assignee'],
  labels: ['labels'],
  archive: ['archive'],
  delete: ['delete'],
  restore: ['restore'],
};

/** A restore may name where the card goes, with the keys a move uses for that. */
const RESTORE_PLACE_KEYS: (keyof BulkChange)[] = ['status', 'position'];

function kindOf(change: BulkChange, where: string): BulkKind {
  const keys = Object.keys(change).filter((key) => key !== 'id') as (keyof BulkChange)[];
  if (keys.includes('restore')) {
    const others = keys.filter((key) => key !== 'restore' && !RESTORE_PLACE_KEYS.includes(key));
    if (others.length)
      throw new ValidationError(
        `${where}: restore goes alone, or with status and position (where the card goes); it holds ${others.join(', ')} too`,
      );
    return 'restore';
  }
  const kinds = (Object.keys(KIND_KEYS) as BulkKind[]).filter((kind) =>
    KIND_KEYS[kind].some((key) => keys.includes(key)),
  );
  if (kinds.length !== 1) {
    throw new ValidationError(
      `${where} must hold exactly one kind of change (status with an optional position, priority, assignee, labels, archive or delete); it holds ${kinds.length ? kinds.join(' and ') : 'none'}`,
    );
  }
  if (kinds[0] === 'move' && change.status === undefined)
    throw new ValidationError(`${where}: position goes with status (the column to move to)`);
  return kinds[0];
}

/** The request as a list of (id, change) of one kind, in the order given. */
function itemsOf(request: BulkRequest): {
  kind: BulkKind;
  entries: { idish: string; change: BulkChange }[];
  block: boolean;
} {
  const perCard = request.changes !== undefined;
  if (perCard === (request.ids !== undefined || request.change !== undefined)) {
    throw new ValidationError(
      'send either "ids" with one "change" for all of them, or "changes" (one entry per card: {id, ...change}), not both',
    );
  }
  if (!perCard && (request.ids === undefined || request.change === undefined))
    throw new ValidationError('"ids" and "change" go together: the cards, and the one change to apply to each');
  const entries = perCard
    ? request.changes!.map(({ id, ...change }) => ({ idish: id, change }))
    : request.ids!.map((idish) => ({ idish, change: request.change! }));
  if (entries.length === 0)
    throw new ValidationError('no cards named: "ids" (or "changes") must list at least one card');
  if (entries.length > BULK_MAX)
    throw new ValidationError(`at most ${BULK_MAX} cards per bulk request (got ${entries.length}); split it`);
  const kinds = new Set(entries.map((e, i) => kindOf(e.change, perCard ? `changes[${i}]` : 'change')));
  if (kinds.size > 1)
    throw new ValidationError(
      `every entry of "changes" must be the same kind of change; got ${[...kinds].join(', ')}: send one request per kind`,
    );
  const [kind] = kinds;
  return { kind, entries, block: !perCard && kind === 'move' };
}

/** Resolve every id, naming all that fail at once (404 when any is unknown). */
function resolveAll(ws: Workspace, boardId: string, idishes: string[]): Card[] {
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  const cards: Card[] = [];
  for (const idish of idishes) {
    try {
      cards.push(resolveCard(ws, boardId, idish));
    } catch (error) {
      if (error instanceof NotFoundError) unknown.push(idish);
      else if (error instanceof StateRuleError) ambiguous.push(error.message);
      else throw error;
    }
  }
  if (unknown.length)
    throw new NotFoundError(
      `no card ${unknown.map((id) => `"${id}"`).join(', ')} on board "${boardId}"; nothing was changed`,
    );
  if (ambiguous.length) throw new ValidationError(`${ambiguous.join('; ')}; nothing was changed`);
  const seen = new Set<string>();
  const twice = cards.filter((card) => (seen.has(card.id) ? true : (seen.add(card.id), false)));
  if (twice.length)
    throw new ValidationError(
      `card ${[...new Set(twice.map((c) => `"${c.id}"`))].join(', ')} is named more than once; name each card once`,
    );
  return cards;
}

function checkColumn(board: BoardConfig, status: string): void {
  if (status === DELETED_STATUS || board.columns.some((c) => c.id === status)) return;
  throw new ValidationError(
    `status "${status}" is not a column of board "${board.id}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
  );
}

/**
 * Under the `block` policy the whole request is refused when the cards entering a column would take
 * it over its limit: checked here for all of them together, as one card at a time would let the
 * first ones in and refuse a later one half way.
 */
function checkWipForAll(
  ws: Workspace,
  board: BoardConfig,
  items: BulkItem[],
  targetOf: (item: BulkItem) => string,
): void {
  if ((board.wipPolicy ?? 'warn') !== 'block') return;
  const entering = new Map<string, number>();
  for (const item of items) {
    const { card } = item;
    const status = targetOf(item);
    if (card.status === status && !isArchived(card) && card.boardId === board.id) continue;
    entering.set(status, (entering.get(status) ?? 0) + 1);
  }
  for (const [status, count] of entering) {
    const column = board.columns.find((c) => c.id === status);
    if (!column?.wipLimit) continue;
    const before = ws.index.countIn(board.id, status);
    if (before + count > column.wipLimit) {
      throw new WipLimitError(
        `column ${column.name} ("${column.id}") holds ${before} of its WIP limit ${column.wipLimit} on board "${board.id}", whose wipPolicy is block: ` +
          `${count} more card(s) would take it over; nothing was changed. Move fewer cards, raise the limit, or set wipPolicy to "warn"`,
      );
    }
  }
}

function checkChange(kind: BulkKind, items: BulkItem[], board: BoardConfig): void {
  for (const { card, change } of items) {
    if (kind === 'move') checkColumn(board, change.status as string);
    if (kind === 'priority') checkPriority(change.priority as string);
    if (kind === 'labels') {
      const { set, add, remove } = change.labels ?? {};
      if (set !== undefined && (add !== undefined || remove !== undefined))
        throw new ValidationError('labels: send "set" (the whole list), or "add" and/or "remove", not both');
      if (set === undefined && add === undefined && remove === undefined)
        throw new ValidationError('labels: send "set", "add" or "remove"');
      for (const name of [...(set ?? []), ...(add ?? []), ...(remove ?? [])]) checkLabelName(name);
    }
    if (kind === 'archive' && card.status === DELETED_STATUS)
      throw new ValidationError(`card "${card.id}" is deleted; restore it before archiving it. Nothing was changed`);
    if (kind === 'restore') checkRestorable(card, change, board);
  }
}

function checkRestorable(card: Card, change: BulkChange, board: BoardConfig): void {
  if (!isArchived(card) && card.status !== DELETED_STATUS) {
    throw new ValidationError(
      `card "${card.id}" is neither archived nor deleted (it is in ${card.status}); nothing to restore. Nothing was changed`,
    );
  }
  if (
    change.status !== undefined &&
    (change.status === DELETED_STATUS || !board.columns.some((c) => c.id === change.status))
  ) {
    throw new ValidationError(
      `status "${change.status}" is not a column of board "${board.id}" (columns: ${board.columns.map((c) => c.id).join(', ')})`,
    );
  }
}

/** Check a bulk request in full; throws (and writes nothing) at the first kind of problem found. */
export function planBulk(
  ws: Workspace,
  boardId: string,
  request: BulkRequest,
  versionOf: (card: Card) => string,
): BulkPlan {
  const board = ws.board(boardId);
  const { kind, entries, block } = itemsOf(request);
  const cards = resolveAll(
    ws,
    boardId,
    entries.map((e) => e.idish),
  );
  const items = cards.map((card, i) => ({ card, change: entries[i].change }));
  checkChange(kind, items, board);
  if (kind === 'move') checkWipForAll(ws, board, items, (item) => item.change.status as string);
  if (kind === 'restore')
    checkWipForAll(ws, board, items, (item) => restoreTarget(ws, board, item.card, item.change.status));
  checkVersions(ws, boardId, cards, request.versions ?? {}, versionOf);
  return { kind, items, block };
}

function checkVersions(
  ws: Workspace,
  boardId: string,
  cards: Card[],
  versions: Record<string, string>,
  versionOf: (card: Card) => string,
): void {
  const stale: string[] = [];
  for (const [idish, etag] of Object.entries(versions)) {
    const card = resolveCard(ws, boardId, idish);
    if (!cards.some((c) => c.id === card.id))
      throw new ValidationError(`versions names card "${card.id}", which is not among the cards to change`);
    const current = versionOf(card);
    if (etag.replace(/^W\//, '') !== current) stale.push(`"${card.id}" (now ${current})`);
  }
  if (stale.length) {
    throw new PreconditionFailedError(
      `card ${stale.join(', ')} changed since you read it; nothing was written. Read the cards again, then apply your change to the newer versions`,
    );
  }
}

/** Where a card sits now, for the block placement of a bulk move. */
export function placeIn(card: Card, status: string): boolean {
  return placeOf(card) === status;
}
