import type { Card } from '../../core/model';
import { SingleFlight } from '../../core/concurrency';
import type { ExternalChange } from '../cardStore';
import type { SqlDatabase } from './sqlDatabase';
import { wakeOnChanges } from '../changeSource';
import { log } from '../../core/log';

interface ChangeRow {
  seq: number;
  card_id: string;
  board_id: string;
  origin: string;
}

/**
 * A sequence number can show up late: MySQL hands out auto-increment values before commit, so a
 * slower transaction may commit a lower number after a higher one was read. The feed waits this
 * long for a missing number before treating it as a rolled-back write.
 */
const GAP_PATIENCE_MS = 15_000;

/**
 * A reported card is applied by the service later, in its mutation queue; an own write that lands
 * in between would be overwritten in the index by the older read. Own writes to a card reported
 * this recently make the feed read it again on the next round.
 */
const RECHECK_WINDOW_MS = 10_000;

/**
 * Turns the `kanban_changes` log into `ExternalChange`s: every write of every process appends a row
 * (card id, origin); the feed polls for rows of other origins (over PostgreSQL, when a notification
 * says there are some; see changeSource.ts) and reports each touched card as it now is in the database. Reading the current row, rather than trusting the logged kind, makes
 * replays and out-of-order rows harmless.
 */
export class ChangeFeed {
  private floor: number | null = null;
  /** Sequence numbers above `floor` already handled. */
  private seen = new Set<number>();
  private gapSince: number | null = null;
  private listeners = new Set<(change: ExternalChange) => void>();
  private stopWaking: (() => void) | null = null;
  /** The polling round under way, which a second caller joins instead of starting another. */
  private readonly rounds = new SingleFlight(() => this.pollOnce());
  private failing = false;
  /** Cards reported lately, with when and on which board. */
  private reported = new Map<string, { at: number; boardId: string }>();
  private recheck = new Set<string>();
  /** The round asked for by askRecheck, not started yet. */
  private recheckSoon: NodeJS.Immediate | null = null;
  /** How many own writes each card had lately, to see one that commits while the card is read. */
  private ownWrites = new Map<string, { count: number; at: number }>();

  constructor(
    private readonly db: SqlDatabase,
    private readonly origin: string,
    private readonly readCard: (id: string) => Promise<Card | null>,
    private readonly intervalMs: number,
    private readonly label: string,
  ) {}

  /** Start after everything logged so far: called just before the store loads every card. */
  async markStart(): Promise<void> {
    const rows = await this.db.all<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM kanban_changes');
    this.floor = Number(rows[0]?.seq ?? 0);
    this.seen.clear();
    this.gapSince = null;
  }

  /**
   * The store wrote this card itself and the write is committed (call it after the commit: a read
   * before it would miss the write). See RECHECK_WINDOW_MS.
   */
  noteOwnWrite(id: string): void {
    const now = Date.now();
    const last = this.reported.get(id);
    if (last && now - last.at < RECHECK_WINDOW_MS) this.askRecheck(id);
    this.ownWrites.set(id, { count: (this.ownWrites.get(id)?.count ?? 0) + 1, at: now });
  }

  /**
   * Read the card again in a round of its own, soon: waiting for the next round would be waiting
   * for the next change pushed by another instance (or the 30 s safety poll), while the index may
   * hold an older read than the row.
   */
  private askRecheck(id: string): void {
    this.recheck.add(id);
    if (this.recheckSoon || this.listeners.size === 0) return;
    this.recheckSoon = setImmediate(() => {
      this.recheckSoon = null;
      void this.catchUp();
    });
  }

  subscribe(listener: (change: ExternalChange) => void): () => void {
    this.listeners.add(listener);
    // A push asks for a round that starts after it: one under way may have read before its commit.
    this.stopWaking ??= wakeOnChanges(this.db.changes, 'cards', this.intervalMs, () => void this.catchUp());
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    this.stopWaking?.();
    this.stopWaking = null;
    if (this.recheckSoon) clearImmediate(this.recheckSoon);
    this.recheckSoon = null;
  }

  /** One round: read new log rows, report the cards other processes touched (joins a round under way). */
  poll(): Promise<void> {
    return this.rounds.run();
  }

  /** A round that starts after this call: one under way may have read the log too early. */
  async catchUp(): Promise<void> {
    const running = this.rounds.current;
    if (running) await running;
    await this.poll();
  }

  private async pollOnce(): Promise<void> {
    try {
      if (this.floor === null) await this.markStart();
      const rows = await this.db.all<ChangeRow>(
        'SELECT seq, card_id, board_id, origin FROM kanban_changes WHERE seq > ? ORDER BY seq',
        [this.floor],
      );
      const touched = new Map<string, string>();
      for (const row of rows) {
        const seq = Number(row.seq);
        if (this.seen.has(seq)) continue;
        this.seen.add(seq);
        if (row.origin !== this.origin) touched.set(row.card_id, row.board_id);
      }
      this.advanceFloor();
      for (const id of this.recheck) if (!touched.has(id)) touched.set(id, this.reported.get(id)?.boardId ?? '');
      this.recheck.clear();
      this.forgetOldReports();
      for (const [id, boardId] of touched) await this.report(id, boardId);
      if (this.failing) log.warn(`kanban: ${this.label} change polling works again`);
      this.failing = false;
    } catch (error) {
      if (!this.failing) log.warn(`kanban: ${this.label} cannot poll for outside changes: ${(error as Error).message}`);
      this.failing = true;
    }
  }

  private async report(id: string, boardId: string): Promise<void> {
    let card: Card | null;
    const ownWritesBefore = this.ownWrites.get(id)?.count;
    try {
      card = await this.readCard(id);
    } catch (error) {
      log.warn(`kanban: ${this.label} skipped card ${id} changed by another process: ${(error as Error).message}`);
      return;
    }
    // An own write committed while the row was read may be missing from it, and the report is
    // applied after that write: read the card again on the next round.
    if (this.ownWrites.get(id)?.count !== ownWritesBefore) this.askRecheck(id);
    const change: ExternalChange = card
      ? { kind: 'upsert', card, peer: true }
      : { kind: 'remove', boardId, id, peer: true };
    if (this.listeners.size > 0) this.reported.set(id, { at: Date.now(), boardId: card?.boardId ?? boardId });
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        log.error(`kanban: a listener of ${this.label} changes failed`, error);
      }
    }
  }

  private forgetOldReports(): void {
    const cutoff = Date.now() - RECHECK_WINDOW_MS;
    for (const [id, { at }] of this.reported) if (at < cutoff) this.reported.delete(id);
    for (const [id, { at }] of this.ownWrites) if (at < cutoff) this.ownWrites.delete(id);
  }

  private advanceFloor(): void {
    let floor = this.floor ?? 0;
    for (;;) {
      while (this.seen.delete(floor + 1)) floor++;
      if (this.seen.size === 0) {
        this.gapSince = null;
        break;
      }
      const now = Date.now();
      if (this.gapSince === null) this.gapSince = now;
      if (now - this.gapSince < GAP_PATIENCE_MS) break;
      // The missing number never came: a rolled-back write. Step over it.
      floor++;
      this.gapSince = null;
    }
    this.floor = floor;
  }
}
