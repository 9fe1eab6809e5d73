import { randomUUID } from 'node:crypto';
import type { ClaimedDelivery, NewDelivery } from '../webhookDeliveryStore';
import { errorCode } from '../sql/pooledSqlDatabase';
import { ServerWebhookStore, toClaimedDelivery, type DeliveryRow } from '../sql/serverWebhookStore';
import type { MysqlDatabase } from './mysqlDatabase';

const NOW = 'UTC_TIMESTAMP(3)';
const CONTENDED = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

/**
 * Webhook deliveries in the shared MySQL database. A claim is one UPDATE: InnoDB locks each row it
 * takes, so of two instances claiming at once, the second re-reads a row the first took and finds
 * its lease taken.
 */
export class MysqlWebhookStore extends ServerWebhookStore {
  constructor(db: MysqlDatabase, instanceId: string) {
    super(db, instanceId, {
      now: NOW,
      later: (ms) => ({ sql: `${NOW} + INTERVAL ? MICROSECOND`, param: Math.round(ms * 1000) }),
    });
  }

  async insert(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const { values, params } = this.newRows(deliveries);
    await this.db.all(
      `INSERT INTO kanban_webhook_deliveries (id, webhook_id, event, body, attempts, due_at, created_at, origin) VALUES ${values}`,
      params,
    );
  }

  async claim(limit: number, leaseMs: number, skip: string[] = []): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const skipping = this.skipping(skip);
    const until = this.clock.later(leaseMs);
    let taken: number;
    try {
      // One statement in autocommit: no round trips for BEGIN and COMMIT on every poll.
      taken = await this.db.run(
        `UPDATE kanban_webhook_deliveries SET owner = ?, claim = ?, lease_until = ${until.sql}
         WHERE due_at <= ${NOW} AND (lease_until IS NULL OR lease_until < ${NOW})${skipping} ORDER BY due_at LIMIT ?`,
        [this.instanceId, claim, until.param, ...skip, limit],
      );
    } catch (error) {
      // Two instances claiming at once: InnoDB rolled this one back; the next poll claims again.
      if (CONTENDED.has(errorCode(error) ?? '')) return [];
      throw error;
    }
    if (taken === 0) return [];
    const rows = await this.db.all<DeliveryRow>(
      `SELECT id, webhook_id, event, body, claim, attempts, TIMESTAMPDIFF(MICROSECOND, created_at, ${NOW}) DIV 1000 AS age_ms
       FROM kanban_webhook_deliveries WHERE claim = ? ORDER BY due_at`,
      [claim],
    );
    return rows.map(toClaimedDelivery);
  }
}
