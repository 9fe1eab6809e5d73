import { randomUUID } from 'node:crypto';
import type { ServiceEvent } from '../../core/events';
import type { WebhookConfig } from '../../config/types';
import { log } from '../../core/log';
import type {
  ClaimedDelivery,
  NewDelivery,
  SharedAttempt,
  SharedWebhookStore,
} from '../../storage/webhookDeliveryStore';
import { HISTORY_LIMIT, type AttemptRecord, type AttemptStatus } from './attemptHistory';
import { deliveryBody } from './deliveryBody';
import { resolveSecret, type StoredSecrets } from './secrets';
import { DELIVERY_TIMEOUT_MS, sendDelivery, type AttemptOutcome } from './sendDelivery';
import { DEFAULT_BACKOFF_MS, MAX_ATTEMPTS } from './webhookQueue';
import { SAFETY_POLL_MS, wakeOnChanges } from '../../storage/changeSource';

export interface SharedQueueOptions {
  store: SharedWebhookStore;
  lookup(webhookId: string): WebhookConfig | undefined;
  /** How long a claim lasts unless renewed; a dead instance's deliveries are taken over after it. */
  leaseMs: number;
  /** How often the database is asked for due deliveries (retries, other instances' leftovers). */
  pollMs: number;
  backoffMs?: number;
  maxAttempts?: number;
  timeoutMs?: number;
  maxConcurrentDeliveries?: number;
  env?: NodeJS.ProcessEnv;
  secrets?: StoredSecrets;
}

export const DEFAULT_LEASE_MS = 30_000;
/**
 * A delivery whose webhook this instance does not know may be younger than the config change that
 * registered it (other instances' changes arrive by polling); it is left for later until this age,
 * after which the webhook is taken as deleted.
 */
const UNKNOWN_WEBHOOK_GRACE_MS = 60_000;
/** The log of a webhook is trimmed to HISTORY_LIMIT after this many attempts recorded here. */
const PRUNE_EVERY = 20;
/** A failed insert (database away) is tried again after this pause, until it succeeds or we stop. */
const INSERT_RETRY_MS = 1000;

interface InFlight {
  id: string;
  claim: string;
}

/**
 * Webhook delivery over a database several instances share. The instance that made an event
 * inserts one row per matching webhook before the request is answered; any instance's worker
 * claims due rows with a lease (renewed while the attempt runs), sends, then deletes the row or
 * reschedules it with backoff. An instance killed mid-attempt leaves its lease to expire, and
 * another instance takes the delivery over: at least once, with the same delivery id on every try.
 */
export class SharedWebhookQueue {
  private readonly backoffMs: number;
  private readonly maxAttempts: number;
  private readonly timeoutMs: number;
  private readonly maxConcurrent: number;
  private readonly stopController = new AbortController();
  /** Deliveries enqueued since the running insert took its batch. */
  private buffer: NewDelivery[] = [];
  private inserting: Promise<void> | null = null;
  /** Resolves when the batch holding the newest enqueued delivery is inserted (or given up on for now). */
  private unsaved: Promise<void> | null = null;
  private readonly inFlight = new Map<string, { claim: InFlight; webhookId: string; work: Promise<void> }>();
  private claiming: Promise<void> | null = null;
  /** Another claim was asked while one ran: run one more after it. */
  private claimAgain = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Stops the poll for due deliveries (or, when the store pushes, the pushes and the safety poll). */
  private stopWaking: (() => void) | null = null;
  private readonly recordedSincePrune = new Map<string, number>();
  /** Webhooks whose receiver failed here lately: consecutive failures, and no claims before `resumeAt`. */
  private readonly failing = new Map<string, { failures: number; resumeAt: number }>();

  constructor(private readonly options: SharedQueueOptions) {
    this.backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
    // Not bounded by the lease: the lease is renewed while the attempt runs.
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.maxConcurrent = options.maxConcurrentDeliveries ?? 16;
  }

  private get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  async start(): Promise<void> {
    // Nothing announces that a lease ran out: a dead instance's deliveries are looked for once per lease.
    const safetyMs = Math.min(SAFETY_POLL_MS, this.options.leaseMs);
    const { store, pollMs } = this.options;
    this.stopWaking = wakeOnChanges(store.changes, 'webhooks', pollMs, () => this.wake(), safetyMs);
    // Renewed three times per lease, so one slow or failed renewal does not lose it.
    this.every(Math.max(50, this.options.leaseMs / 3), () => void this.renew());
    this.wake();
  }

