import { randomUUID } from 'node:crypto';
import type { ClaimedDelivery, NewDelivery } from '../webhookDeliveryStore';
import { ServerWebhookStore, toClaimedDelivery, type DeliveryRow } from '../sql/serverWebhookStore';
import type { ChangeSource } from '../changeSource';
import type { PostgresDatabase } from './postgresDatabase';

/** The database's clock, read afresh by each statement (now() would stop at its transaction's start). */
const NOW = 'clock_timestamp()';
/** A span of `?` milliseconds, as an interval the clock can be moved by. */
const MILLISECONDS = "(CAST(? AS DOUBLE PRECISION) * INTERVAL '1 millisecond')";

/**
 * Webhook deliveries in the shared PostgreSQL database. A claim is one UPDATE over the due rows it
 * could lock: SKIP LOCKED leaves rows another instance is claiming at the same moment to that
 * instance, so two claims never wait for each other and never take the same row.
 */
export class PostgresWebhookStore extends ServerWebhookStore {
  constructor(
    protected readonly db: PostgresDatabase,
    instanceId: string,
  ) {
    super(db, instanceId, { now: NOW, later: (ms) => ({ sql: `${NOW} + ${MILLISECONDS}`, param: ms }) });
  }

  get changes(): ChangeSource | undefined {
    return this.db.changes;
  }

  async insert(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const { values, params } = this.newRows(deliveries);
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
    const skipping = this.skipping(skip);
    const until = this.clock.later(leaseMs);
    // One statement in autocommit: no round trips for BEGIN and COMMIT on every poll.
    const rows = await this.db.all<DeliveryRow>(
      `WITH taken AS (
         UPDATE kanban_webhook_deliveries SET owner = ?, claim = ?, lease_until = ${until.sql}
         WHERE id IN (
           SELECT id FROM kanban_webhook_deliveries
           WHERE due_at <= ${NOW} AND (lease_until IS NULL OR lease_until < ${NOW})${skipping}
           ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED
         )
         RETURNING id, webhook_id, event, body, claim, attempts, due_at,
           FLOOR(EXTRACT(EPOCH FROM ${NOW} - created_at) * 1000) AS age_ms
       )
       SELECT id, webhook_id, event, body, claim, attempts, age_ms FROM taken ORDER BY due_at`,
      [this.instanceId, claim, until.param, ...skip, limit],
    );
    return rows.map(toClaimedDelivery);
  }
}
