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

/** The fields of a record a change sets; a shared store writes only these, so two instances changing
 * different fields of one actor's record do not undo each other. */
export type CardStateField = 'openedAt' | 'readThrough' | 'lastActivityAt';

/** What another instance changed (or what a shared store holds after an own write merged with others'). */
export type CardStateChange = { kind: 'record'; record: CardStateRecord } | { kind: 'removeCard'; cardId: string };

/**
 * Persistence of per-actor card state (`card.state`). The service keeps every record in memory so
 * that `cardState` on a 10,000-card list costs no I/O; a store loads them once and saves changes.
 */
export interface CardStateStore {
  readonly provider: string;
  loadAll(): Promise<CardStateRecord[]>;
  /** `fields`: what changed (all of them when absent); single-process stores may write the whole record. */
  save(record: CardStateRecord, fields?: CardStateField[]): Promise<void>;
  /** Forget every actor's state of a card (permanent delete). */
  removeCard(boardId: string, cardId: string): Promise<void>;
  /** Provider details for /api/storage (database file...). */
  describe?(): Record<string, unknown>;
  /**
   * Stores shared by several instances (MySQL): report records as the database holds them, both
   * other instances' changes and own writes merged with theirs. Starts following; the answer stops it.
   */
  follow?(listener: (change: CardStateChange) => void): () => void;
  close(): Promise<void>;
}
