import type { Card } from '../../core/model';
import { StaleRowError, type ExternalChange } from '../cardStore';
import { changedColumns, diffComments } from './cardRows';

/**
 * Every card row carries a version that each write checks and bumps (`... WHERE id = ? AND
 * version = ?`), so the database, not each process's memory, orders two writes to one card: the
 * second finds the row moved on and is refused like a write to a file edited by hand.
 */
export class RowVersions {
  /** What this process last read or wrote of each card, with the row's version then. */
  private readonly known = new Map<string, { version: number; card: Card }>();

  remember(card: Card, version: number | string): void {
    this.known.set(card.id, { version: Number(version), card });
  }

  forget(id: string): void {
    this.known.delete(id);
  }

  clear(): void {
    this.known.clear();
  }

  /**
   * The version a write based on `previous` expects, or undefined when the service holds another
   * state than the one last read (a peer's change read but not yet applied): that write must not go.
   */
  expected(previous: Card): number | undefined {
    const entry = this.known.get(previous.id);
    return entry && sameCard(entry.card, previous) ? entry.version : undefined;
  }
}

/** Thrown inside a transaction (so it rolls back) when a card row is not at the expected version. */
export class RowMovedError extends Error {
  constructor(
    readonly cardId: string,
    readonly boardId: string,
  ) {
    super(`card ${cardId} changed in the database`);
  }
}

/**
 * The conflict the service answers with 409 (the same as for a hand-edited file): nothing was
 * written, and `current` (the row as it is now, null when removed) is what the index adopts.
 */
export function staleRow(label: string, moved: RowMovedError, current: Card | null): StaleRowError {
  const change: ExternalChange = current
    ? { kind: 'upsert', card: current, peer: true }
    : { kind: 'remove', boardId: moved.boardId, id: moved.cardId, peer: true };
  return new StaleRowError(
    `card "${moved.cardId}" was changed by another instance (${label}) since this one read it; nothing was written and the board now shows the card as it is. Apply your change again.`,
    `${label} kanban_cards id=${moved.cardId}`,
    [change],
    null,
  );
}

/** Whether two cards would be stored the same (comment order aside). */
function sameCard(a: Card, b: Card): boolean {
  if (changedColumns(a, b).length > 0) return false;
  const comments = diffComments(a.comments, b.comments);
  return comments.added.length + comments.changed.length + comments.removed.length === 0;
}
