import type { Card } from '../core/model';

/** A file the store could not read; reported by /api/workspace and never touched. */
export interface InvalidFile {
  path: string;
  reason: string;
}

export interface LoadResult {
  cards: Card[];
  invalid: InvalidFile[];
}

/**
 * Where cards and their comments are kept. The service owns the in-memory index; a store only
 * persists, so every provider is a few small functions.
 */
export interface CardStore {
  /** Provider id as configured in `card.storage` (markdown, sqlite, mysql). */
  readonly provider: string;
  loadAll(): Promise<LoadResult>;
  /** Persist a new card. Returns false when its id is already taken (by any process). */
  create(card: Card): Promise<boolean>;
  /** Persist a changed card; `previous` is the stored version (its board or status may differ). */
  update(card: Card, previous: Card): Promise<void>;
  /**
   * Persist several changed cards as one change (a label rename, re-spread order keys): all or
   * nothing where the store can promise it. Stores without it get one update per card.
   */
  updateMany?(changes: CardChange[]): Promise<void>;
  remove(card: Card): Promise<void>;
  /** Workspace-relative path of the card's file, for stores that have one. */
  filePathOf?(card: Pick<Card, 'id' | 'boardId' | 'status'>): string;
  /**
   * Changes made outside this process (another server on the same database, a hand edit of a file).
   * The service applies them to its index and emits the same events as for API changes.
   */
  subscribe?(listener: (change: ExternalChange) => void): () => void;
  /** Provider details for /api/storage (database file, host...), never secrets. */
  describe?(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface CardChange {
  card: Card;
  previous: Card;
}

export type ExternalChange =
  | { kind: 'upsert'; card: Card }
  | { kind: 'remove'; boardId: string; id: string };
