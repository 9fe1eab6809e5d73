import type { ClaimedDelivery, NewDelivery, SharedAttempt, SharedWebhookStore } from '../webhookDeliveryStore';
import type { PooledSqlDatabase } from './pooledSqlDatabase';
import { insertReplacing } from './sqlSharedConfig';
import { PRUNE_ATTEMPTS, SELECT_ATTEMPTS, rescheduleDelivery, settleDelivery, toAttempt } from './webhookRows';
import type { AttemptRow } from './webhookRows';

/** A claimed delivery as both server dialects read it back. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  claim: string;
  attempts: number;
  age_ms: number | string;
}

export function toClaimedDelivery(r: DeliveryRow): ClaimedDelivery {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    event: r.event,
    rawBody: r.body,
    claim: r.claim,
    attempts: Number(r.attempts),
    ageMs: Number(r.age_ms),
  };
}

/** The database clock in a dialect's words: times are the server's, so every instance agrees on them. */
export interface DatabaseClock {
  /** The clock now, read afresh by each statement. */
  now: string;
  /** The clock moved `ms` milliseconds on: the SQL, with its one parameter. */
  later(ms: number): { sql: string; param: number };
}

/**
 * Pending webhook deliveries, their leases and the delivery log in a database server that every
 * instance shares (see SharedWebhookStore). What a dialect says its own way is how it inserts and
 * claims (locking), and its clock; the rest is the same statements.
 */
export abstract class ServerWebhookStore implements SharedWebhookStore {
  constructor(
    protected readonly db: PooledSqlDatabase,
    readonly instanceId: string,
    protected readonly clock: DatabaseClock,
  ) {}

  abstract insert(deliveries: NewDelivery[]): Promise<void>;
  abstract claim(limit: number, leaseMs: number, skip?: string[]): Promise<ClaimedDelivery[]>;

  /** The clause that leaves out deliveries of the webhooks in `skip` (held back), for a claim. */
  protected skipping(skip: string[]): string {
    return skip.length > 0 ? ` AND webhook_id NOT IN (${skip.map(() => '?').join(', ')})` : '';
  }

  /** The `VALUES` rows of new deliveries (due now) and their parameters, for the dialect's insert. */
  protected newRows(deliveries: NewDelivery[]): { values: string; params: string[] } {
    const { now } = this.clock;
    return {
      values: deliveries.map(() => `(?, ?, ?, ?, 0, ${now}, ${now}, ?)`).join(', '),
      params: deliveries.flatMap((d) => [d.id, d.webhookId, d.event, d.rawBody, this.instanceId]),
    };
  }

  async renew(claims: { id: string; claim: string }[], leaseMs: number): Promise<number> {
    if (claims.length === 0) return 0;
    const where = claims.map(() => '(id = ? AND claim = ?)').join(' OR ');
    const until = this.clock.later(leaseMs);
    // One statement, no transaction: a renewal should cost as little as possible, and a failed one
    // is simply made again on the next beat.
    return this.db.run(`UPDATE kanban_webhook_deliveries SET lease_until = ${until.sql} WHERE ${where}`, [
      until.param,
      ...claims.flatMap((c) => [c.id, c.claim]),
    ]);
  }

  settle(id: string, claim: string, log?: SharedAttempt): Promise<boolean> {
    return settleDelivery(this.db, id, claim, log);
  }

  reschedule(id: string, claim: string, attempts: number, delayMs: number, log?: SharedAttempt): Promise<boolean> {
    return rescheduleDelivery(this.db, { id, claim, attempts }, this.clock.later(delayMs), log);
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
    const upsert = insertReplacing(this.db, 'INSERT INTO kanban_webhook_secrets (name, value) VALUES (?, ?)', 'name', [
      'value',
    ]);
    await this.db.transaction(async (tx) => {
      for (const [name, value] of Object.entries(set)) await tx.run(upsert, [name, value]);
      for (const name of drop) await tx.run('DELETE FROM kanban_webhook_secrets WHERE name = ?', [name]);
    });
  }
}
