import { claimKey, isLive, viewOfClaim, type CardClaim, type StoredClaim } from '../core/claims';
import { staleAtMs, viewOfSession, type CardSession, type StoredSession } from '../core/sessions';
import type { ClaimStore } from '../storage/claims/claimStore';

interface Held {
  stored: StoredClaim;
  view: CardClaim;
  untilMs: number;
}

/**
 * The claims of a workspace as reads show them (`claim` in the read model): a copy in memory of the
 * store, loaded at open, kept by this process's own claims and releases, and by the claim watcher
 * (a folder) or the store's own poll (a database) for other processes' (another worktree's agent,
 * another server instance). Reads never touch the store; decisions (claim,
 * release, pick, the write guard) always do, under the store's lock where they write.
 *
 * Claims are rare: a card without one costs a lookup in an empty map.
 */
export class Claims {
  private held = new Map<string, Held>();
  /** Agents' sessions (core/sessions.ts), kept like the claims; their turning stale changes `version` too. */
  private sessions = new Map<string, StoredSession>();
  private changes = 0;
  /** When the first held claim runs out: reads after it drop the expired ones (and change `version`). */
  private nextExpiry = Infinity;
  /** Claims that ran out, kept for a follower to announce (only while one follows). */
  private expired: StoredClaim[] = [];
  private followers = new Set<() => void>();
  /** Sessions that turned stale, kept for a follower to announce, and up to when that was looked at. */
  private turnedStale: StoredSession[] = [];
  private staleCheckedAt = Date.now();
  private current: ClaimStore;
  /** Told when the store reports another process's change (a database store), whichever store is current. */
  private storeFollower: (() => void) | null = null;
  private stopFollowingStore: (() => void) | null = null;

  constructor(store: ClaimStore) {
    this.current = store;
  }

  get store(): ClaimStore {
    return this.current;
  }

  /** Call `onChange` whenever the store reports a change made elsewhere (stores that report: a database). */
  followStore(onChange: () => void): void {
    this.stopFollowingStore?.();
    this.storeFollower = onChange;
    this.stopFollowingStore = this.current.subscribe?.(onChange) ?? null;
  }

  /**
   * Switch to another store (the cards moved to another provider, and the claims with them); the
   * follower moves along. Followers of the copy hear of it, so a folder watch can follow too.
   */
  useStore(next: ClaimStore): void {
    this.stopFollowingStore?.();
    this.current = next;
    this.stopFollowingStore = this.storeFollower ? (next.subscribe?.(this.storeFollower) ?? null) : null;
    this.touched();
  }

  /** Stop following the store (the workspace closes). */
  close(): void {
    this.stopFollowingStore?.();
    this.stopFollowingStore = this.storeFollower = null;
  }

  /** Changes with every claim, release and expiry: the list cache and ETags key on it. */
  get version(): number {
    if (this.nextExpiry <= Date.now()) this.dropExpired();
    return this.changes;
  }

  /** When the next held claim runs out (ms since the epoch), or Infinity. */
  get nextExpiryMs(): number {
    return this.nextExpiry;
  }

  /**
   * Keep the claims that run out for `takeExpired`, and call `onChange` whenever the claims (and so
   * the next expiry) change. Answers a function that stops following.
   */
  follow(onChange: () => void): () => void {
    this.followers.add(onChange);
    return () => {
      this.followers.delete(onChange);
      if (this.followers.size === 0) {
        this.expired = [];
        this.turnedStale = [];
      }
    };
  }

  /** Whether claims ran out that `takeExpired` has not handed over yet. */
  get hasExpired(): boolean {
    return this.expired.length > 0 || this.turnedStale.length > 0;
  }

  /** The sessions that turned stale since the last call (each once). */
  takeTurnedStale(): StoredSession[] {
    if (this.nextExpiry <= Date.now()) this.dropExpired();
    const out = this.turnedStale;
    this.turnedStale = [];
    return out;
  }

  /** The claims that ran out since the last call (each once). */
  takeExpired(): StoredClaim[] {
    if (this.nextExpiry <= Date.now()) this.dropExpired();
    const out = this.expired;
    this.expired = [];
    return out;
  }

  /** The card's live claim, or null. */
  of(boardId: string, cardId: string): CardClaim | null {
    if (this.held.size === 0) return null;
    const held = this.held.get(claimKey(boardId, cardId));
    return held && held.untilMs > Date.now() ? held.view : null;
  }

  /** The card's agent session (stale or not), or null. */
  sessionOf(boardId: string, cardId: string): CardSession | null {
    if (this.sessions.size === 0) return null;
    const session = this.sessions.get(claimKey(boardId, cardId));
    return session ? viewOfSession(session) : null;
  }

