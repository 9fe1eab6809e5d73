import { createHash } from 'node:crypto';
import { SingleFlight } from '../../core/concurrency';
import type { StoredClaim } from '../../core/claims';
import type { StoredSession } from '../../core/sessions';
import { log } from '../../core/log';
import type { ClaimStore, ClaimTransaction } from '../claims/claimStore';
import {
  CLAIM_COLUMNS,
  SESSION_COLUMNS,
  claimFromRow,
  claimToRow,
  sessionFromRow,
  sessionToRow,
  type ClaimRow,
  type SessionRow,
} from './claimRows';
import type { SqlDatabase, SqlTransaction, SqlValue } from './sqlDatabase';
import { insertIgnoring } from './sqlSharedConfig';
import { wakeOnChanges } from '../changeSource';

/** The one row of `kanban_claim_lock`: taken by every claim decision, its version bumped by every change. */
const LOCK = 'claims';
/** Instances announce a lapse within moments of each other: an hour of keys is plenty. */
const LAPSE_KEEP_MS = 60 * 60 * 1000;
const PRUNE_LAPSES_EVERY = 100;

/**
 * The dialects' parts. MySQL: the lock row is read with FOR UPDATE, which makes every other
 * instance's decision wait for this transaction's commit; the reads after it lock too, because a
 * locking read sees the latest commit whatever snapshot the transaction holds. PostgreSQL: the same
 * words and the same effect. SQLite: the
 * transaction began IMMEDIATE (sqliteDatabase.ts), which holds the file's write lock already.
 */
export const LOCKING_READ: Record<SqlDatabase['dialect'], string> = {
  mysql: ' FOR UPDATE',
  postgres: ' FOR UPDATE',
  sqlite: '',
};

/**
 * Claims and agent sessions in the database the cards live in (`card.storage` sqlite or mysql),
 * so every process and instance using it sees one set of claims and decides under one lock: two
 * agents picking through two instances never get the same card.
 *
 * Other instances learn of a change by the lock row's version, which every transaction that wrote
 * bumps: a subscriber's poll reads that one number and reports when it moved, and the service then
 * reads the claims again (service/claimEvents.ts followStoredClaims).
 */
export class SqlClaimStore implements ClaimStore {
  readonly kind = 'database';
  private readonly locking: string;
  /** The version last reported to subscribers (null: not yet, the first poll reports). */
  private seen: number | null = null;
  private readonly listeners = new Set<() => void>();
  private stopWaking: (() => void) | null = null;
  /** The polling round under way, which a second caller joins instead of starting another. */
  private readonly rounds = new SingleFlight(() => this.pollOnce());
  private failing = false;
  private lapses = 0;

  /** `db` belongs to the card store, which closes it (and stops this store's poll). */
  constructor(
    private readonly db: SqlDatabase,
    /** The card store's label (`mysql kanban@host:3306`, `sqlite .kanban/kanban.db`). */
    readonly location: string,
    private readonly pollIntervalMs: number,
  ) {
    this.locking = LOCKING_READ[db.dialect];
  }

