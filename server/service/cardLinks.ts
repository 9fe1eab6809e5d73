import { ValidationError } from '../core/errors';
import type { Card } from '../core/model';
import { DELETED_STATUS } from '../core/shapes/vocabulary';
import { isFinished, resolveIdAmong, resolveWorkspaceCardId } from './dependencies';
import type { WorkspaceState } from './workspaceState';

/**
 * Sub-cards and relations beside `blockedBy`. `parent` names a card of the same board; `relatesTo`
 * and `duplicateOf` name cards of any board. Partial ids are resolved when written (as `blockedBy`
 * is), so the stored card always names whole ids; the reverse views (`children`, `related`,
 * `duplicates`) come from the index on each read.
 */

/** The request fields these rules cover: null (or "" / []) clears. */
export interface LinkFields {
  parent?: string | null;
  relatesTo?: string[] | null;
  duplicateOf?: string[] | null;
}

/** Walk up the parents from `from`; the chain back to `target` when it is reached (a cycle once linked). */
function parentChainTo(ws: WorkspaceState, from: string, target: string): string[] | null {
  const chain: string[] = [];
  const seen = new Set<string>();
  for (let id: string | undefined = from; id !== undefined && !seen.has(id); id = ws.index.findById(id)?.parent) {
    chain.push(id);
    if (id === target) return chain;
    seen.add(id);
  }
  return null;
}

/** The parent to store for card `cardId` (undefined while it is being created) on `boardId`. */
export function resolveParent(
  ws: WorkspaceState,
  boardId: string,
  cardId: string | undefined,
  idish: string | null,
): string | undefined {
  if (idish === null || idish.trim() === '') return undefined;
  const parent = resolveIdAmong([...ws.index.cardsOf(boardId)], idish, 'parent', `on board "${boardId}"`);
  if (cardId === undefined) return parent;
  if (parent === cardId) throw new ValidationError(`parent: a card cannot be its own parent ("${cardId}")`);
  const cycle = parentChainTo(ws, parent, cardId);
  if (cycle)
    throw new ValidationError(
      `parent: "${parent}" would make a cycle: ${[cardId, ...cycle].join(' is a sub-card of ')}`,
    );
  return parent;
}

/** A list of related ids to store: whole ids, without repeats or the card itself; undefined when empty. */
function resolveLinkList(
  ws: WorkspaceState,
  field: 'relatesTo' | 'duplicateOf',
  cardId: string | undefined,
  ids: readonly string[] | null,
): string[] | undefined {
  const resolved = [...new Set((ids ?? []).map((id) => resolveWorkspaceCardId(ws, id, field)))];
  if (cardId !== undefined && resolved.includes(cardId))
    throw new ValidationError(`${field}: a card cannot name itself ("${cardId}")`);
  if (field === 'duplicateOf' && cardId !== undefined) {
    const mutual = resolved.find((id) => ws.index.findById(id)?.duplicateOf?.includes(cardId));
    if (mutual)
      throw new ValidationError(
        `duplicateOf: "${mutual}" is already a duplicate of "${cardId}"; one must be the original`,
      );
  }
  return resolved.length === 0 ? undefined : resolved;
}

/** `card` with the link fields of the request applied (only those sent). */
export function withLinkFields(ws: WorkspaceState, card: Card, fields: LinkFields, isNew: boolean): Card {
  const cardId = isNew ? undefined : card.id;
  const next = { ...card };
  if (fields.parent !== undefined) next.parent = resolveParent(ws, card.boardId, cardId, fields.parent);
  if (fields.relatesTo !== undefined) next.relatesTo = resolveLinkList(ws, 'relatesTo', cardId, fields.relatesTo);
  if (fields.duplicateOf !== undefined)
    next.duplicateOf = resolveLinkList(ws, 'duplicateOf', cardId, fields.duplicateOf);
  return next;
}

/** The sub-cards of a card that count (soft-deleted ones are in the bin, not part of the work). */
export function childrenOf(ws: WorkspaceState, id: string): Card[] {
  return ws.index.linkedFrom('parent', id).flatMap((childId) => {
    const child = ws.index.findById(childId);
    return child && child.status !== DELETED_STATUS && child.parent === id ? [child] : [];
  });
}

