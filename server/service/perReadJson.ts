import type { Card } from '../core/model';
import type { WorkspaceState } from './workspaceState';
import { openBlockerCount } from './dependencies';
import { hasLinkViews, linkViewFields } from './cardLinks';
import { LIST_DEFAULTS } from '../core/shapes/listDefaults';

/*
 * The parts of a list entry that depend on more than the card object (the reader's card state, the
 * cards that block or link to it, its claim and session), written as JSON text per read. Most cards
 * have none of them, so most reads take one of a few constant strings.
 */

/**
 * A list entry is written whole, or compact (`compact=true`, see core/shapes/listDefaults): without
 * the fields that hold their empty default.
 */
export type EntryForm = 'full' | 'compact';

/** The per-read fields that have a list default. */
type PerReadDefaulted =
  'cardState' | 'blocks' | 'blocked' | 'openBlockers' | 'children' | 'related' | 'duplicates' | 'claim' | 'session';

function cardStateText(state: { open: boolean; unread: boolean }): string {
  return `{"open":${state.open},"unread":${state.unread}}`;
}

function childrenText(children: { total: number; done: number }): string {
  return `{"total":${children.total},"done":${children.done}}`;
}

/**
 * Each per-read field's default as this file writes it, made once from LIST_DEFAULTS: a compact
 * entry leaves out a field whose text is this, which is what `withoutListDefaults` leaves out of
 * the full entry, at a string comparison per field (parsing the full part back cost a parse per read).
 */
const DEFAULT_TEXT: Readonly<Record<PerReadDefaulted, string>> = {
  cardState: cardStateText(LIST_DEFAULTS.cardState),
  blocks: JSON.stringify(LIST_DEFAULTS.blocks),
  blocked: JSON.stringify(LIST_DEFAULTS.blocked),
  openBlockers: JSON.stringify(LIST_DEFAULTS.openBlockers),
  children: childrenText(LIST_DEFAULTS.children),
  related: JSON.stringify(LIST_DEFAULTS.related),
  duplicates: JSON.stringify(LIST_DEFAULTS.duplicates),
  claim: JSON.stringify(LIST_DEFAULTS.claim),
  session: JSON.stringify(LIST_DEFAULTS.session),
};

/** `,"key":text`, or nothing in a compact entry when the text is the field's default. */
function fieldPart(key: PerReadDefaulted, text: string, form: EntryForm): string {
  return form === 'compact' && text === DEFAULT_TEXT[key] ? '' : `,"${key}":${text}`;
}

/** A part whose values are known ahead, made once in both forms. */
function fixedPart(make: (form: EntryForm) => string): Readonly<Record<EntryForm, string>> {
  return { full: make('full'), compact: make('compact') };
}

/** The four card states (both fields are booleans), so a read looks its part up: `[open][unread]`. */
const CARD_STATE_PARTS = [false, true].map((open) =>
  [false, true].map((unread) => fixedPart((form) => fieldPart('cardState', cardStateText({ open, unread }), form))),
);

export function cardStateJson(state: { open: boolean; unread: boolean }, form: EntryForm): string {
  return CARD_STATE_PARTS[+state.open][+state.unread][form];
}

function blockerParts(blocks: readonly string[], open: number, form: EntryForm): string {
  return (
    fieldPart('blocks', JSON.stringify(blocks), form) +
    fieldPart('blocked', `${open > 0}`, form) +
    fieldPart('openBlockers', `${open}`, form)
  );
}

function linkParts(
  children: { total: number; done: number },
  related: readonly string[],
  duplicates: readonly string[],
  form: EntryForm,
): string {
  return (
    fieldPart('children', childrenText(children), form) +
    fieldPart('related', JSON.stringify(related), form) +
    fieldPart('duplicates', JSON.stringify(duplicates), form)
  );
}

/** Most cards have no dependencies: their part is one constant string. */
const NO_DEPENDENCIES = fixedPart((form) => blockerParts([], 0, form));
/** Nor links. */
const NO_LINKS = fixedPart((form) => linkParts({ total: 0, done: 0 }, [], [], form));

function dependencyJson(ws: WorkspaceState, card: Card, form: EntryForm): string {
  return blockerJson(ws, card, form) + linkJson(ws, card, form);
}

function blockerJson(ws: WorkspaceState, card: Card, form: EntryForm): string {
  const blocks = ws.index.blocksOf(card.id);
  if (blocks.length === 0 && !card.blockedBy?.length) return NO_DEPENDENCIES[form];
  return blockerParts(blocks, openBlockerCount(ws, card), form);
}

function linkJson(ws: WorkspaceState, card: Card, form: EntryForm): string {
  if (!hasLinkViews(ws, card)) return NO_LINKS[form];
  const { children, related, duplicates } = linkViewFields(ws, card);
  return linkParts(children, related, duplicates, form);
}

/** The per-read fields after `position`, in either form; for most cards one of a few constant strings. */
export function stateAndLinksJson(ws: WorkspaceState, card: Card, actor: string, form: EntryForm): string {
  const state = cardStateJson(ws.cardStates.stateOf(card.id, actor), form);
  return `${state}${dependencyJson(ws, card, form)}${claimJson(ws, card, form)}${sessionJson(ws, card, form)}`;
}

/** Most cards are not claimed: their part is one constant string. */
const NO_CLAIM = fixedPart((form) => fieldPart('claim', 'null', form));

export function claimJson(ws: WorkspaceState, card: Card, form: EntryForm): string {
  const claim = ws.claims.of(card.boardId, card.id);
  return claim ? fieldPart('claim', JSON.stringify(claim), form) : NO_CLAIM[form];
}

/** Nor do most have an agent session. */
const NO_SESSION = fixedPart((form) => fieldPart('session', 'null', form));

export function sessionJson(ws: WorkspaceState, card: Card, form: EntryForm): string {
  const session = ws.claims.sessionOf(card.boardId, card.id);
  return session ? fieldPart('session', JSON.stringify(session), form) : NO_SESSION[form];
}