  /** Every live claim with its card (the VS Code status bar counts the agents holding them). */
  liveClaims(): StoredClaim[] {
    const now = Date.now();
    return [...this.held.values()].filter((held) => held.untilMs > now).map((held) => held.stored);
  }

  /** Every agent session as reads show it, with its card. */
  allSessions(): Array<CardSession & { boardId: string; cardId: string }> {
    return [...this.sessions.values()].map((session) => ({
      ...viewOfSession(session),
      boardId: session.boardId,
      cardId: session.cardId,
    }));
  }

  async load(): Promise<void> {
    this.replaceAll(await this.store.list());
    this.replaceSessions(await this.store.listSessions());
  }

  /** After this process wrote a session. */
  rememberSession(session: StoredSession): void {
    this.sessions.set(claimKey(session.boardId, session.cardId), session);
    this.touched();
  }

  /** After this process removed a session. */
  forgetSession(boardId: string, cardId: string): void {
    if (this.sessions.delete(claimKey(boardId, cardId))) this.touched();
  }

  /** Take the store's sessions as they are now: answers those that changed, for their events. */
  replaceSessions(sessions: StoredSession[]): StoredSession[] {
    const before = this.sessions;
    this.sessions = new Map(sessions.map((session) => [claimKey(session.boardId, session.cardId), session]));
    const changed = sessions.filter(
      (session) => JSON.stringify(before.get(claimKey(session.boardId, session.cardId))) !== JSON.stringify(session),
    );
    if (changed.length || before.size !== this.sessions.size) this.touched();
    return changed;
  }

  /** After this process wrote a claim. */
  remember(claim: StoredClaim): void {
    this.put(claim);
    this.touched();
  }

  /** After this process removed a claim. */
  forget(boardId: string, cardId: string): void {
    if (this.held.delete(claimKey(boardId, cardId))) this.touched();
  }

  /**
   * Take the store's claims as they are now (another process changed them): answers the cards whose
   * live claim changed, for their events.
   */
  replaceAll(claims: StoredClaim[]): { claimed: StoredClaim[]; released: StoredClaim[] } {
    const now = Date.now();
    const before = this.held;
    this.held = new Map();
    for (const claim of claims) if (isLive(claim, now)) this.put(claim);
    const claimed = [...this.held.values()].filter((h) => {
      const old = before.get(claimKey(h.stored.boardId, h.stored.cardId));
      return !old || old.untilMs <= now || old.view.agent !== h.view.agent || old.view.until !== h.view.until;
    });
    const released = [...before.values()].filter(
      (h) => h.untilMs > now && !this.held.has(claimKey(h.stored.boardId, h.stored.cardId)),
    );
    // A lease that ran out before this re-read, and was not dropped by a read yet, is still to be
    // announced as expired: the store no longer lists it, and no other path would tell of it.
    if (this.followers.size)
      this.expired.push(...[...before.values()].filter((h) => h.untilMs <= now).map((h) => h.stored));
    if (claimed.length || released.length || before.size !== this.held.size) this.touched();
    return { claimed: claimed.map((h) => h.stored), released: released.map((h) => h.stored) };
  }

  private put(claim: StoredClaim): void {
    this.held.set(claimKey(claim.boardId, claim.cardId), {
      stored: claim,
      view: viewOfClaim(claim),
      untilMs: Date.parse(claim.until),
    });
  }

  private touched(): void {
    this.changes++;
    const now = Date.now();
    // A session turning stale changes reads as a claim running out does: both end the list cache's stamp.
    const staleAts = [...this.sessions.values()].map(staleAtMs).filter((at) => at > now);
    this.nextExpiry = Math.min(...[...this.held.values()].map((h) => h.untilMs), ...staleAts);
    for (const follower of this.followers) follower();
  }

  private dropExpired(): void {
    const now = Date.now();
    if (this.followers.size) {
      const from = this.staleCheckedAt;
      this.turnedStale.push(
        ...[...this.sessions.values()].filter((session) => staleAtMs(session) > from && staleAtMs(session) <= now),
      );
    }
    this.staleCheckedAt = now;
    for (const [key, held] of this.held) {
      if (held.untilMs > now) continue;
      this.held.delete(key);
      if (this.followers.size) this.expired.push(held.stored);
    }
    this.touched();
  }
}

export function claimedMessage(claim: StoredClaim): string {
  return `card "${claim.cardId}" is claimed by agent ${claim.agent} until ${claim.until}`;
}
