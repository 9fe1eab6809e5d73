import type { StoredClaim } from '../../core/claims';
import type { StoredSession } from '../../core/sessions';

/**
 * Where claims live, for every process and instance that serves one board: a folder (in the git
 * common directory, so every worktree of a repository shares it) or, with a SQL card store, tables
 * beside the cards, for instances on several machines (sql/sqlClaimStore.ts). The service keeps a
 * copy in memory for reads; anything that decides (claim, release, pick, the write guard) asks the store.
 */
export interface ClaimStore {
  /** Where the claims are, for messages and `GET /api/workspace` (a folder, a database). */
  readonly location: string;
  /** Files in a folder, or tables of the card store's database. */
  readonly kind: 'files' | 'database';
  /** Every stored claim of this workspace, expired ones included. */
  list(): Promise<StoredClaim[]>;
  /** One card's claim (expired or not), or null. */
  get(boardId: string, cardId: string): Promise<StoredClaim | null>;
  /** Every agent session (core/sessions.ts): they live beside the claims, under the same lock. */
  listSessions(): Promise<StoredSession[]>;
  /**
   * Run `work` while no other process or instance changes claims: a read, a decision and a write
   * inside it are one step for everyone (two agents never pick the same card).
   */
  exclusive<T>(work: (claims: ClaimTransaction) => Promise<T>): Promise<T>;
  /** A place to watch for other processes' changes, when the store has one (a folder). */
  readonly watchPath?: string;
  /**
   * Stores without a folder to watch (a database) report other processes' changes themselves:
   * `onChange` is called, from a poll, after anything changed the claims or sessions. Answers a
   * function that stops.
   */
  subscribe?(onChange: () => void): () => void;
  /** Look for changes now and report them before answering (another instance's event is about to be delivered). */
  catchUp?(): Promise<void>;
  /**
   * Stores that instances share with one event log let exactly one of them announce a lapse (a
   * lease that ran out, a session turned stale), which every instance sees at the same moment:
   * true for the first to ask about `lapse`, false for the others.
   */
  announceOnce?(lapse: string): Promise<boolean>;
}

/** Reads and writes inside `ClaimStore.exclusive`. */
export interface ClaimTransaction {
  list(): Promise<StoredClaim[]>;
  get(boardId: string, cardId: string): Promise<StoredClaim | null>;
  put(claim: StoredClaim): Promise<void>;
  remove(boardId: string, cardId: string): Promise<void>;
  getSession(boardId: string, cardId: string): Promise<StoredSession | null>;
  putSession(session: StoredSession): Promise<void>;
  removeSession(boardId: string, cardId: string): Promise<void>;
}
