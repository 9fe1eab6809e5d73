import { randomBytes } from 'node:crypto';
import type * as Pg from 'pg';
import { log } from '../../core/log';
import type { ChangeKind, ChangeSource } from '../changeSource';

/**
 * The one channel every writer notifies on. The payload is `kind:seq:sender`: what has news, up to
 * which sequence number (empty when the log's numbers are not known to the writer), and which
 * process sent it, so a process does not wake its own readers for its own writes (they know).
 */
export const CHANGES_CHANNEL = 'kanban_changes';
/** How the listening connection shows in pg_stat_activity. */
export const LISTENER_APPLICATION_NAME = 'kanban-listener';
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5000;

/** The payload of a notification (see CHANGES_CHANNEL). */
export function notificationPayload(kind: ChangeKind, seq: number | undefined, sender: string): string {
  return `${kind}:${seq ?? ''}:${sender}`;
}

/**
 * Other instances' committed changes, pushed by PostgreSQL: one connection of its own (a pooled
 * one would be handed to queries and lose its LISTEN on release) listens on CHANGES_CHANNEL, and
 * each notification wakes the readers of its kind. After a drop it connects again, backing off,
 * and wakes every reader once it listens again: what was notified meanwhile is lost, and each
 * reader catches up from its log.
 */
export class PostgresNotifier implements ChangeSource {
  /** This process's name in payloads. */
  readonly sender = randomBytes(6).toString('hex');
  private readonly watchers = new Map<ChangeKind, Set<() => void>>();
  private client: Pg.Client | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = RETRY_FIRST_MS;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly newClient: () => Pg.Client,
    private readonly label: string,
  ) {}

  /** Listen now; a failure is logged and retried in the background (the readers poll meanwhile). */
  async start(): Promise<void> {
    await this.listen();
  }

  watch(kind: ChangeKind, wake: () => void): () => void {
    let wakes = this.watchers.get(kind);
    if (!wakes) this.watchers.set(kind, (wakes = new Set()));
    wakes.add(wake);
    return () => wakes.delete(wake);
  }

  /** Whether the listening connection is up (status, tests). */
  get listening(): boolean {
    return this.client !== null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = this.newClient();
    // A connection the server ends (restart, pg_terminate_backend) reports an error, then ends.
    client.on('error', () => undefined);
    client.on('notification', (message) => this.deliver(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      this.retryLater(error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    client.on('end', () => this.dropped(client));
    this.client = client;
    this.retryMs = RETRY_FIRST_MS;
    if (this.failing) log.warn(`kanban: ${this.label} pushes changes again`);
    this.failing = false;
    this.wakeAll();
  }

  private dropped(client: Pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.retryLater(new Error('the listening connection was closed'));
  }

  private retryLater(error: Error): void {
    if (this.stopped) return;
    if (!this.failing)
      log.warn(
        `kanban: ${this.label} cannot listen for other instances' changes (${error.message}); they are read when it listens again, or at the next safety poll`,
      );
    this.failing = true;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.listen();
    }, delay);
    this.retryTimer.unref();
  }

  private deliver(payload: string | undefined): void {
    const [kind, , sender] = (payload ?? '').split(':') as [ChangeKind, string, string | undefined];
    if (sender === this.sender) return;
    for (const wake of this.watchers.get(kind) ?? []) this.wake(wake);
  }

  /** Every reader reads its log once: the catch-up after a (re)connect. */
  private wakeAll(): void {
    for (const wakes of this.watchers.values()) for (const wake of wakes) this.wake(wake);
  }

  private wake(wake: () => void): void {
    try {
      wake();
    } catch (error) {
      log.error(`kanban: a reader of ${this.label} changes failed`, error);
    }
  }
}
