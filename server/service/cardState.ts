import type { Static } from '@sinclair/typebox';
import { ValidationError } from '../core/errors';
import type { CardStateChangeSchema } from '../core/shapes/cardParts';
import type { Card, CardState } from '../core/model';
import type { CardStateChange, CardStateField, CardStateRecord, CardStateStore } from '../storage/cardStateStore';
import { isIsoDate } from './validate';
import { log } from '../core/log';

/**
 * Per-actor open/unread state, all in memory (a list of 10,000 cards computes it without I/O) and
 * persisted through the configured store. Card ids are unique across the workspace, so state is keyed
 * by card id and survives a transfer between boards.
 */
/** How long activity saves are gathered before one store write. */
const ACTIVITY_SAVE_DELAY_MS = 100;

/** What marking a card opened or read answers (the store's CardStateChange is a stored record's change). */
export type CardStateView = Static<typeof CardStateChangeSchema>;

export class CardStates {
  private byCard = new Map<string, Map<string, CardStateRecord>>();
  private lastStampMs = 0;
  private changes = 0;
  /** `cardId\0actor` of records whose activity is not saved yet. */
  private pendingActivity = new Set<string>();
  private activityTimer: NodeJS.Timeout | null = null;
  private stopFollowing: (() => void) | null = null;

  constructor(public store: CardStateStore) {}

  /**
   * Now, but strictly later than any earlier stamp: a read and someone's activity in the same
   * millisecond must still be ordered, or that activity would count as already read.
   */
  private stamp(): string {
    this.lastStampMs = Math.max(Date.now(), this.lastStampMs + 1);
    return new Date(this.lastStampMs).toISOString();
  }

  /** Grows with every change of any record; read caches compare it to know they are current. */
  get version(): number {
    return this.changes;
  }

  async load(): Promise<void> {
    this.take(await this.store.loadAll());
    // A shared store (MySQL) reports what other instances change; reads stay in memory.
    this.stopFollowing ??= this.store.follow?.((change) => this.takeOutside(change)) ?? null;
  }

  /** Hold exactly these records (later ones win for the same card and actor). */
  private take(records: CardStateRecord[]): void {
    this.byCard.clear();
    for (const record of records) this.recordsOf(record.cardId).set(record.actor, record);
    this.changes++;
  }

  /**
   * A record as the shared store holds it (another instance's change, or an own write merged with
   * theirs). Activity this instance has not saved yet is kept: it only ever moves forward.
   */
  private takeOutside(change: CardStateChange): void {
    if (change.kind === 'removeCard') {
      this.byCard.delete(change.cardId);
    } else {
      const record = { ...change.record };
      const held = this.byCard.get(record.cardId)?.get(record.actor)?.lastActivityAt;
      if (held && (!record.lastActivityAt || held > record.lastActivityAt)) record.lastActivityAt = held;
      this.recordsOf(record.cardId).set(record.actor, record);
    }
    this.changes++;
  }

  private recordsOf(cardId: string): Map<string, CardStateRecord> {
    let records = this.byCard.get(cardId);
    if (!records) this.byCard.set(cardId, (records = new Map()));
    return records;
  }

  /** Open: the actor has opened the card. Unread: someone else acted on it after the actor's read cursor. */
  stateOf(cardId: string, actor: string): CardState {
    const records = this.byCard.get(cardId);
    if (!records) return { open: false, unread: false };
    const own = records.get(actor);
    const cursor = own?.readThrough ?? '';
    let unread = false;
    for (const [other, record] of records) {
      if (other !== actor && record.lastActivityAt && record.lastActivityAt > cursor) unread = true;
    }
    return { open: own?.openedAt !== undefined, unread };
  }

  private async update(card: Card, actor: string, change: Partial<CardStateRecord>): Promise<CardStateRecord> {
    const before = this.byCard.get(card.id)?.get(actor);
    const record = this.apply(card, actor, change);
    try {
      await this.store.save(record, Object.keys(change) as CardStateField[]);
    } catch (error) {
      // Not saved (a database away answers 503, "nothing was changed"): memory must agree.
      const records = this.recordsOf(card.id);
      if (records.get(actor) === record) {
        if (before) records.set(actor, before);
        else records.delete(actor);
        this.changes++;
      }
      throw error;
    }
    return record;
  }

