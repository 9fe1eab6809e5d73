import { randomUUID } from 'node:crypto';
import type { ClaimedDelivery, NewDelivery, SharedAttempt, SharedWebhookStore } from '../webhookDeliveryStore';
import {
  PRUNE_ATTEMPTS,
  SELECT_ATTEMPTS,
  rescheduleDelivery,
  settleDelivery,
  toAttempt,
  type AttemptRow,
} from '../sql/webhookRows';
import type { ChangeSource } from '../changeSource';
import type { PostgresDatabase } from './postgresDatabase';

/** The database's clock, read afresh by each statement (now() would stop at its transaction's start). */
const NOW = 'clock_timestamp()';
/** A span of `?` milliseconds, as an interval the clock can be moved by. */
const MILLISECONDS = "(CAST(? AS DOUBLE PRECISION) * INTERVAL '1 millisecond')";

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  claim: string;
  attempts: number;
  age_ms: number | string;
}

/**
 * Pending webhook deliveries, their leases and the delivery log in the shared PostgreSQL database
 * (see SharedWebhookStore). A claim is one UPDATE over the due rows it could lock: SKIP LOCKED
 * leaves rows another instance is claiming at the same moment to that instance, so two claims never
 * wait for each other and never take the same row.
 */
export class PostgresWebhookStore implements SharedWebhookStore {
  constructor(
    private readonly db: PostgresDatabase,
    readonly instanceId: string,
  ) {}

  get changes(): ChangeSource | undefined {
    return this.db.changes;
  }

  async insert(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const values = deliveries.map(() => `(?, ?, ?, ?, 0, ${NOW}, ${NOW}, ?)`).join(', ');
    const params = deliveries.flatMap((d) => [d.id, d.webhookId, d.event, d.rawBody, this.instanceId]);
    // One statement, still announced at its commit (every instance's worker may take the rows).
    await this.db.all(
      `WITH inserted AS (
         INSERT INTO kanban_webhook_deliveries (id, webhook_id, event, body, attempts, due_at, created_at, origin) VALUES ${values}
       )
       SELECT pg_notify(?, ?)`,
      [...params, ...this.db.notification('webhooks')],
    );
  }

  async claim(limit: number, leaseMs: number, skip: string[] = []): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const skipping = skip.length > 0 ? ` AND webhook_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
    // One statement in autocommit: no round trips for BEGIN and COMMIT on every poll.
    const rows = await this.db.all<DeliveryRow>(
      `WITH taken AS (
         UPDATE kanban_webhook_deliveries SET owner = ?, claim = ?, lease_until = ${NOW} + ${MILLISECONDS}
         WHERE id IN (
           SELECT id FROM kanban_webhook_deliveries
           WHERE due_at <= ${NOW} AND (lease_until IS NULL OR lease_until < ${NOW})${skipping}
           ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED
         )
         RETURNING id, webhook_id, event, body, claim, attempts, due_at,
           FLOOR(EXTRACT(EPOCH FROM ${NOW} - created_at) * 1000) AS age_ms
       )
       SELECT id, webhook_id, event, body, claim, attempts, age_ms FROM taken ORDER BY due_at`,
      [this.instanceId, claim, leaseMs, ...skip, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      event: r.event,
      rawBody: r.body,
      claim: r.claim,
      attempts: Number(r.attempts),
      ageMs: Number(r.age_ms),
    }));
  }

  async renew(claims: { id: string; claim: string }[], leaseMs: number): Promise<number> {
    if (claims.length === 0) return 0;
    const where = claims.map(() => '(id = ? AND claim = ?)').join(' OR ');
    // One statement, no transaction: a renewal should cost as little as possible, and a failed one
    // is simply made again on the next beat.
    return this.db.run(`UPDATE kanban_webhook_deliveries SET lease_until = ${NOW} + ${MILLISECONDS} WHERE ${where}`, [
      leaseMs,
      ...claims.flatMap((c) => [c.id, c.claim]),
    ]);
  }

  settle(id: string, claim: string, log?: SharedAttempt): Promise<boolean> {
    return settleDelivery(this.db, id, claim, log);
  }

  reschedule(id: string, claim: string, attempts: number, delayMs: number, log?: SharedAttempt): Promise<boolean> {
    return rescheduleDelivery(
      this.db,
      { id, claim, attempts },
      { sql: `${NOW} + ${MILLISECONDS}`, param: delayMs },
      log,
    );
  }

  async attempts(webhookId: string, limit: number): Promise<SharedAttempt[]> {
    return (await this.db.all<AttemptRow>(SELECT_ATTEMPTS, [webhookId, limit])).map(toAttempt);
  }

  async forget(webhookId: string): Promise<void> {
    await this.db.run('DELETE FROM kanban_webhook_deliveries WHERE webhook_id = ?', [webhookId]);
    await this.db.run('DELETE FROM kanban_webhook_attempts WHERE webhook_id = ?', [webhookId]);
  }

  async prune(webhookId: string, keep: number): Promise<void> {
    await this.db.run(PRUNE_ATTEMPTS, [webhookId, webhookId, keep]);
  }

  async secret(name: string): Promise<string | undefined> {
    const [row] = await this.db.all<{ value: string }>('SELECT value FROM kanban_webhook_secrets WHERE name = ?', [
      name,
    ]);
    return row?.value;
  }

  async updateSecrets(set: Record<string, string>, drop: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const [name, value] of Object.entries(set)) {
        await tx.run(
          'INSERT INTO kanban_webhook_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
          [name, value],
        );
      }
      for (const name of drop) await tx.run('DELETE FROM kanban_webhook_secrets WHERE name = ?', [name]);
    });
  }
}
