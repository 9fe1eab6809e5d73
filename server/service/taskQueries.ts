import { StateRuleError, NotFoundError } from '../core/errors';
import type { Card, TaskView } from '../core/model';
import { ARCHIVED_STATUS, DELETED_STATUS, PRIORITIES, type Priority } from '../core/shapes/vocabulary';
import { isFullCardId } from '../core/ids';
import { placeOf } from '../core/cardPlace';
import { exactTextMatch, metaMatches, parseQuery, type MetaFilter } from '../core/search';
import { dueMatches, type DueFilter } from '../core/dueDates';
import { JsonBytes, pushTaskViewJson, taskView } from './views';
import { pushCompactTaskViewJson } from './compactViews';
import type { Workspace } from './workspace';
import type { BuiltAnswer } from './readCache';
import { isReady, resolveIdAmong } from './dependencies';

/**
 * Find a card on a board by exact id, else unique prefix, else unique substring. A whole id
 * (`<slug>-YYYY-MM-DD[-N]`) is matched exactly only.
 */
export function resolveCard(ws: Workspace, boardId: string, idish: string): Card {
  ws.board(boardId);
  const exact = ws.index.get(boardId, idish);
  if (exact) return exact;
  if (isFullCardId(idish))
    throw new NotFoundError(`no card "${idish}" on board "${boardId}"${elsewhereHint(ws, boardId, idish)}`);
  const cards = [...ws.index.cardsOf(boardId)];
  for (const matches of [cards.filter((c) => c.id.startsWith(idish)), cards.filter((c) => c.id.includes(idish))]) {
    if (matches.length === 1) return matches[0];
    if (matches.length > 1) {
      const names = matches
        .slice(0, 10)
        .map((c) => c.id)
        .join(', ');
      throw new StateRuleError(
        `"${idish}" matches ${matches.length} cards on board "${boardId}" (${names}${matches.length > 10 ? ', ...' : ''}); give more of the id`,
      );
    }
  }
  throw new NotFoundError(`no card matching "${idish}" on board "${boardId}"${elsewhereHint(ws, boardId, idish)}`);
}

/**
 * Where an id that matched nothing on one board lives instead, said so the caller can go there
 * (a card transferred away is the usual case). Only the failing path pays for the scan of the
 * other boards; the same rules as on the board asked apply (exact, else prefix, else substring).
 */
function elsewhereHint(ws: Workspace, boardId: string, idish: string): string {
  const exact = ws.index.findById(idish);
  if (exact && exact.boardId !== boardId) return `; it is on board "${exact.boardId}" (add --board ${exact.boardId})`;
  if (isFullCardId(idish)) return '';
  const others = ws.config.boards.filter((b) => b.id !== boardId).map((b) => [...ws.index.cardsOf(b.id)]);
  for (const test of [(c: Card) => c.id.startsWith(idish), (c: Card) => c.id.includes(idish)]) {
    const matches = others.flatMap((cards) => cards.filter(test));
    if (matches.length === 1)
      return `; card "${matches[0].id}" is on board "${matches[0].boardId}" (add --board ${matches[0].boardId})`;
    const boards = [...new Set(matches.map((c) => c.boardId))];
    if (boards.length === 1)
      return `; ${matches.length} cards matching it are on board "${boards[0]}" (add --board ${boards[0]})`;
    if (boards.length > 1)
      return `; cards matching it are on boards ${boards.map((b) => `"${b}"`).join(', ')} (add --board <id>)`;
  }
  return '';
}

export interface TaskQuery {
  q?: string;
  fuzzy?: boolean;
  status?: string;
  priority?: Priority;
  assignee?: string;
  label?: string;
  labelGroup?: string;
  includeDeleted?: boolean;
  /** true: only cards nothing blocks that are not in the last column; false: only the others. */
  ready?: boolean;
  /** Also list archived cards (after the columns and the deleted ones). */
  includeArchived?: boolean;
  /** `only`: list archived cards alone. */
  archived?: 'only';
  meta?: MetaFilter[];
  /** true: only cards an agent holds under a running lease; false: only free ones. */
  claimed?: boolean;
  /** Only cards this agent holds under a running lease. */
  claimedBy?: string;
  /** Only cards this agent holds under a running lease or shows a session on (stale or not). */
  byAgent?: string;
  /** Due-date window and bounds, with the day they were asked on (see core/dueDates.ts). */
  due?: DueFilter;
  /** Only the sub-cards of this card (a partial id is resolved on the board). */
  parent?: string;
  /** true: only cards without a parent; false: only sub-cards. */
  topLevel?: boolean;
  /** Whose card state the views carry. */
  actor?: string;
}