  /** Change the record in memory, where every read looks. */
  private apply(card: Card, actor: string, change: Partial<CardStateRecord>): CardStateRecord {
    const records = this.recordsOf(card.id);
    const record: CardStateRecord = {
      ...(records.get(actor) ?? { cardId: card.id, actor }),
      boardId: card.boardId,
      ...change,
    };
    records.set(actor, record);
    this.changes++;
    return record;
  }

  async markOpen(card: Card, actor: string) {
    const now = this.stamp();
    const record = await this.update(card, actor, { openedAt: now, readThrough: now });
    return this.result(card, actor, record);
  }

  async markRead(card: Card, actor: string, readThrough?: { at?: unknown }) {
    let at = this.stamp();
    if (readThrough !== undefined) {
      if (typeof readThrough.at !== 'string' || !isIsoDate(readThrough.at)) {
        throw new ValidationError(
          'readThrough must be {"at": "<ISO 8601 time>"}: everything up to that moment counts as read',
        );
      }
      // A cursor in the future would hide activity that has not happened yet: it means "up to now".
      const requested = new Date(readThrough.at.replace(' ', 'T')).toISOString();
      if (requested < at) at = requested;
    }
    const record = await this.update(card, actor, { readThrough: at });
    return this.result(card, actor, record);
  }

  /**
   * Activity follows a change that is already durable (the card write), and reads see it at once
   * in memory. Saving it is gathered for a moment so a burst of writes costs one state-file write,
   * not a second fsync per request; a crash can lose the last 100 ms of unread markers, never a
   * card change. Explicit open and read are saved before they answer.
   */
  async recordActivity(card: Card, actor: string): Promise<void> {
    this.apply(card, actor, { lastActivityAt: this.stamp() });
    this.pendingActivity.add(`${card.id}\u0000${actor}`);
    this.activityTimer ??= setTimeout(() => void this.saveActivity(), ACTIVITY_SAVE_DELAY_MS);
  }

  /** Save the current records of everyone with unsaved activity (one coalesced store write). */
  private async saveActivity(): Promise<void> {
    if (this.activityTimer) clearTimeout(this.activityTimer);
    this.activityTimer = null;
    const saves: Promise<void>[] = [];
    for (const key of this.pendingActivity) {
      const [cardId, actor] = key.split('\u0000');
      // The latest record (an open may have followed); none when the card was deleted meanwhile.
      const record = this.byCard.get(cardId)?.get(actor);
      if (record) saves.push(this.store.save(record, ['lastActivityAt']));
    }
    this.pendingActivity.clear();
    await Promise.all(saves).catch((error) =>
      log.warn(`kanban: saving card activity failed: ${(error as Error).message}`),
    );
  }

  /** Save what is pending, then close the store. */
  /**
   * Carry every record into another store and use it from now on (a migration between a database
   * that keeps card state and local files); the old store is closed.
   */
  async moveTo(next: CardStateStore): Promise<void> {
    await this.saveActivity();
    // A store is read before it is written to (a file store learns where its journal ends).
    const held = await next.loadAll();
    const records = [...this.byCard.values()].flatMap((byActor) => [...byActor.values()]);
    for (const record of records) await next.save(record);
    this.stopFollowing?.();
    this.stopFollowing = null;
    const before = this.store;
    this.store = next;
    this.take([...held, ...records]);
    this.stopFollowing = next.follow?.((change) => this.takeOutside(change)) ?? null;
    await before.close().catch((error) => log.warn(`kanban: closing the old card state store failed: ${error}`));
  }

  async close(): Promise<void> {
    this.stopFollowing?.();
    this.stopFollowing = null;
    await this.saveActivity();
    await this.store.close();
  }

  async forget(card: Card): Promise<void> {
    this.byCard.delete(card.id);
    this.changes++;
    await this.store.removeCard(card.boardId, card.id);
  }

  private result(card: Card, actor: string, record: CardStateRecord): CardStateView {
    return {
      cardId: card.id,
      boardId: card.boardId,
      actor,
      ...this.stateOf(card.id, actor),
      openedAt: record.openedAt ?? null,
      readThrough: record.readThrough ? { at: record.readThrough } : null,
    };
  }
}
