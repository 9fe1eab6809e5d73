/** One actor's state for one card. Times are ISO 8601 strings. */
export interface CardStateRecord {
  boardId: string;
  cardId: string;
  actor: string;
  /** When the actor last opened the card (POST .../open). */
  openedAt?: string;
  /** The actor has read everything up to this moment (POST .../read). */
  readThrough?: string;
  /** The actor's own latest activity on the card (comment, log, update). */
  lastActivityAt?: string;
}

/**
 * Persistence of per-actor card state (`card.state`). The service keeps every record in memory so
 * that `cardState` on a 10,000-card list costs no I/O; a store loads them once and saves changes.
 */
export interface CardStateStore {
  readonly provider: string;
  loadAll(): Promise<CardStateRecord[]>;
  save(record: CardStateRecord): Promise<void>;
  /** Forget every actor's state of a card (permanent delete). */
  removeCard(boardId: string, cardId: string): Promise<void>;
  /** Provider details for /api/storage (database file...). */
  describe?(): Record<string, unknown>;
  close(): Promise<void>;
}
