import type { SharedAttempt } from '../webhookDeliveryStore';
import type { SqlDatabase, SqlTransaction } from './sqlDatabase';

/** A row of `kanban_webhook_attempts`, the delivery log, as both dialects read it. */
export interface AttemptRow {
  webhook_id: string;
  delivery_id: string;
  event: string;
  attempt: number;
  status: string;
  http_status: number | null;
  error: string | null;
  at: string;
  duration_ms: number;
  next_attempt_at: string | null;
  instance: string;
}

export const SELECT_ATTEMPTS = `SELECT webhook_id, delivery_id, event, attempt, status, http_status, error, at, duration_ms, next_attempt_at, instance
  FROM kanban_webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?`;

export function insertAttempt(tx: SqlTransaction, a: SharedAttempt): Promise<number> {
  return tx.run(
    `INSERT INTO kanban_webhook_attempts (webhook_id, delivery_id, event, attempt, status, http_status, error, at, duration_ms, next_attempt_at, instance)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      a.webhookId,
      a.deliveryId,
      a.event,
      a.attempt,
      a.status,
      a.httpStatus,
      a.error,
      a.at,
      a.durationMs,
      a.nextAttemptAt,
      a.instance,
    ],
  );
}

export function toAttempt(r: AttemptRow): SharedAttempt {
  return {
    webhookId: r.webhook_id,
    deliveryId: r.delivery_id,
    event: r.event,
    attempt: Number(r.attempt),
    status: r.status,
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    error: r.error,
    at: r.at,
    durationMs: Number(r.duration_ms),
    nextAttemptAt: r.next_attempt_at,
    instance: r.instance,
  };
}

/** Keep the newest `keep` attempts of a webhook (the derived table lets MySQL read the table it deletes from). */
export const PRUNE_ATTEMPTS = `DELETE FROM kanban_webhook_attempts WHERE webhook_id = ? AND seq <= (
  SELECT seq FROM (SELECT seq FROM kanban_webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?) AS oldest_kept
)`;

/** A delivery done: its row goes, with its log line, only while this claim still holds it. */
export function settleDelivery(
  db: Pick<SqlDatabase, 'transaction'>,
  id: string,
  claim: string,
  log?: SharedAttempt,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx.run('DELETE FROM kanban_webhook_deliveries WHERE id = ? AND claim = ?', [id, claim]);
    if (log && changed === 1) await insertAttempt(tx, log);
    return changed === 1;
  });
}

/**
 * A failed delivery back in the queue for a later attempt, with its log line, only while this claim
 * still holds it. `dueAt` is the dialect's expression for the new due time and its one parameter
 * (MySQL counts from the database's clock, SQLite from this machine's).
 */
export function rescheduleDelivery(
  db: Pick<SqlDatabase, 'transaction' | 'announce'>,
  delivery: { id: string; claim: string; attempts: number },
  dueAt: { sql: string; param: number },
  log?: SharedAttempt,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const changed = await tx.run(
      `UPDATE kanban_webhook_deliveries SET attempts = ?, due_at = ${dueAt.sql}, owner = NULL, claim = NULL, lease_until = NULL WHERE id = ? AND claim = ?`,
      [delivery.attempts, dueAt.param, delivery.id, delivery.claim],
    );
    if (log && changed === 1) await insertAttempt(tx, log);
    // Handed back to be sent at once (this instance stops): another instance's worker should look now.
    if (changed === 1 && dueAt.param === 0) await db.announce?.(tx, 'webhooks');
    return changed === 1;
  });
}
