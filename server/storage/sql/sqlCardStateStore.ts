import { log } from '../../core/log';
import type { ChangeWatch } from '../../core/shapes/workspaceStatus';
import type { CardStateChange, CardStateField, CardStateRecord, CardStateStore } from '../cardStateStore';
import type { SqlDatabase, SqlTransaction } from './sqlDatabase';
import { SequenceFloor } from './sequenceFloor';
import { wakeOnChanges } from '../changeSource';

interface StateRow {
  card_id: string;
  actor: string;
  board_id: string;
  opened_at: string | null;
  read_through: string | null;
  last_activity_at: string | null;
  version: number | string;
}

const SELECT_STATE =
  'SELECT card_id, actor, board_id, opened_at, read_through, last_activity_at, version FROM kanban_card_state';

/**
 * How a changed field is written over the stored one, in the dialect's words for "the value this
 * insert tried to write". Activity only moves forward, whoever wrote last.
 */
function fieldUpdates(dialect: SqlDatabase['dialect']): Record<CardStateField | 'board' | 'version', string> {
  const tried = (column: string) => (dialect === 'mysql' ? `VALUES(${column})` : `excluded.${column}`);
  // PostgreSQL finds a bare column name ambiguous beside `excluded`, so the stored row is named.
  const stored = (column: string) => (dialect === 'postgres' ? `kanban_card_state.${column}` : column);
  const activity = stored('last_activity_at');
  return {
    board: `board_id = ${tried('board_id')}`,
    openedAt: `opened_at = ${tried('opened_at')}`,
    readThrough: `read_through = ${tried('read_through')}`,
    lastActivityAt: `last_activity_at = CASE WHEN ${activity} IS NULL OR ${tried('last_activity_at')} > ${activity} THEN ${tried('last_activity_at')} ELSE ${activity} END`,
    version: `version = ${stored('version')} + 1`,
  };
}

/** An insert that updates the row when (card_id, actor) is taken (PostgreSQL takes SQLite's words). */
function upsertClause(dialect: SqlDatabase['dialect']): string {
  return dialect === 'mysql' ? 'ON DUPLICATE KEY UPDATE' : 'ON CONFLICT (card_id, actor) DO UPDATE SET';
}
const ALL_FIELDS: CardStateField[] = ['openedAt', 'readThrough', 'lastActivityAt'];

/** Old log rows are only needed by instances that poll; an hour covers any live one. */
const CHANGE_LOG_KEEP_MS = 60 * 60 * 1000;
const PRUNE_EVERY_WRITES = 200;
/** Cards whose records are read back in one query. */
const READ_CHUNK = 500;

function toRecord(row: StateRow): CardStateRecord {
  const record: CardStateRecord = { boardId: row.board_id, cardId: row.card_id, actor: row.actor };
  if (row.opened_at) record.openedAt = row.opened_at;
  if (row.read_through) record.readThrough = row.read_through;
  if (row.last_activity_at) record.lastActivityAt = row.last_activity_at;
  return record;
}

/**
 * Card state in the shared database the cards live in (the default `card.state` over
 * `card.storage: mysql`, and over a SQLite file with `shared: true`), so every instance reports
 * the same unread and open state.
 *
 * The service still answers every read from memory (a list computes `cardState` for each card
 * without a query); this store keeps that memory current by polling a change log, the way the
 * card store follows other instances' card writes (over PostgreSQL, woken by their notifications;
 * see changeSource.ts): each write appends (card, actor, origin) to
 * `kanban_card_state_changes`, and a poll reads the current rows of the cards other instances
 * touched. Rows carry a version, so a record read late never replaces a newer one. A write sets
 * only the fields that changed and returns the merged row, so the same actor working through two
 * instances at once loses neither change.
 */
export class SqlCardStateStore implements CardStateStore {
  readonly provider: string;
  private readonly updates: Record<CardStateField | 'board' | 'version', string>;
  /** The version of each record this instance holds, by card and actor. */
  private readonly known = new Map<string, Map<string, number>>();
  private floor: SequenceFloor | null = null;
  private listener: ((change: CardStateChange) => void) | null = null;
  private stopWaking: (() => void) | null = null;
  /** The rounds under way, if any. */
  private polling: Promise<void> | null = null;
  /** Asked for a round while one ran: it may have read before the change, so one more follows. */
  private again = false;
  private failing = false;
  private writes = 0;

  /** `db` belongs to the card store, which closes it. */
  constructor(
    private readonly db: SqlDatabase,
    private readonly origin: string,
    readonly pollIntervalMs: number,
    private readonly label: string,
  ) {
    this.provider = db.dialect;
    this.updates = fieldUpdates(db.dialect);
  }

  async loadAll(): Promise<CardStateRecord[]> {
    // Follow from everything logged so far; a change logged while loading is read again, harmlessly.
    await this.markStart();
    const rows = await this.db.all<StateRow>(SELECT_STATE);
    this.known.clear();
    for (const row of rows) this.remember(row);
    return rows.map(toRecord);
  }

