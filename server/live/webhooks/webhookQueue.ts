import { randomUUID } from 'node:crypto';
import type { ServiceEvent } from '../../core/events';
import type { WebhookConfig } from '../../config/types';
import { AttemptHistory, type AttemptRecord, type AttemptStatus } from './attemptHistory';
import { sharedBodyOf } from './deliveryBody';
import { Fifo } from './fifo';
import { PendingStore, rawBodyOf, type PendingDelivery } from './pendingStore';
import { resolveSecret, type StoredSecrets } from './secrets';
import { DELIVERY_TIMEOUT_MS, sendDelivery, type AttemptOutcome } from './sendDelivery';
import { log } from '../../core/log';

export interface WebhookQueueOptions {
  /** `.kanban/.state`: pending deliveries and the attempt history live below it. */
  stateDir: string;
  /** The registration as it is now; read at every attempt so edits apply to pending deliveries. */
  lookup(webhookId: string): WebhookConfig | undefined;
  /** Delay before the second attempt; each later one doubles it (default 1000 ms). */
  backoffMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  /** Requests in flight to one webhook at a time, so one dead receiver cannot starve the others. */
  concurrencyPerWebhook?: number;
  /** Requests in flight to all webhooks together, so many webhooks cannot crowd out API requests. */
  maxConcurrentDeliveries?: number;
  /** Deliveries waiting per webhook before new ones are dropped (and recorded as such). */
  maxPendingPerWebhook?: number;
  env?: NodeJS.ProcessEnv;
  /** Where `${secret:NAME}` references are read, at every attempt. */
  secrets?: StoredSecrets;
}

export const DEFAULT_BACKOFF_MS = 1000;
export const MAX_ATTEMPTS = 5;

/**
 * The deliveries of one webhook: those ready to go now, and how many exist in all. While the
 * receiver keeps failing, the lane sends one attempt at a time, after a pause that doubles with each
 * consecutive failure: a receiver that is down costs a probe now and then, not an attempt per
 * delivery, so its backlog does not compete with API requests for the CPU.
 */
class Lane {
  /** Ready deliveries not tried yet, and ready retries; retries go first (see `nextReady`). */
  private readonly fresh = new Fifo<PendingDelivery>();
  private readonly retries = new Fifo<PendingDelivery>();
  inFlight = 0;
  pending = 0;
  /** Failed attempts since the last success. */
  failures = 0;
  /** Attempts started so far, and how many of those had started when the last failure was counted. */
  started = 0;
  countedThrough = 0;
  /** Epoch ms before which a failing lane sends nothing. */
  resumeAt = 0;
  resumeTimer: NodeJS.Timeout | null = null;

  constructor(readonly webhookId: string) {}

  get readyCount(): number {
    return this.fresh.length + this.retries.length;
  }

  pushReady(delivery: PendingDelivery): void {
    (delivery.attempts > 0 ? this.retries : this.fresh).push(delivery);
  }

  /**
   * Retries are the older deliveries, so they go first: a backlog drains oldest first, and the
   * probe of a failing lane is a delivery the receiver has already been offered.
   */
  nextReady(): PendingDelivery | undefined {
    return this.retries.shift() ?? this.fresh.shift();
  }
}

/**
 * Durable, retrying delivery of events to webhooks. `enqueue` only records the delivery and returns;
 * the network work happens later, so no API request waits for a receiver. Every pending delivery is
 * also a file, so a restart resumes where the last run stopped (at-least-once: a receiver may see a
 * delivery id twice if the process died between its answer and our bookkeeping).
 */
export class WebhookQueue {
  readonly history: AttemptHistory;
  private readonly store: PendingStore;
  private readonly lanes = new Map<string, Lane>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopController = new AbortController();
  private readonly backoffMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly maxConcurrent: number;
  /** Lanes with deliveries ready that wait for a free slot under `maxConcurrent`. */
  private readonly waitingForSlot = new Set<Lane>();
  private readonly maxPending: number;
  /** The write holding the newest queued delivery, until it is on disk. */
  private unsaved: Promise<void> | null = null;
  /** Lanes given new deliveries in this turn of the event loop, pumped on the next (see enqueue). */
  private readonly toPump = new Set<Lane>();

  constructor(private readonly options: WebhookQueueOptions) {
    this.store = new PendingStore(options.stateDir);
    this.history = new AttemptHistory(options.stateDir);
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.concurrency = options.concurrencyPerWebhook ?? 4;
    this.maxConcurrent = options.maxConcurrentDeliveries ?? 16;
    this.maxPending = options.maxPendingPerWebhook ?? 1000;
  }

