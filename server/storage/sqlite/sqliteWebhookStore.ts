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
import type { SqliteDatabase } from './sqliteDatabase';

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
  created_at: number;
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * Pending webhook deliveries, their leases and the delivery log in a SQLite file that several
 * processes on one machine share (see SharedWebhookStore and the MySQL store). Times are epoch
 * milliseconds of the one machine's clock. A claim is a read and an update in one BEGIN IMMEDIATE
 * transaction: the file's write lock lets one process claim at a time.
 */
export class SqliteWebhookStore implements SharedWebhookStore {
  constructor(
    private readonly db: SqliteDatabase,
    readonly instanceId: string,
  ) {}

  async insert(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const now = Date.now();
    await this.db.transaction(async (tx) => {
      for (const d of deliveries) {
        await tx.run(
          'INSERT INTO kanban_webhook_deliveries (id, webhook_id, event, body, attempts, due_at, created_at, origin) VALUES (?, ?, ?, ?, 0, ?, ?, ?)',
          [d.id, d.webhookId, d.event, d.rawBody, now, now, this.instanceId],
        );
      }
    });
  }

  async claim(limit: number, leaseMs: number, skip: string[] = []): Promise<ClaimedDelivery[]> {
    const claim = randomUUID();
    const skipping = skip.length > 0 ? ` AND webhook_id NOT IN (${marks(skip.length)})` : '';
    return this.db.transaction(async (tx) => {
      const now = Date.now();
      const rows = await tx.all<DeliveryRow>(
        `SELECT id, webhook_id, event, body, attempts, created_at FROM kanban_webhook_deliveries
         WHERE due_at <= ? AND (lease_until IS NULL OR lease_until < ?)${skipping} ORDER BY due_at LIMIT ?`,
        [now, now, ...skip, limit],
      );
      if (rows.length === 0) return [];
      await tx.run(
        `UPDATE kanban_webhook_deliveries SET owner = ?, claim = ?, lease_until = ? WHERE id IN (${marks(rows.length)})`,
        [this.instanceId, claim, now + leaseMs, ...rows.map((r) => r.id)],
      );
      return rows.map((r) => ({
        id: r.id,
        webhookId: r.webhook_id,
        event: r.event,
        rawBody: r.body,
        claim,
        attempts: Number(r.attempts),
        ageMs: now - Number(r.created_at),
      }));
    });
  }

  async renew(claims: { id: string; claim: string }[], leaseMs: number): Promise<number> {
    if (claims.length === 0) return 0;
    const where = claims.map(() => '(id = ? AND claim = ?)').join(' OR ');
    return this.db.transaction((tx) =>
      tx.run(`UPDATE kanban_webhook_deliveries SET lease_until = ? WHERE ${where}`, [
        Date.now() + leaseMs,
        ...claims.flatMap((c) => [c.id, c.claim]),
      ]),
    );
  }

  settle(id: string, claim: string, log?: SharedAttempt): Promise<boolean> {
    return settleDelivery(this.db, id, claim, log);
  }

  reschedule(id: string, claim: string, attempts: number, delayMs: number, log?: SharedAttempt): Promise<boolean> {
    return rescheduleDelivery(this.db, { id, claim, attempts }, { sql: '?', param: Date.now() + delayMs }, log);
  }

  async attempts(webhookId: string, limit: number): Promise<SharedAttempt[]> {
    return (await this.db.all<AttemptRow>(SELECT_ATTEMPTS, [webhookId, limit])).map(toAttempt);
  }

  async forget(webhookId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('DELETE FROM kanban_webhook_deliveries WHERE webhook_id = ?', [webhookId]);
      await tx.run('DELETE FROM kanban_webhook_attempts WHERE webhook_id = ?', [webhookId]);
    });
  }

  async prune(webhookId: string, keep: number): Promise<void> {
    await this.db.transaction((tx) => tx.run(PRUNE_ATTEMPTS, [webhookId, webhookId, keep]));
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
