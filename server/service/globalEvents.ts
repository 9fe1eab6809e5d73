import { AsyncResource } from 'node:async_hooks';
import { isPeerEvent, type EventListener, type ServiceEvent } from '../core/events';
import { log } from '../core/log';
import type { SharedEventStore } from '../storage/cardStore';
import { wakeOnChanges } from '../storage/changeSource';
import { catchUpSharedConfig } from './sharedConfig';
import type { WorkspaceState } from './workspaceState';

/** What WebSocket clients follow: a revision, the events after it, and what a reconnecting client missed. */
export interface LiveStream {
  readonly revision: number;
  on(listener: EventListener): () => void;
  /** The events after `since` up to `revision`, or null when they are no longer known (re-fetch). */
  replay(since: number): Promise<ServiceEvent[] | null>;
}

/**
 * Polled, the log is read at least this often, so another instance's change reaches clients within
 * a second; pushed (PostgreSQL), it is read on each push and polled only as a safety net.
 */
const MAX_POLL_MS = 200;
const PAGE = 500;
/** A failed append is tried again after this, doubling up to the maximum, until the log takes it. */
const APPEND_RETRY_FIRST_MS = 100;
const APPEND_RETRY_MAX_MS = 2000;

/**
 * The global event stream over a shared database (MySQL). Each instance appends the events of its
 * own changes (not those mirroring another instance's: `data.peer`) to `kanban_events`, and every
 * instance, the author too, delivers the log to its clients in log order with `revision = seq`.
 * So the revision is the same on every instance and a client may reconnect anywhere.
 *
 * Consistency with reads: another instance's event is delivered only after this instance has read
 * the change log and the shared configuration again and applied what they held (the author appends
 * after its write committed), so a client that GETs the card after the event sees the new state.
 *
 * An event is in the log before the request that caused it is answered (`beforeAnswer`). An append
 * that fails (the database went away just after the write committed) is tried again until the log
 * takes it, and the events after it wait behind it, so every instance's clients still hear of the
 * change, in order. While it waits, requests are answered without waiting for the log: they would
 * otherwise hang until the database is back. Only an instance stopped while the log is unreachable
 * loses the events it still holds.
 */
export class GlobalEventLog implements LiveStream {
  private delivered = 0;
  private readonly listeners = new Set<EventListener>();
  private appendTail: Promise<void> = Promise.resolve();
  private pendingAppends = 0;
  /** An append failed and is being tried again: answers stop waiting for the log meanwhile. */
  private retrying = false;
  /** Settles when an append fails, so answers already waiting for the log stop waiting. */
  private outage = signal();
  private stopped = false;
  /** Set by `detach`: the log is no longer read, and what it held is not replayed. */
  private detached = false;
  private round: Promise<void> | null = null;
  private again = false;
  private stopWaking: (() => void) | null = null;
  private failing = false;
  private stopListening: (() => void) | null = null;
  /**
   * Rounds run in the async context of the start, not in that of the mutation whose append asked
   * for one: inside a mutation's context, waiting for the mutation queue would not wait at all.
   */
  private readonly context = new AsyncResource('kanban.globalEvents');

  constructor(
    private readonly ws: WorkspaceState,
    private readonly store: SharedEventStore,
    private readonly pollIntervalMs: number,
  ) {}

  get revision(): number {
    return this.delivered;
  }

  /** Start after everything logged so far (the index was just loaded with the state it describes). */
  async start(): Promise<void> {
    this.delivered = await this.store.head();
    this.stopListening = this.ws.events.on((event) => {
      if (!isPeerEvent(event)) this.append(event);
    });
    this.ws.beforeAnswer.add(this.appended);
    this.stopWaking = wakeOnChanges(this.store.changes, 'events', Math.min(this.pollIntervalMs, MAX_POLL_MS), () =>
      this.kick(),
    );
  }

