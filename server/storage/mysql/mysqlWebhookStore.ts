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
import type { MysqlDatabase } from './mysqlDatabase';

const NOW = 'UTC_TIMESTAMP(3)';
const CONTENDED = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

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
 * Pending webhook deliveries, their leases and the delivery log in the shared MySQL database (see
 * SharedWebhookStore). A claim is one UPDATE: InnoDB locks each row it takes, so of two instances
 * claiming at once, the second re-reads a row the first took and finds its lease taken.
 */
export class MysqlWebhookStore implements SharedWebhookStore {
  constructor(
    private readonly db: MysqlDatabase,
    readonly instanceId: string,
  ) {}

  async insert(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const values = deliveries.map(() => `(?, ?, ?, ?, 0, ${NOW}, ${NOW}, ?)`).join(', ');
    const params = deliveries.flatMap((d) => [d.id, d.webhookId, d.event, d.rawBody, this.instanceId]);
    await this.db.all(
      `INSERT INTO kanban_webhook_deliveries (id, webhook_id, event, body, attempts, due_at, created_at, origin) VALUES ${values}`,
      params,
    );
  }

  async claim(limit: number, leaseMs: number, skip: string[] = []): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const skipping = skip.length > 0 ? ` AND webhook_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
    let taken: number;
    try {
      // One statement in autocommit: no round trips for BEGIN and COMMIT on every poll.
      const [result] = await this.db.pool.query(
        `UPDATE kanban_webhook_deliveries SET owner = ?, claim = ?, lease_until = ${NOW} + INTERVAL ? MICROSECOND
         WHERE due_at <= ${NOW} AND (lease_until IS NULL OR lease_until < ${NOW})${skipping} ORDER BY due_at LIMIT ?`,
        [this.instanceId, claim, Math.round(leaseMs * 1000), ...skip, limit],
      );
      taken = (result as { affectedRows: number }).affectedRows;
    } catch (error) {
      // Two instances claiming at once: InnoDB rolled this one back; the next poll claims again.
      if (CONTENDED.has((error as { code?: string }).code ?? '')) return [];
      throw error;
    }
    if (taken === 0) return [];
    const rows = await this.db.all<DeliveryRow>(
      `SELECT id, webhook_id, event, body, claim, attempts, TIMESTAMPDIFF(MICROSECOND, created_at, ${NOW}) DIV 1000 AS age_ms
       FROM kanban_webhook_deliveries WHERE claim = ? ORDER BY due_at`,
      [claim],
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
    const [result] = await this.db.pool.query(
      `UPDATE kanban_webhook_deliveries SET lease_until = ${NOW} + INTERVAL ? MICROSECOND WHERE ${where}`,
      [Math.round(leaseMs * 1000), ...claims.flatMap((c) => [c.id, c.claim])],
    );
    return (result as { affectedRows: number }).affectedRows;
  }

  settle(id: string, claim: string, log?: SharedAttempt): Promise<boolean> {
    return settleDelivery(this.db, id, claim, log);
  }

  reschedule(id: string, claim: string, attempts: number, delayMs: number, log?: SharedAttempt): Promise<boolean> {
    return rescheduleDelivery(
      this.db,
      { id, claim, attempts },
      { sql: `${NOW} + INTERVAL ? MICROSECOND`, param: Math.round(delayMs * 1000) },
      log,
    );
  }

  async attempts(webhookId: string, limit: number): Promise<SharedAttempt[]> {
    return (await this.db.all<AttemptRow>(SELECT_ATTEMPTS, [webhookId, limit])).map(toAttempt);
  }

  async forget(webhookId: string): Promise<void> {
    await this.db.all('DELETE FROM kanban_webhook_deliveries WHERE webhook_id = ?', [webhookId]);
    await this.db.all('DELETE FROM kanban_webhook_attempts WHERE webhook_id = ?', [webhookId]);
  }

  async prune(webhookId: string, keep: number): Promise<void> {
    await this.db.all(PRUNE_ATTEMPTS, [webhookId, webhookId, keep]);
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
          'INSERT INTO kanban_webhook_secrets (name, value) VALUES (?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)',
          [name, value],
        );
      }
      for (const name of drop) await tx.run('DELETE FROM kanban_webhook_secrets WHERE name = ?', [name]);
    });
  }
}