  async list(): Promise<StoredClaim[]> {
    return (await this.db.all<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM kanban_claims ORDER BY board_id, card_id`)).map(
      claimFromRow,
    );
  }

  async get(boardId: string, cardId: string): Promise<StoredClaim | null> {
    const [row] = await this.db.all<ClaimRow>(
      `SELECT ${CLAIM_COLUMNS} FROM kanban_claims WHERE board_id = ? AND card_id = ?`,
      [boardId, cardId],
    );
    return row ? claimFromRow(row) : null;
  }

  async listSessions(): Promise<StoredSession[]> {
    return (
      await this.db.all<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM kanban_agent_sessions ORDER BY board_id, card_id`)
    ).map(sessionFromRow);
  }

  async exclusive<T>(work: (claims: ClaimTransaction) => Promise<T>): Promise<T> {
    const done = await this.db.transaction(async (tx) => {
      const [lock] = await tx.all<{ version: number | string }>(
        `SELECT version FROM kanban_claim_lock WHERE name = ?${this.locking}`,
        [LOCK],
      );
      if (!lock)
        throw new Error(
          'the claims lock row is missing from kanban_claim_lock; the schema was not created by this service',
        );
      const claims = new SqlClaimTransaction(tx, this.locking);
      const result = await work(claims);
      if (claims.wrote) {
        await tx.run('UPDATE kanban_claim_lock SET version = version + 1 WHERE name = ?', [LOCK]);
        await this.db.announce?.(tx, 'claims', Number(lock.version) + 1);
      }
      return { result, before: Number(lock.version), wrote: claims.wrote };
    });
    // Nobody else wrote while we held the lock: our own change is no news to our subscribers.
    if (done.wrote && this.seen === done.before) this.seen = done.before + 1;
    return done.result;
  }

  subscribe(onChange: () => void): () => void {
    this.listeners.add(onChange);
    if (!this.stopWaking) {
      this.stopWaking = wakeOnChanges(this.db.changes, 'claims', this.pollIntervalMs, () => void this.catchUp());
      void this.poll();
    }
    return () => {
      this.listeners.delete(onChange);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** A round that starts after this call: one under way may have read the version too early. */
  async catchUp(): Promise<void> {
    if (this.listeners.size === 0) return;
    const running = this.rounds.current;
    if (running) await running;
    await this.poll();
  }

  /** One polling round (a second caller joins the one under way). */
  poll(): Promise<void> {
    return this.rounds.run();
  }

  private async pollOnce(): Promise<void> {
    let version: number;
    try {
      const [row] = await this.db.all<{ version: number | string }>(
        'SELECT version FROM kanban_claim_lock WHERE name = ?',
        [LOCK],
      );
      version = Number(row?.version ?? 0);
      if (this.failing) log.warn(`kanban: the claims in ${this.location} can be followed again`);
      this.failing = false;
    } catch (error) {
      if (!this.failing) log.warn(`kanban: cannot follow the claims in ${this.location}: ${(error as Error).message}`);
      this.failing = true;
      return;
    }
    // Stopped while the poll was under way (the workspace closes): the database may be closing too.
    if (version === this.seen || this.listeners.size === 0) return;
    this.seen = version;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        log.error(`kanban: a listener of the claims in ${this.location} failed`, error);
      }
    }
  }

  /** The first instance to record the lapse's key announces it; the key is hashed to fit any board and card id. */
  async announceOnce(lapse: string): Promise<boolean> {
    const key = createHash('sha256').update(lapse).digest('hex');
    const now = Date.now();
    const prune = this.lapses++ % PRUNE_LAPSES_EVERY === 0;
    return this.db.transaction(async (tx) => {
      if (prune)
        await tx.run('DELETE FROM kanban_claim_lapses WHERE at < ?', [new Date(now - LAPSE_KEEP_MS).toISOString()]);
      return (
        (await tx.run(insertIgnoring(this.db, 'kanban_claim_lapses (lapse, at) VALUES (?, ?)'), [
          key,
          new Date(now).toISOString(),
        ])) === 1
      );
    });
  }

  stop(): void {
    this.stopWaking?.();
    this.stopWaking = null;
  }
}

/**
 * Reads and writes inside `exclusive`. A put deletes then inserts: under the lock nobody else
 * writes the row in between, and both dialects say it alike (no upsert syntax to tell apart).
 */
class SqlClaimTransaction implements ClaimTransaction {
  /** Whether a statement changed a row (the version is bumped only then). */
  wrote = false;

  constructor(
    private readonly tx: SqlTransaction,
    private readonly locking: string,
  ) {}

  private async write(sql: string, params: SqlValue[]): Promise<void> {
    if ((await this.tx.run(sql, params)) > 0) this.wrote = true;
  }

  async list(): Promise<StoredClaim[]> {
    return (
      await this.tx.all<ClaimRow>(
        `SELECT ${CLAIM_COLUMNS} FROM kanban_claims ORDER BY board_id, card_id${this.locking}`,
      )
    ).map(claimFromRow);
  }

  async get(boardId: string, cardId: string): Promise<StoredClaim | null> {
    const [row] = await this.tx.all<ClaimRow>(
      `SELECT ${CLAIM_COLUMNS} FROM kanban_claims WHERE board_id = ? AND card_id = ?${this.locking}`,
      [boardId, cardId],
    );
    return row ? claimFromRow(row) : null;
  }

  async put(claim: StoredClaim): Promise<void> {
    await this.remove(claim.boardId, claim.cardId);
    await this.write(`INSERT INTO kanban_claims (${CLAIM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`, claimToRow(claim));
  }

  async remove(boardId: string, cardId: string): Promise<void> {
    await this.write('DELETE FROM kanban_claims WHERE board_id = ? AND card_id = ?', [boardId, cardId]);
  }

  async getSession(boardId: string, cardId: string): Promise<StoredSession | null> {
    const [row] = await this.tx.all<SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM kanban_agent_sessions WHERE board_id = ? AND card_id = ?${this.locking}`,
      [boardId, cardId],
    );
    return row ? sessionFromRow(row) : null;
  }

  async putSession(session: StoredSession): Promise<void> {
    await this.removeSession(session.boardId, session.cardId);
    await this.write(
      `INSERT INTO kanban_agent_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      sessionToRow(session),
    );
  }

  async removeSession(boardId: string, cardId: string): Promise<void> {
    await this.write('DELETE FROM kanban_agent_sessions WHERE board_id = ? AND card_id = ?', [boardId, cardId]);
  }
}
