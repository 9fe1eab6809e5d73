import * as path from 'node:path';
import { isPeerEvent, subscriptionMatches } from '../../core/events';
import type { StoreSwitchStep, Workspace } from '../../service/workspace';
import type { AttemptRecord } from './attemptHistory';
import { keepSecretsOutOfConfig } from './configSecrets';
import { carrySecrets, forgetSecretStore, secretStoreFor } from './secretStore';
import { findWebhook } from './webhookRegistry';
import { DEFAULT_BACKOFF_MS, WebhookQueue, type WebhookQueueOptions } from './webhookQueue';
import { DEFAULT_LEASE_MS, SharedWebhookQueue } from './sharedQueue';
import type { ServiceEvent } from '../../core/events';
import { log } from '../../core/log';

export type WebhookOptions = Pick<
  WebhookQueueOptions,
  'backoffMs' | 'maxAttempts' | 'timeoutMs' | 'env' | 'maxConcurrentDeliveries'
> & {
  /** Over a shared database: how long a claim on a delivery lasts unless renewed. */
  leaseMs?: number;
};

/** What the routes and the event listener need of either queue (files, or a shared database). */
interface DeliveryQueue {
  start(): Promise<void>;
  enqueue(webhookId: string, event: ServiceEvent): void;
  durable(): Promise<void> | undefined;
  list(webhookId: string): AttemptRecord[] | Promise<AttemptRecord[]>;
  forget(webhookId: string): void | Promise<void>;
  stop(): Promise<void>;
}

export interface RunningWebhooks {
  stop(): Promise<void>;
}

/** The queue serving each open workspace, for the routes that read its history. */
const queues = new WeakMap<Workspace, DeliveryQueue>();

function millisecondsFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    log.warn(`kanban: ${name}="${raw}" is not a number of milliseconds; using ${fallback}`);
    return fallback;
  }
  return value;
}

/** `KANBAN_WEBHOOK_BACKOFF_MS` shortens or lengthens the first retry delay (tests use a few ms). */
export function backoffFromEnv(env: NodeJS.ProcessEnv): number {
  return millisecondsFromEnv(env, 'KANBAN_WEBHOOK_BACKOFF_MS', DEFAULT_BACKOFF_MS);
}

/**
 * Over a shared database, deliveries go through its tables so each is sent once by some instance;
 * otherwise through the files under `.kanban/.state`.
 */
function createQueue(ws: Workspace, options: WebhookOptions, env: NodeJS.ProcessEnv): DeliveryQueue {
  const common = {
    lookup: (id: string) => ws.config.webhooks.find((hook) => hook.id === id),
    backoffMs: options.backoffMs ?? backoffFromEnv(env),
    maxAttempts: options.maxAttempts,
    timeoutMs: options.timeoutMs,
    maxConcurrentDeliveries: options.maxConcurrentDeliveries,
    env,
    secrets: secretStoreFor(ws),
  };
  const shared = ws.store.sharedWebhooks?.();
  if (!shared) return new WebhookQueue({ ...common, stateDir: path.join(ws.kanbanDir, '.state') });
  return new SharedWebhookQueue({
    ...common,
    store: shared,
    // KANBAN_WEBHOOK_LEASE_MS: tests shorten it to see a killed instance's deliveries taken over.
    leaseMs:
      options.leaseMs ?? (millisecondsFromEnv(env, 'KANBAN_WEBHOOK_LEASE_MS', DEFAULT_LEASE_MS) || DEFAULT_LEASE_MS),
    pollMs: (ws.store as { pollIntervalMs?: number }).pollIntervalMs ?? 1000,
  });
}

/**
 * Deliver the workspace's events to its webhooks until `stop`. Registrations are read from the
 * current config at each event, so API edits and hand edits of `.kanban.json` apply at once.
 */
export async function startWebhooks(ws: Workspace, options: WebhookOptions = {}): Promise<RunningWebhooks> {
  const env = options.env ?? process.env;
  // A literal secret in an older .kanban.json leaves the file on the next change the service makes.
  keepSecretsOutOfConfig(ws);
  let queue = createQueue(ws, options, env);
  await queue.start();
  // A migration moves the secrets to the new store, then the queue onto it: the previous store closes next.
  const followMigration: StoreSwitchStep = {
    carry: (target) => carrySecrets(ws, target),
    async switched() {
      forgetSecretStore(ws);
      const previous = queue;
      queue = createQueue(ws, options, env);
      queues.set(ws, queue);
      await previous.stop();
      await queue.start();
    },
  };
  ws.storeSwitchSteps.add(followMigration);
  const unsubscribe = ws.events.on((event) => {
    // Another instance's change, whatever the store (a shared MySQL or SQLite database, a provider's
    // change feed): the instance that made it delivers it, so each event goes out once.
    if (isPeerEvent(event)) return;
    for (const hook of ws.config.webhooks) {
      if (hook.active && subscriptionMatches(hook.events, event.event)) queue.enqueue(hook.id, event);
    }
  });
  // At-least-once: a write acknowledged just before a crash must still produce its deliveries.
  const durable = () => queue.durable();
  ws.beforeAnswer.add(durable);
  queues.set(ws, queue);
  return {
    async stop() {
      unsubscribe();
      ws.beforeAnswer.delete(durable);
      ws.storeSwitchSteps.delete(followMigration);
      queues.delete(ws);
      await queue.stop();
    },
  };
}

/** Recent attempts for one webhook, newest first (404 for an unknown id); shared by all instances over a database. */
export async function listDeliveries(ws: Workspace, webhookId: string): Promise<AttemptRecord[]> {
  findWebhook(ws, webhookId);
  return (await queues.get(ws)?.list(webhookId)) ?? [];
}

/** Called after a webhook is deleted, so its history (and, over a database, its pending deliveries) goes with it. */
export async function forgetWebhook(ws: Workspace, webhookId: string): Promise<void> {
  await queues.get(ws)?.forget(webhookId);
}