  on(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async replay(since: number): Promise<ServiceEvent[] | null> {
    if (this.detached) return since === this.delivered ? [] : null;
    const through = this.delivered;
    if (since > through) return since <= (await this.store.head()) ? [] : null;
    if (since === through) return [];
    const oldest = await this.store.oldest();
    if (oldest === null || oldest > since + 1) return null;
    const rows = await this.store.after(since, through - since, through);
    if (rows.length !== through - since) return null;
    return rows.map((row) => toEvent(row.seq, row.body));
  }

  /** Appends run one at a time, in emit order, so an instance's own events keep their order. */
  private append(event: ServiceEvent): void {
    const body = JSON.stringify({ ...event, revision: undefined });
    this.pendingAppends++;
    this.appendTail = this.appendTail
      .then(() => this.appendUntilTaken(event.event, body))
      .then(() => this.kick())
      .finally(() => this.pendingAppends--);
  }

  private async appendUntilTaken(name: string, body: string): Promise<void> {
    for (let delay = APPEND_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, APPEND_RETRY_MAX_MS)) {
      try {
        await this.store.append(this.store.origin, body);
        if (this.retrying) {
          log.warn('kanban: the shared event log takes events again; the ones held back are written');
          this.retrying = false;
          this.outage = signal();
        }
        return;
      } catch (error) {
        if (this.stopped) {
          log.warn(
            `kanban: stopping with the event ${name} not written to the shared event log; clients of other instances miss it (${(error as Error).message})`,
          );
          return;
        }
        if (!this.retrying) {
          log.warn(
            `kanban: the event ${name} could not be written to the shared event log; trying again until it can (${(error as Error).message})`,
          );
          this.retrying = true;
          this.outage.settle();
        }
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  /** Barrier before a request is answered: its events are in the log (never rejects), unless the log is unreachable. */
  private appended = (): Promise<void> | undefined =>
    this.pendingAppends > 0 && !this.retrying ? Promise.race([this.appendTail, this.outage.settled]) : undefined;

  private kick(): void {
    if (this.round) {
      this.again = true;
      return;
    }
    this.round = this.context
      .runInAsyncScope(async () => {
        do {
          this.again = false;
          await this.deliverNew();
        } while (this.again);
      })
      .finally(() => (this.round = null));
  }

  private async deliverNew(): Promise<void> {
    try {
      for (;;) {
        const rows = await this.store.after(this.delivered, PAGE);
        if (rows.length === 0) break;
        if (rows.some((row) => row.origin !== this.store.origin)) await this.catchUp();
        for (const row of rows) this.deliver(toEvent(row.seq, row.body));
        if (rows.length < PAGE) break;
      }
      if (this.failing) log.warn('kanban: the shared event log can be read again');
      this.failing = false;
    } catch (error) {
      if (!this.failing) log.warn(`kanban: cannot read the shared event log: ${(error as Error).message}`);
      this.failing = true;
    }
  }

  /** Apply what other instances wrote before telling clients about it (see the class comment). */
  private catchUp(): Promise<void> {
    return catchUpWithPeers(this.ws);
  }

  private deliver(event: ServiceEvent): void {
    this.delivered = Math.max(this.delivered, event.revision);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error('kanban: a listener of the shared event log failed:', error);
      }
    }
  }

  stop(): void {
    // An append being tried again gets one more try (flush waits for it), then gives up.
    this.stopped = true;
    this.stopWaking?.();
    this.stopWaking = null;
    this.stopListening?.();
    this.ws.beforeAnswer.delete(this.appended);
  }

  /**
   * The workspace no longer serves the shared database (a migration out of it): stop following
   * its log and tell clients this instance's own events, numbered on from the last one delivered.
   * A client asking to replay from before now is told to read everything again.
   */
  detach(): void {
    this.stop();
    this.stopListening = this.ws.events.on((event) => this.deliver({ ...event, revision: this.delivered + 1 }));
    this.detached = true;
  }

  /** Wait for appends under way (a clean stop answers nothing it has not logged). */
  async flush(): Promise<void> {
    await this.appendTail;
  }
}

function signal(): { settled: Promise<void>; settle(): void } {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { settled, settle };
}

function toEvent(seq: number, body: string): ServiceEvent {
  return { ...(JSON.parse(body) as ServiceEvent), revision: seq };
}

/**
 * Over a shared database: read what other instances wrote (cards, configuration, claims) and apply it now,
 * rather than at the next poll. Used before another instance's event is delivered and before an
 * `If-Match` is checked, so a version read from another instance is compared with the current row.
 * Call outside the mutation queue; nothing to do for a store of one's own.
 */
export async function catchUpWithPeers(ws: WorkspaceState): Promise<void> {
  if (!ws.shared) return;
  await ws.store.catchUp?.();
  await catchUpSharedConfig(ws);
  // Claims too: a client hearing another instance's task.claimed reads the claim here.
  await ws.claims.store.catchUp?.();
  // The changes just read are applied in the mutation queue: wait for it to pass them.
  await ws.mutate(async () => undefined);
}
