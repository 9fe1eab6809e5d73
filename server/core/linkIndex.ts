import type { Card } from './model';

/**
 * The reverse of one link field of every card (`blockedBy`, `parent`, `relatesTo`, `duplicateOf`):
 * for a card id, the ids of the cards that name it there. Kept card by card as the index changes,
 * so a derived field on a read (`blocks`, `children`, ...) is a map lookup, never a scan of the
 * workspace. Ids that name no card (a hand edit) are kept too: when a card with that id appears,
 * its derived fields are right at once.
 */
const NONE: readonly string[] = Object.freeze([]);

export class ReverseLinks {
  private byTarget = new Map<string, Set<string>>();

  constructor(private readonly linksOf: (card: Card) => readonly string[] | undefined) {}

  clear(): void {
    this.byTarget.clear();
  }

  add(card: Card): void {
    for (const target of this.linksOf(card) ?? []) {
      let set = this.byTarget.get(target);
      if (!set) this.byTarget.set(target, (set = new Set()));
      set.add(card.id);
    }
  }

  remove(card: Card): void {
    for (const target of this.linksOf(card) ?? []) {
      const set = this.byTarget.get(target);
      if (!set) continue;
      set.delete(card.id);
      if (set.size === 0) this.byTarget.delete(target);
    }
  }

  /** Ids of the cards that name `id`, sorted (a stable answer). Callers must not change it. */
  namesOf(id: string): readonly string[] {
    const set = this.byTarget.get(id);
    return set ? [...set].sort() : NONE;
  }
}

/** The link fields the index keeps reversed, and how each is read off a card. */
export const LINK_FIELDS = {
  blockedBy: (card: Card) => card.blockedBy,
  parent: (card: Card) => (card.parent === undefined ? undefined : [card.parent]),
  relatesTo: (card: Card) => card.relatesTo,
  duplicateOf: (card: Card) => card.duplicateOf,
} as const;

export type LinkField = keyof typeof LINK_FIELDS;

/** One reverse index per link field. */
export class LinkIndex {
  private readonly reverse = new Map<LinkField, ReverseLinks>(
    (Object.keys(LINK_FIELDS) as LinkField[]).map((field) => [field, new ReverseLinks(LINK_FIELDS[field])]),
  );

  clear(): void {
    for (const links of this.reverse.values()) links.clear();
  }

  add(card: Card): void {
    for (const links of this.reverse.values()) links.add(card);
  }

  remove(card: Card): void {
    for (const links of this.reverse.values()) links.remove(card);
  }

  /** Ids of the cards whose `field` names `id`, sorted. Callers must not change it. */
  namesOf(field: LinkField, id: string): readonly string[] {
    return (this.reverse.get(field) as ReverseLinks).namesOf(id);
  }
}
