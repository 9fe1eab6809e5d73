import { slugify } from '../../core/ids';
import { DEFAULT_COLUMN_COLOR, type BoardConfig, type Column } from '../../core/model';
import { RESERVED_COLUMN_IDS } from '../boards';
import type { ImportedCard, ImportNote } from './importTypes';

/**
 * Links between imported cards (a card waits for others, a sub-card names its parent) and the
 * columns a source brings. Links name source keys (`importedFrom`); a card is created after the
 * cards it links to, so each is written once with its links as card ids.
 */

const linksOf = (card: ImportedCard) => [...(card.blockedBy ?? []), ...(card.parent ? [card.parent] : [])];

/**
 * Drop the links to cards that are neither in the source nor imported earlier, with a note each;
 * `known` holds every key that will have a card.
 */
export function dropUnknownLinks(cards: ImportedCard[], known: Set<string>, notes: ImportNote[]): void {
  for (const card of cards) {
    const missing = [...new Set(linksOf(card).filter((key) => !known.has(key)))];
    if (missing.length === 0) continue;
    notes.push({
      title: card.title,
      reason: `links to ${missing.join(', ')}, which is neither in the source nor on the board; that link is left out`,
    });
    card.blockedBy = card.blockedBy?.filter((key) => known.has(key));
    if (card.parent && !known.has(card.parent)) card.parent = undefined;
  }
}

/**
 * The cards, each after the cards it links to (else in source order). A link that would close a
 * circle is dropped with a note: the board refuses a card that waits for itself.
 */
export function linkOrder(cards: ImportedCard[], notes: ImportNote[]): ImportedCard[] {
  const byKey = new Map(cards.map((card) => [card.importedFrom, card]));
  const done = new Set<ImportedCard>();
  const visiting = new Set<ImportedCard>();
  const ordered: ImportedCard[] = [];
  const visit = (card: ImportedCard) => {
    if (done.has(card)) return;
    visiting.add(card);
    for (const key of linksOf(card)) {
      const target = byKey.get(key);
      if (!target) continue;
      if (visiting.has(target)) {
        notes.push({ title: card.title, reason: `its link to ${key} would make a circle; that link is left out` });
        card.blockedBy = card.blockedBy?.filter((k) => k !== key);
        if (card.parent === key) card.parent = undefined;
      } else visit(target);
    }
    visiting.delete(card);
    done.add(card);
    ordered.push(card);
  };
  cards.forEach(visit);
  return ordered;
}

/** The source's name of a card's column (its first candidate), when the source has columns of its own. */
export function sourceColumnName(card: ImportedCard): string | undefined {
  const first = Array.isArray(card.column) ? card.column[0] : card.column;
  return first?.trim() || undefined;
}

/** A column for a name the board lacks: its id the name's slug, made unique on the board. */
export function newColumnFor(board: BoardConfig, added: Column[], name: string): Column {
  const taken = new Set([...board.columns, ...added].map((c) => c.id));
  const base = slugify(name) === 'card' && !/card/i.test(name) ? 'column' : slugify(name);
  let id = RESERVED_COLUMN_IDS.has(base) ? `${base}-column` : base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return { id, name: name.trim(), color: DEFAULT_COLUMN_COLOR };
}