  /** Queue one delivery; the insert is batched with the others of the same moment (see `durable`). */
  enqueue(webhookId: string, event: ServiceEvent): void {
    if (this.stopped) return;
    const id = randomUUID();
    this.buffer.push({ id, webhookId, event: event.event, rawBody: deliveryBody(id, event) });
    this.unsaved = this.startInsert();
  }

  /** Resolves once every delivery enqueued so far is in the database, or undefined when they are. */
  durable(): Promise<void> | undefined {
    return this.unsaved ?? undefined;
  }

  async list(webhookId: string): Promise<AttemptRecord[]> {
    const rows = await this.options.store.attempts(webhookId, HISTORY_LIMIT);
    return rows.map((r) => ({
      deliveryId: r.deliveryId,
      event: r.event,
      attempt: r.attempt,
      status: r.status as AttemptStatus,
      httpStatus: r.httpStatus,
      error: r.error,
      at: r.at,
      durationMs: r.durationMs,
      ...(r.nextAttemptAt ? { nextAttemptAt: r.nextAttemptAt } : {}),
    }));
  }

  /** A deleted webhook: its pending deliveries and its log go, for every instance. */
  async forget(webhookId: string): Promise<void> {
    await this.options.store.forget(webhookId);
  }

  /**
   * Stop: enqueued deliveries are inserted, attempts in flight are cut short and their deliveries
   * made due again at once, so another instance takes them over without waiting for the lease.
   */
  async stop(): Promise<void> {
    if (!this.stopped) this.stopController.abort();
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
    this.stopWaking?.();
    await this.unsaved;
    await this.claiming;
    await Promise.all([...this.inFlight.values()].map((f) => f.work));
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Group commit: one insert runs at a time; what is enqueued meanwhile goes in the next. */
  private startInsert(): Promise<void> {
    const run = (this.inserting ?? Promise.resolve()).then(() => this.insertBuffered());
    this.inserting = run;
    void run.finally(() => {
      if (this.inserting === run) this.inserting = null;
      if (this.unsaved === run) this.unsaved = null;
    });
    return run;
  }

  private async insertBuffered(): Promise<void> {
    const batch = this.buffer;
    if (batch.length === 0) return;
    this.buffer = [];
    try {
      await this.options.store.insert(batch);
      this.wake();
    } catch (error) {
      // Kept and tried again; the API answer is not held up by a database that is away.
      log.error(
        `kanban: could not queue ${batch.length} webhook deliveries in the database (trying again): ${(error as Error).message}`,
      );
      this.buffer = [...batch, ...this.buffer];
      if (!this.stopped) this.after(INSERT_RETRY_MS, () => void this.startInsert());
    }
  }

  /** Claim due deliveries for the free slots; one claim query at a time. */
  private wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = this.claimFree()
      .catch((error) => log.warn(`kanban: could not claim webhook deliveries: ${(error as Error).message}`))
      .finally(() => {
        this.claiming = null;
        if (this.claimAgain) {
          this.claimAgain = false;
          this.wake();
        }
      });
  }

  private async claimFree(): Promise<void> {
    const free = this.maxConcurrent - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await this.options.store.claim(free, this.options.leaseMs, this.heldBack());
    for (const delivery of claimed) this.begin(delivery);
    // A full batch: more may be due; the slots that free up ask again.
    if (claimed.length === free) this.claimAgain = true;
  }

  /**
   * Webhooks this instance claims nothing for now: a failing receiver gets one attempt at a time
   * from here, after a pause that doubles with each consecutive failure (like the file queue's
   * lanes), so a dead receiver costs a probe now and then, not an attempt per pending delivery.
   */
  private heldBack(): string[] {
    const now = Date.now();
    const held: string[] = [];
    for (const [webhookId, state] of this.failing) {
      const probing = [...this.inFlight.values()].some((f) => f.webhookId === webhookId);
      if (probing || state.resumeAt > now) held.push(webhookId);
    }
    return held;
  }

  private noteOutcome(webhookId: string, ok: boolean): void {
    if (ok) {
      this.failing.delete(webhookId);
      return;
    }
    const failures = (this.failing.get(webhookId)?.failures ?? 0) + 1;
    const pause = this.backoffMs * 2 ** (Math.min(failures, this.maxAttempts - 1) - 1);
    this.failing.set(webhookId, { failures, resumeAt: Date.now() + pause });
    this.after(pause, () => this.wake());
  }

  private begin(delivery: ClaimedDelivery): void {
    const work = this.attempt(delivery)
      .catch((error) => log.error('kanban: webhook delivery failed unexpectedly:', error))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
    this.inFlight.set(delivery.id, {
      claim: { id: delivery.id, claim: delivery.claim },
      webhookId: delivery.webhookId,
      work,
    });
  }