/** Board columns in order, then statuses that only exist in files (hand-made folders), then deleted. */
export function statusOrder(ws: Workspace, boardId: string, includeDeleted: boolean): string[] {
  const columns = ws.board(boardId).columns.map((c) => c.id);
  const known = new Set([...columns, DELETED_STATUS, ARCHIVED_STATUS]);
  const strays = [...ws.index.statusesOf(boardId)].filter((s) => !known.has(s)).sort();
  return [...columns, ...strays, ...(includeDeleted ? [DELETED_STATUS] : [])];
}

/** Whether a query lists the archive, and whether only the archive. */
function archiveScope(query: TaskQuery): 'none' | 'also' | 'only' {
  if (query.archived === 'only' || query.status === ARCHIVED_STATUS) return 'only';
  return query.includeArchived === true ? 'also' : 'none';
}

/**
 * The columns (statuses) a query lists, in list order; `archived` stands for the archive, whose
 * cards a `status` filter picks by the status they keep.
 */
export function listedStatuses(ws: Workspace, boardId: string, query: TaskQuery): string[] {
  const scope = archiveScope(query);
  if (scope === 'only') return [ARCHIVED_STATUS];
  const includeDeleted = query.includeDeleted === true || query.status === DELETED_STATUS;
  const columns = statusOrder(ws, boardId, includeDeleted).filter(
    (s) => query.status === undefined || s === query.status,
  );
  return scope === 'also' ? [...columns, ARCHIVED_STATUS] : columns;
}

/** The status filter as it applies to archived cards (which keep their status). */
function archivedStatusFilter(query: TaskQuery): string | undefined {
  return query.status === undefined || query.status === ARCHIVED_STATUS ? undefined : query.status;
}

/** Whether the query keeps every card of the columns it lists (no text, metadata, priority, assignee or label filter). */
export function keepsWholeColumns(query: TaskQuery): boolean {
  const parsed = parseQuery(query.q ?? '');
  const archiveByStatus = archiveScope(query) !== 'none' && archivedStatusFilter(query) !== undefined;
  return (
    !archiveByStatus &&
    parsed.text === '' &&
    parsed.meta.length === 0 &&
    !query.meta?.length &&
    query.priority === undefined &&
    query.assignee === undefined &&
    query.label === undefined &&
    query.labelGroup === undefined &&
    query.ready === undefined &&
    query.due === undefined &&
    query.claimed === undefined &&
    query.claimedBy === undefined &&
    query.byAgent === undefined &&
    query.parent === undefined &&
    query.topLevel === undefined
  );
}

function filterPredicate(ws: Workspace, boardId: string, query: TaskQuery, fuzzy: boolean, metaFilters: MetaFilter[]) {
  const due = query.due;
  const lastColumn = ws.board(boardId).columns.at(-1)?.id;
  const assignee = query.assignee?.toLowerCase();
  const label = query.label?.toLowerCase();
  const groupLabels = query.labelGroup === undefined ? null : labelsInGroup(ws, query.labelGroup);
  const archivedStatus = archivedStatusFilter(query);
  const parent =
    query.parent === undefined
      ? undefined
      : resolveIdAmong([...ws.index.cardsOf(boardId)], query.parent, 'parent', `on board "${boardId}"`);
  return (card: Card): boolean => {
    if (parent !== undefined && card.parent !== parent) return false;
    if (query.topLevel !== undefined && (card.parent === undefined) !== query.topLevel) return false;
    if (archivedStatus !== undefined && card.status !== archivedStatus) return false;
    if (query.priority && card.priority !== query.priority) return false;
    if (assignee !== undefined && (card.assignee ?? '').toLowerCase() !== assignee) return false;
    if (label !== undefined && !card.labels.some((l) => l.toLowerCase() === label)) return false;
    if (groupLabels && !card.labels.some((l) => groupLabels.has(l))) return false;
    if (query.ready !== undefined && isReady(ws, card) !== query.ready) return false;
    if (due && !dueMatches(due, card.dueDate, card.status === lastColumn)) return false;
    if (!claimMatches(ws, card, query)) return false;
    return metaFilters.every((f) => metaMatches(card, f, fuzzy));
  };
}