  async save(record: CardStateRecord, fields: CardStateField[] = ALL_FIELDS): Promise<void> {
    const updates = [this.updates.board, ...fields.map((field) => this.updates[field]), this.updates.version];
    const row = await this.db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO kanban_card_state (card_id, actor, board_id, opened_at, read_through, last_activity_at, version) VALUES (?, ?, ?, ?, ?, ?, 1) ${upsertClause(this.db.dialect)} ${updates.join(', ')}`,
        [
          record.cardId,
          record.actor,
          record.boardId,
          record.openedAt ?? null,
          record.readThrough ?? null,
          record.lastActivityAt ?? null,
        ],
      );
      await this.logChange(tx, record.cardId, record.actor);
      const [stored] = await tx.all<StateRow>(`${SELECT_STATE} WHERE card_id = ? AND actor = ?`, [
        record.cardId,
        record.actor,
      ]);
      return stored;
    });
    // The row may hold another instance's change to a field this write left alone.
    if (row) this.report(row);
  }

  async removeCard(_boardId: string, cardId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM kanban_card_state WHERE card_id = ?', [cardId]);
      await this.logChange(tx, cardId, null);
    });
    this.known.delete(cardId);
  }

  follow(listener: (change: CardStateChange) => void): () => void {
    this.listener = listener;
    this.stopWaking ??= wakeOnChanges(this.db.changes, 'cardState', this.pollIntervalMs, () => void this.poll());
    return () => this.stop();
  }

  describe(): Record<string, unknown> {
    const watch: ChangeWatch = this.db.changes ? 'push' : 'poll';
    return { database: this.label, shared: true, watch, pollIntervalMs: this.pollIntervalMs };
  }

  /**
   * One polling round that starts after this call (tests use it instead of waiting for the timer):
   * asked while one runs, it is run again once that ends, and this waits for both.
   */
  poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = this.pollRounds();
    return this.polling;
  }

  private async pollRounds(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.pollOnce();
      } while (this.again);
      if (this.failing) log.warn(`kanban: card state in ${this.label} can be followed again`);
      this.failing = false;
    } catch (error) {
      if (!this.failing) log.warn(`kanban: cannot follow card state in ${this.label}: ${(error as Error).message}`);
      this.failing = true;
    } finally {
      // At once after the last check of `again`: a later ask starts a round of its own.
      this.polling = null;
    }
  }

  private async pollOnce(): Promise<void> {
    if (!this.floor) await this.markStart();
    const floor = this.floor as SequenceFloor;
    const rows = await this.db.all<{ seq: number | string; card_id: string; actor: string | null; origin: string }>(
      'SELECT seq, card_id, actor, origin FROM kanban_card_state_changes WHERE seq > ? ORDER BY seq',
      [floor.floor],
    );
    const removed = new Set<string>();
    const touched = new Set<string>();
    for (const row of rows) {
      if (!floor.take(Number(row.seq)) || row.origin === this.origin) continue;
      if (row.actor === null) removed.add(row.card_id);
      touched.add(row.card_id);
    }
    floor.advance();
    // Removals first: a card's records that exist now were written after it (or it never happened).
    for (const cardId of removed) {
      this.known.delete(cardId);
      this.listener?.({ kind: 'removeCard', cardId });
    }
    const ids = [...touched];
    for (let i = 0; i < ids.length; i += READ_CHUNK) {
      const chunk = ids.slice(i, i + READ_CHUNK);
      const current = await this.db.all<StateRow>(
        `${SELECT_STATE} WHERE card_id IN (${chunk.map(() => '?').join(', ')})`,
        chunk,
      );
      for (const row of current) this.report(row);
    }
  }

  private async markStart(): Promise<void> {
    const [row] = await this.db.all<{ seq: number | string | null }>(
      'SELECT MAX(seq) AS seq FROM kanban_card_state_changes',
    );
    this.floor = new SequenceFloor(Number(row?.seq ?? 0));
  }

  /** Remember the row's version; whether it is newer than what this instance held. */
  private remember(row: StateRow): boolean {
    const version = Number(row.version);
    let actors = this.known.get(row.card_id);
    if (!actors) this.known.set(row.card_id, (actors = new Map()));
    const held = actors.get(row.actor);
    if (held !== undefined && held >= version) return false;
    actors.set(row.actor, version);
    return true;
  }

  private report(row: StateRow): void {
    if (!this.remember(row)) return;
    try {
      this.listener?.({ kind: 'record', record: toRecord(row) });
    } catch (error) {
      log.error(`kanban: a listener of card state in ${this.label} failed`, error);
    }
  }

  private async logChange(tx: SqlTransaction, cardId: string, actor: string | null): Promise<void> {
    const now = Date.now();
    await tx.run('INSERT INTO kanban_card_state_changes (card_id, actor, origin, changed_at) VALUES (?, ?, ?, ?)', [
      cardId,
      actor,
      this.origin,
      new Date(now).toISOString(),
    ]);
    await this.db.announce?.(tx, 'cardState');
    if (++this.writes % PRUNE_EVERY_WRITES === 1) {
      await tx.run('DELETE FROM kanban_card_state_changes WHERE changed_at < ?', [
        new Date(now - CHANGE_LOG_KEEP_MS).toISOString(),
      ]);
    }
  }

  private stop(): void {
    this.stopWaking?.();
    this.stopWaking = null;
    this.listener = null;
  }

  /** Stops following; the database connection is the card store's to close. */
  async close(): Promise<void> {
    this.stop();
  }
}