  private get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  /** Load the history and resume the deliveries an earlier run left pending. */
  async start(): Promise<void> {
    await this.history.load();
    const pending = await this.store.loadAll();
    pending.sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    for (const delivery of pending) {
      this.lane(delivery.webhookId).pending++;
      this.schedule(delivery);
    }
  }

  /** Queue one delivery of `event` to a webhook. Synchronous and cheap: `durable()` tells when it is saved. */
  enqueue(webhookId: string, event: ServiceEvent): void {
    if (this.stopped) return;
    const id = randomUUID();
    const lane = this.lane(webhookId);
    if (lane.pending >= this.maxPending) {
      this.record(webhookId, { id, event: event.event }, 0, 'dropped', {
        ok: false,
        httpStatus: null,
        durationMs: 0,
        error: `not queued: ${lane.pending} deliveries to this webhook are already waiting`,
      });
      return;
    }
    const delivery: PendingDelivery = {
      id,
      webhookId,
      event: event.event,
      body: sharedBodyOf(event),
      attempts: 0,
      nextAttemptAt: Date.now(),
    };
    lane.pending++;
    const saved = this.store.save(delivery);
    if (this.unsaved !== saved) {
      this.unsaved = saved;
      void saved.then(() => {
        if (this.unsaved === saved) this.unsaved = null;
      });
    }
    lane.pushReady(delivery);
    // A lane that waits for its attempts in flight or for the end of its pause is pumped when those
    // end: a dead receiver's new deliveries only join its queue.
    if (lane.inFlight >= this.concurrency || (lane.failures > 0 && (lane.inFlight > 0 || lane.resumeTimer))) return;
    // Sending starts on a later turn of the event loop, never inside the request that caused the
    // event; one callback for every lane an event (or a burst of them) reached.
    if (this.toPump.size === 0) setImmediate(this.pumpQueued);
    this.toPump.add(lane);
  }

  private readonly pumpQueued = (): void => {
    for (const lane of this.toPump) this.pump(lane);
    this.toPump.clear();
  };

  /**
   * Resolves once every delivery queued so far is on disk, or answers undefined when they already
   * are, so a caller with nothing to wait for does not even yield. Batches are written in order,
   * so the newest one being done means all are.
   */
  durable(): Promise<void> | undefined {
    return this.unsaved ?? undefined;
  }

  /** Recent attempts of one webhook, newest first. */
  list(webhookId: string): AttemptRecord[] {
    return this.history.list(webhookId);
  }

  /** Forget a deleted webhook's history; its pending deliveries are dropped when their turn comes. */
  forget(webhookId: string): void {
    this.history.forget(webhookId);
  }

  /** Stop sending: retries are cancelled and requests in flight aborted; both stay pending on disk. */
  async stop(): Promise<void> {
    if (!this.stopped) this.stopController.abort();
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    await Promise.all([...this.inFlight]);
    await this.store.close();
    await this.history.flush();
  }

  private lane(webhookId: string): Lane {
    let lane = this.lanes.get(webhookId);
    if (!lane) this.lanes.set(webhookId, (lane = new Lane(webhookId)));
    return lane;
  }