export interface ChildCount {
  total: number;
  done: number;
}

const NO_CHILDREN: ChildCount = Object.freeze({ total: 0, done: 0 }) as ChildCount;

/** How many sub-cards the card has, and how many are done (in the last column of their board, or archived). */
export function childCount(ws: WorkspaceState, id: string): ChildCount {
  if (ws.index.linkedFrom('parent', id).length === 0) return NO_CHILDREN;
  const children = childrenOf(ws, id);
  return { total: children.length, done: children.filter((c) => isFinished(ws, c)).length };
}

/** Every card related to this one either way: those it names first, then those naming it. */
export function relatedOf(ws: WorkspaceState, card: Card): string[] {
  const own = card.relatesTo ?? [];
  const others = ws.index.linkedFrom('relatesTo', card.id).filter((id) => !own.includes(id));
  return others.length === 0 ? own.slice() : [...own, ...others];
}

/** The derived link fields of the read model, in its key order. */
export function linkViewFields(
  ws: WorkspaceState,
  card: Card,
): { children: ChildCount; related: string[]; duplicates: string[] } {
  return {
    children: childCount(ws, card.id),
    related: relatedOf(ws, card),
    duplicates: [...ws.index.linkedFrom('duplicateOf', card.id)],
  };
}

/** Whether any derived link field of the card is not empty (most cards: none, a constant answer). */
export function hasLinkViews(ws: WorkspaceState, card: Card): boolean {
  return (
    card.relatesTo !== undefined ||
    ws.index.linkedFrom('parent', card.id).length > 0 ||
    ws.index.linkedFrom('relatesTo', card.id).length > 0 ||
    ws.index.linkedFrom('duplicateOf', card.id).length > 0
  );
}

/** The sub-cards of `card` that are not done yet. */
export function openChildrenOf(ws: WorkspaceState, card: Card): Card[] {
  return childrenOf(ws, card.id).filter((child) => !isFinished(ws, child));
}

/** A card rewritten because a card it named went away, with the fields that changed and why (for its log). */
export interface LinkCleanup {
  card: Card;
  previous: Card;
  fields: string[];
  /** A line for the card's log when its parent was cleared. */
  logText?: string;
}

function without(list: string[] | undefined, id: string): string[] | undefined {
  const rest = (list ?? []).filter((other) => other !== id);
  return rest.length === 0 ? undefined : rest;
}

/**
 * The cards that name `id` in any link field, each with `id` taken out: one change per card, so a
 * card that was both blocked by and a sub-card of the deleted one is written once.
 */
export function withoutLinksTo(ws: WorkspaceState, id: string, modified: string, why: string): LinkCleanup[] {
  const named = new Set<string>();
  for (const field of ['blockedBy', 'parent', 'relatesTo', 'duplicateOf'] as const)
    for (const other of ws.index.linkedFrom(field, id)) named.add(other);
  return [...named].sort().flatMap((otherId) => {
    const previous = ws.index.findById(otherId);
    if (!previous) return [];
    const card: Card = { ...previous, modified };
    const fields: string[] = [];
    for (const field of ['blockedBy', 'relatesTo', 'duplicateOf'] as const) {
      if (!previous[field]?.includes(id)) continue;
      card[field] = without(previous[field], id);
      fields.push(field);
    }
    let logText: string | undefined;
    if (previous.parent === id) {
      card.parent = undefined;
      fields.push('parent');
      logText = `no longer a sub-card of ${id}: the parent ${why}`;
    }
    return fields.length ? [{ card, previous, fields, logText }] : [];
  });
}

/** The sub-cards of a card that leaves the board, each with its parent cleared (they stay where they are). */
export function detachedChildren(ws: WorkspaceState, parent: Card, modified: string, why: string): LinkCleanup[] {
  return ws.index.linkedFrom('parent', parent.id).flatMap((childId) => {
    const previous = ws.index.findById(childId);
    if (!previous || previous.parent !== parent.id) return [];
    return [
      {
        card: { ...previous, parent: undefined, modified },
        previous,
        fields: ['parent'],
        logText: `no longer a sub-card of ${parent.id}: the parent ${why}`,
      },
    ];
  });
}