/** The claim filters; claims change without their card, so list caches key on the claims' version too. */
function claimMatches(ws: Workspace, card: Card, query: TaskQuery): boolean {
  if (query.claimed === undefined && query.claimedBy === undefined && query.byAgent === undefined) return true;
  const claim = ws.claims.of(card.boardId, card.id);
  if (query.claimed !== undefined && (claim !== null) !== query.claimed) return false;
  if (query.claimedBy !== undefined && claim?.agent !== query.claimedBy) return false;
  // A person asks "what is this agent doing": a card it reported on counts after its lease ran out.
  return (
    query.byAgent === undefined ||
    claim?.agent === query.byAgent ||
    ws.claims.sessionOf(card.boardId, card.id)?.agent === query.byAgent
  );
}

function labelsInGroup(ws: Workspace, group: string): Set<string> {
  const wanted = group.toLowerCase();
  return new Set(
    Object.entries(ws.config.labels)
      .filter(([, d]) => d.group?.toLowerCase() === wanted)
      .map(([name]) => name),
  );
}

/** A card a list answers with, its place in its column when already known, its fuzzy score. */
export interface Selected {
  card: Card;
  position?: number;
  score?: number;
}

/** Whether the query is a fuzzy search, whose answer is ordered by score rather than by column. */
export function isFuzzySearch(query: TaskQuery): boolean {
  return query.fuzzy === true && parseQuery(query.q ?? '').text !== '';
}

/**
 * The cards a list query answers with, in answer order: column order, or for a fuzzy search by
 * score, equal scores by id (a total order, so a page cursor can hold a score and an id).
 */
export function selectTasks(ws: Workspace, boardId: string, query: TaskQuery): Selected[] {
  if (query.priority && !PRIORITIES.includes(query.priority)) return [];
  const parsed = parseQuery(query.q ?? '');
  const metaFilters = [...(query.meta ?? []), ...parsed.meta];
  const fuzzy = query.fuzzy === true;
  const keep = filterPredicate(ws, boardId, query, fuzzy, metaFilters);
  const statuses = listedStatuses(ws, boardId, query);

  if (fuzzy && parsed.text !== '') {
    const allowed = new Set(statuses);
    return ws.index
      .fuzzyIndex(boardId)
      .searchCards(parsed.text)
      .filter((hit) => allowed.has(placeOf(hit.card)) && keep(hit.card))
      .sort((a, b) => a.score - b.score || (a.card.id < b.card.id ? -1 : a.card.id > b.card.id ? 1 : 0));
  }
  const selected: Selected[] = [];
  for (const status of statuses) {
    ws.index.column(boardId, status).forEach((card, position) => {
      if (keep(card) && exactTextMatch(card, parsed.text)) selected.push({ card, position });
    });
  }
  return selected;
}

export function listTasks(ws: Workspace, boardId: string, query: TaskQuery): TaskView[] {
  return selectTasks(ws, boardId, query).map(({ card, position }) =>
    taskView(ws, card, { position, actor: query.actor }),
  );
}

/**
 * The HTTP answer `{"ok":true,"data":<listTasks(...)>}` as UTF-8 bytes, byte for byte what
 * JSON.stringify would give, assembled from per-card JSON kept between reads; `compact` leaves out
 * each field that holds its empty default (core/shapes/listDefaults).
 */
export function listTasksEnvelope(ws: Workspace, boardId: string, query: TaskQuery, compact = false): BuiltAnswer {
  const actor = query.actor ?? 'default';
  const push = compact ? pushCompactTaskViewJson : pushTaskViewJson;
  const out = new JsonBytes();
  out.push('{"ok":true,"data":[');
  const selected = selectTasks(ws, boardId, query);
  selected.forEach(({ card, position }, i) => {
    if (i > 0) out.push(',', 1);
    push(out, ws, card, position ?? ws.index.positionOf(card), actor);
  });
  out.push(']}');
  return { body: out.toBuffer(), page: { total: selected.length } };
}
