import type { Card } from './model';

/**
 * The reverse of every card's `blockedBy`: for a card id, the ids of the cards that list it. Kept
 * card by card as the index changes, so `blocks` on a read is a map lookup, never a scan of the
 * workspace. Ids that name no card (a hand edit) are kept too: when a card with that id appears,
 * its `blocks` is right at once.
 */
const NONE: readonly string[] = Object.freeze([]);

export class BlockerIndex {
  private blocks = new Map<string, Set<string>>();

  clear(): void {
    this.blocks.clear();
  }

  add(card: Card): void {
    for (const blocker of card.blockedBy ?? []) {
      let set = this.blocks.get(blocker);
      if (!set) this.blocks.set(blocker, (set = new Set()));
      set.add(card.id);
    }
  }

  remove(card: Card): void {
    for (const blocker of card.blockedBy ?? []) {
      const set = this.blocks.get(blocker);
      if (!set) continue;
      set.delete(card.id);
      if (set.size === 0) this.blocks.delete(blocker);
    }
  }

  /** Ids of the cards whose `blockedBy` names `id`, sorted (a stable answer). Callers must not change it. */
  blockedBy(id: string): readonly string[] {
    const set = this.blocks.get(id);
    return set ? [...set].sort() : NONE;
  }
}
