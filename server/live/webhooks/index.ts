import * as path from 'node:path';
import { subscriptionMatches } from '../../core/events';
import type { Workspace } from '../../service/workspace';
import type { AttemptRecord } from './attemptHistory';
import { keepSecretsOutOfConfig } from './configSecrets';
import { secretStoreFor } from './secretStore';
import { findWebhook } from './webhookRegistry';
import { DEFAULT_BACKOFF_MS, WebhookQueue, type WebhookQueueOptions } from './webhookQueue';
import { log } from '../../core/log';

export type WebhookOptions = Pick<WebhookQueueOptions, 'backoffMs' | 'maxAttempts' | 'timeoutMs' | 'env' | 'maxConcurrentDeliveries'>;

export interface RunningWebhooks {
  stop(): Promise<void>;
}

/** The queue serving each open workspace, for the routes that read its history. */
const queues = new WeakMap<Workspace, WebhookQueue>();

/** `KANBAN_WEBHOOK_BACKOFF_MS` shortens or lengthens the first retry delay (tests use a few ms). */
export function backoffFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.KANBAN_WEBHOOK_BACKOFF_MS;
  if (raw === undefined || raw === '') return DEFAULT_BACKOFF_MS;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    log.warn(`kanban: KANBAN_WEBHOOK_BACKOFF_MS="${raw}" is not a number of milliseconds; using ${DEFAULT_BACKOFF_MS}`);
    return DEFAULT_BACKOFF_MS;
  }
  return value;
}

/**
 * Deliver the workspace's events to its webhooks until `stop`. Registrations are read from the
 * current config at each event, so API edits and hand edits of `.kanban.json` apply at once.
 */
export async function startWebhooks(ws: Workspace, options: WebhookOptions = {}): Promise<RunningWebhooks> {
  const env = options.env ?? process.env;
  // A literal secret in an older .kanban.json leaves the file on the next change the service makes.
  keepSecretsOutOfConfig(ws);
  const queue = new WebhookQueue({
    stateDir: path.join(ws.kanbanDir, '.state'),
    lookup: (id) => ws.config.webhooks.find((hook) => hook.id === id),
    backoffMs: options.backoffMs ?? backoffFromEnv(env),
    maxAttempts: options.maxAttempts,
    timeoutMs: options.timeoutMs,
    maxConcurrentDeliveries: options.maxConcurrentDeliveries,
    env,
    secrets: secretStoreFor(ws),
  });
  await queue.start();
  const unsubscribe = ws.events.on((event) => {
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
      queues.delete(ws);
      await queue.stop();
    },
  };
}

/** Recent attempts for one webhook, newest first (404 for an unknown id). */
export function listDeliveries(ws: Workspace, webhookId: string): AttemptRecord[] {
  findWebhook(ws, webhookId);
  return queues.get(ws)?.history.list(webhookId) ?? [];
}

/** Called after a webhook is deleted, so its history goes with it. */
export function forgetWebhook(ws: Workspace, webhookId: string): void {
  queues.get(ws)?.forget(webhookId);
}