  private async renew(): Promise<void> {
    const claims = [...this.inFlight.values()].map((f) => f.claim);
    await this.options.store
      .renew(claims, this.options.leaseMs)
      .catch((error) => log.warn(`kanban: could not renew webhook delivery leases: ${(error as Error).message}`));
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const { store } = this.options;
    const hook = this.options.lookup(d.webhookId);
    if (!hook) {
      if (d.ageMs > UNKNOWN_WEBHOOK_GRACE_MS) await store.settle(d.id, d.claim);
      else {
        await store.reschedule(d.id, d.claim, d.attempts, this.options.pollMs);
        // Pushed stores poll seldom: look again when it is due, not at the next safety poll.
        this.after(this.options.pollMs, () => this.wake());
      }
      return;
    }
    if (!hook.active) {
      await this.settle(
        d,
        this.entry(hook.id, d, d.attempts, 'dropped', {
          ok: false,
          httpStatus: null,
          durationMs: 0,
          error: 'webhook is inactive; delivery dropped',
        }),
      );
      return;
    }
    const secret = await resolveSecret(hook.secret, this.options.env, this.options.secrets);
    if (!secret.ok) {
      await this.settle(
        d,
        this.entry(hook.id, d, d.attempts + 1, 'failed', {
          ok: false,
          httpStatus: null,
          durationMs: 0,
          error: secret.error,
        }),
      );
      return;
    }
    const outcome = await sendDelivery({
      url: hook.url,
      deliveryId: d.id,
      event: d.event,
      rawBody: d.rawBody,
      secret: secret.value,
      timeoutMs: this.timeoutMs,
      stopSignal: this.stopController.signal,
    });
    // Cut short by stop(): not a real attempt; due again at once for another instance.
    if (!outcome.ok && this.stopped) {
      await store.reschedule(d.id, d.claim, d.attempts, 0).catch(() => undefined);
      return;
    }
    const attempts = d.attempts + 1;
    this.noteOutcome(hook.id, outcome.ok);
    if (outcome.ok || attempts >= this.maxAttempts) {
      const ours = await this.settle(d, this.entry(hook.id, d, attempts, outcome.ok ? 'delivered' : 'failed', outcome));
      if (!ours)
        log.warn(
          `kanban: webhook delivery ${d.id} was no longer held by this instance when it ended (its webhook was deleted, or its lease expired and another instance may send it again)`,
        );
      return;
    }
    const delay = this.backoffMs * 2 ** (attempts - 1);
    const entry = this.entry(hook.id, d, attempts, 'retrying', outcome, Date.now() + delay);
    await store.reschedule(d.id, d.claim, attempts, delay, entry);
    this.logged(entry);
    // Due then: this instance looks at once rather than at its next poll.
    this.after(delay, () => this.wake());
  }

  /** Delete the row and write its log line in one commit (one fsync, not two). */
  private async settle(d: ClaimedDelivery, entry: SharedAttempt | undefined): Promise<boolean> {
    const ours = await this.options.store.settle(d.id, d.claim, entry);
    this.logged(entry);
    return ours;
  }

  /** The log line of an attempt; none once the webhook is deleted, so the log does not come back. */
  private entry(
    webhookId: string,
    d: ClaimedDelivery,
    attempt: number,
    status: AttemptStatus,
    outcome: AttemptOutcome,
    nextAttemptAt?: number,
  ): SharedAttempt | undefined {
    if (!this.options.lookup(webhookId)) return undefined;
    return {
      webhookId,
      deliveryId: d.id,
      event: d.event,
      attempt,
      status,
      httpStatus: outcome.httpStatus,
      error: outcome.error,
      at: new Date(Date.now() - outcome.durationMs).toISOString(),
      durationMs: outcome.durationMs,
      nextAttemptAt: nextAttemptAt === undefined ? null : new Date(nextAttemptAt).toISOString(),
      instance: this.options.store.instanceId,
    };
  }

  /** Trim a webhook's log to HISTORY_LIMIT every PRUNE_EVERY lines written here. */
  private logged(entry: SharedAttempt | undefined): void {
    if (!entry) return;
    const count = (this.recordedSincePrune.get(entry.webhookId) ?? 0) + 1;
    this.recordedSincePrune.set(entry.webhookId, count % PRUNE_EVERY);
    if (count < PRUNE_EVERY) return;
    this.options.store
      .prune(entry.webhookId, HISTORY_LIMIT)
      .catch((error) => log.warn(`kanban: could not trim the webhook delivery log: ${(error as Error).message}`));
  }
}
