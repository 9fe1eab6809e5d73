import type { ChangeSource } from './changeSource';

/**
 * Webhook deliveries kept in a database that several service instances share (MySQL): the author
 * instance of an event inserts one row per matching webhook, and any instance's worker claims due
 * rows under a lease, sends them, and settles or reschedules them. Times are the database's clock,
 * so instances with skewed clocks agree on what is due and on when a lease has expired.
 */
export interface NewDelivery {
  id: string;
  webhookId: string;
  event: string;
  rawBody: string;
}

/** A delivery this instance holds a lease on; `claim` proves it still does when it settles. */
export interface ClaimedDelivery extends NewDelivery {
  claim: string;
  /** Attempts made so far (by any instance). */
  attempts: number;
  /** Milliseconds since the delivery was inserted (database clock). */
  ageMs: number;
}

/** One attempt as the delivery log stores it (the fields of AttemptRecord, plus who made it). */
export interface SharedAttempt {
  webhookId: string;
  deliveryId: string;
  event: string;
  attempt: number;
  status: string;
  httpStatus: number | null;
  error: string | null;
  at: string;
  durationMs: number;
  nextAttemptAt: string | null;
  instance: string;
}

export interface SharedWebhookStore {
  /** This instance's id, the owner written on its claims. */
  readonly instanceId: string;
  insert(deliveries: NewDelivery[]): Promise<void>;
  /**
   * Atomically take up to `limit` due deliveries whose lease is free or expired, for `leaseMs`,
   * leaving those of the webhooks in `skip` (paused here after failures).
   */
  claim(limit: number, leaseMs: number, skip?: string[]): Promise<ClaimedDelivery[]>;
  /** Pushed news of inserts (kind `webhooks`), when the database can push; poll otherwise. */
  readonly changes?: ChangeSource;
  /** Extend the leases of deliveries still in flight; answers how many were still ours. */
  renew(claims: { id: string; claim: string }[], leaseMs: number): Promise<number>;
  /**
   * Delivered or given up: the row goes, and `log` (if any) is written in the same commit. False,
   * and no log line, when the row is no longer ours: its webhook was deleted (whose log must not
   * come back), or its lease expired and another instance took it over (which logs its own try).
   */
  settle(id: string, claim: string, log?: SharedAttempt): Promise<boolean>;
  /** Free the lease and make the delivery due again after `delayMs`, with its attempt count and log line. */
  reschedule(id: string, claim: string, attempts: number, delayMs: number, log?: SharedAttempt): Promise<boolean>;
  /** The newest `limit` attempts of one webhook, newest first. */
  attempts(webhookId: string, limit: number): Promise<SharedAttempt[]>;
  /** Drop a deleted webhook's pending deliveries and log. */
  forget(webhookId: string): Promise<void>;
  /** Keep the newest `keep` attempts of one webhook. */
  prune(webhookId: string, keep: number): Promise<void>;
  /** Webhook secrets (`${secret:NAME}`), shared so that any instance can sign any delivery. */
  secret(name: string): Promise<string | undefined>;
  updateSecrets(set: Record<string, string>, drop: string[]): Promise<void>;
}