  private schedule(delivery: PendingDelivery): void {
    const delay = delivery.nextAttemptAt - Date.now();
    const lane = this.lane(delivery.webhookId);
    if (delay <= 0) {
      lane.pushReady(delivery);
      this.pump(lane);
      return;
    }
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      lane.pushReady(delivery);
      this.pump(lane);
    }, delay);
    // Pending retries are on disk; they must not keep a finished process alive.
    timer.unref();
    this.retryTimers.add(timer);
  }

  private pump(lane: Lane): void {
    while (!this.stopped && lane.readyCount > 0 && lane.inFlight < this.concurrency && !this.holdsBack(lane)) {
      if (this.inFlight.size >= this.maxConcurrent) {
        this.waitingForSlot.add(lane);
        return;
      }
      const delivery = lane.nextReady()!;
      lane.inFlight++;
      const work: Promise<void> = this.attempt(delivery)
        .catch((error) => log.error('kanban: webhook delivery failed unexpectedly:', error))
        .finally(() => {
          lane.inFlight--;
          this.inFlight.delete(work);
          this.pump(lane);
          this.pumpWaiting();
        });
      this.inFlight.add(work);
    }
  }

  /** Hand free slots to the lanes that waited for one, oldest first. */
  private pumpWaiting(): void {
    for (const lane of this.waitingForSlot) {
      if (this.inFlight.size >= this.maxConcurrent) return;
      this.waitingForSlot.delete(lane);
      this.pump(lane);
    }
  }

  /**
   * Whether a failing lane must wait: for its one attempt in flight, or for the end of its pause
   * (then a timer pumps it again). A deleted or paused webhook's deliveries are only settled, which
   * sends nothing, so they are never held back.
   */
  private holdsBack(lane: Lane): boolean {
    if (lane.failures === 0 || !this.options.lookup(lane.webhookId)?.active) return false;
    if (lane.inFlight > 0) return true;
    const wait = lane.resumeAt - Date.now();
    if (wait <= 0) return false;
    if (!lane.resumeTimer) {
      lane.resumeTimer = setTimeout(() => {
        lane.resumeTimer = null;
        this.retryTimers.delete(timer);
        this.pump(lane);
      }, wait);
      const timer = lane.resumeTimer;
      timer.unref();
      this.retryTimers.add(timer);
    }
    return true;
  }

  /**
   * A failed attempt pauses the lane as long as the delivery's own next retry would wait, at most.
   * Attempts that were already in flight when a failure was counted fail for the same reason, so a
   * burst of them is one step of the pause, not one each.
   */
  private noteOutcome(lane: Lane, ok: boolean, attemptNumber: number): void {
    if (ok) {
      lane.failures = 0;
      return;
    }
    if (lane.failures > 0 && attemptNumber <= lane.countedThrough) return;
    lane.countedThrough = lane.started;
    lane.failures++;
    const steps = Math.min(lane.failures, this.maxAttempts - 1) - 1;
    lane.resumeAt = Date.now() + this.backoffMs * 2 ** Math.max(0, steps);
  }

  private async attempt(delivery: PendingDelivery): Promise<void> {
    const hook = this.options.lookup(delivery.webhookId);
    if (!hook) return this.finish(delivery);
    if (!hook.active) {
      this.record(hook.id, delivery, delivery.attempts, 'dropped', {
        ok: false,
        httpStatus: null,
        durationMs: 0,
        error: 'webhook is inactive; delivery dropped',
      });
      return this.finish(delivery);
    }
    const secret = await resolveSecret(hook.secret, this.options.env, this.options.secrets);
    if (!secret.ok) {
      // A missing variable does not appear by waiting: retrying would only repeat the failure.
      this.record(hook.id, delivery, delivery.attempts + 1, 'failed', {
        ok: false,
        httpStatus: null,
        durationMs: 0,
        error: secret.error,
      });
      return this.finish(delivery);
    }
    const lane = this.lane(delivery.webhookId);
    const attemptNumber = ++lane.started;
    const outcome = await sendDelivery({
      url: hook.url,
      deliveryId: delivery.id,
      event: delivery.event,
      rawBody: rawBodyOf(delivery),
      secret: secret.value,
      timeoutMs: this.timeoutMs,
      stopSignal: this.stopController.signal,
    });
    // Cut short by stop(): not a real attempt; the file on disk still describes the delivery.
    if (!outcome.ok && this.stopped) return;
    this.noteOutcome(lane, outcome.ok, attemptNumber);
    delivery.attempts++;
    if (outcome.ok) {
      this.record(hook.id, delivery, delivery.attempts, 'delivered', outcome);
      return this.finish(delivery);
    }
    if (delivery.attempts >= this.maxAttempts) {
      this.record(hook.id, delivery, delivery.attempts, 'failed', outcome);
      return this.finish(delivery);
    }
    delivery.nextAttemptAt = Date.now() + this.backoffMs * 2 ** (delivery.attempts - 1);
    this.record(hook.id, delivery, delivery.attempts, 'retrying', outcome, delivery.nextAttemptAt);
    void this.store.save(delivery);
    this.schedule(delivery);
  }

  /** The delivery is settled (sent, given up or dropped): forget it here and on disk. */
  private finish(delivery: PendingDelivery): void {
    const lane = this.lane(delivery.webhookId);
    lane.pending--;
    void this.store.remove(delivery.id);
    if (lane.pending === 0 && lane.inFlight <= 1 && lane.readyCount === 0) this.lanes.delete(delivery.webhookId);
  }

  private record(
    webhookId: string,
    delivery: { id: string; event: string },
    attempt: number,
    status: AttemptStatus,
    outcome: AttemptOutcome,
    nextAttemptAt?: number,
  ): void {
    // An attempt that finishes after its webhook was deleted must not bring the history back.
    if (!this.options.lookup(webhookId)) return;
    const entry: AttemptRecord = {
      deliveryId: delivery.id,
      event: delivery.event,
      attempt,
      status,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
      at: new Date(Date.now() - outcome.durationMs).toISOString(),
      durationMs: outcome.durationMs,
      ...(nextAttemptAt !== undefined ? { nextAttemptAt: new Date(nextAttemptAt).toISOString() } : {}),
    };
    this.history.record(webhookId, entry);
  }
}
