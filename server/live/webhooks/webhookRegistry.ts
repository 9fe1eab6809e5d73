import type { Static } from '@sinclair/typebox';
import type { WebhookSchema } from '../../core/shapes/webhook';
import { NotFoundError, ValidationError } from '../../core/errors';
import { isValidSubscription } from '../../core/events';
import { newWebhookId } from '../../core/ids';
import type { WebhookConfig } from '../../config/types';
import type { Workspace } from '../../service/workspace';
import { forgetStoredSecret, keepSecretsOutOfConfig } from './configSecrets';
import { secretProblem } from './secrets';
import type { WebhookCreateBody, WebhookUpdateBody } from '../../core/shapes/requests/webhooks';

/** A webhook as the API shows it: the secret is write-only, only its presence is visible. */
export type WebhookView = Static<typeof WebhookSchema>;

export function webhookView(hook: WebhookConfig): WebhookView {
  return {
    id: hook.id,
    url: hook.url,
    events: [...hook.events],
    active: hook.active,
    hasSecret: hook.secret !== undefined,
  };
}

export function listWebhooks(ws: Workspace): WebhookView[] {
  return ws.config.webhooks.map(webhookView);
}

export function findWebhook(ws: Workspace, id: string): WebhookConfig {
  const hook = ws.config.webhooks.find((h) => h.id === id);
  if (!hook) throw new NotFoundError(`webhook "${id}" not found; GET /api/webhooks lists the registered ones`);
  return hook;
}

export function checkWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError(`url "${url}" is not an absolute URL; use e.g. https://example.com/hook`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ValidationError(`url must use http or https, not ${parsed.protocol.replace(':', '')}`);
  }
  if (parsed.username || parsed.password) {
    // Credentials in a URL would be shown by GET /webhooks; a secret is the way to authenticate.
    throw new ValidationError('url must not contain a user name or password; use "secret" to sign deliveries instead');
  }
  return url;
}

/** Known event names, `*` or `prefix.*`, without duplicates, in the order given. */
export function checkEvents(events: string[]): string[] {
  if (events.length === 0)
    throw new ValidationError('events must list at least one event name, "*" or a "prefix.*" pattern');
  const unknown = events.filter((e) => !isValidSubscription(e));
  if (unknown.length) {
    throw new ValidationError(
      `unknown event subscription ${unknown.map((e) => `"${e}"`).join(', ')}; use an event name such as task.created, "*" or a prefix such as "task.*"`,
    );
  }
  return [...new Set(events)];
}

function checkSecret(secret: string): string {
  const problem = secretProblem(secret);
  if (problem) throw new ValidationError(problem);
  return secret;
}

export async function createWebhook(ws: Workspace, input: WebhookCreateBody): Promise<WebhookView> {
  // Also done by startWebhooks; here too so that no host can write a literal secret to the file.
  keepSecretsOutOfConfig(ws);
  return ws.mutate(async () => {
    const hook: WebhookConfig = {
      id: newWebhookId(),
      url: checkWebhookUrl(input.url),
      events: checkEvents(input.events),
      active: true,
    };
    if (input.secret !== undefined) hook.secret = checkSecret(input.secret);
    // Webhook changes emit no event: the event list has none for them, and a secret must never travel.
    await ws.updateConfig((draft) => {
      draft.webhooks.push(hook);
    });
    return webhookView(hook);
  });
}

export async function updateWebhook(ws: Workspace, id: string, input: WebhookUpdateBody): Promise<WebhookView> {
  keepSecretsOutOfConfig(ws);
  return ws.mutate(async () => {
    const current = findWebhook(ws, id);
    const next: WebhookConfig = { ...current, events: [...current.events] };
    if (input.url !== undefined) next.url = checkWebhookUrl(input.url);
    if (input.events !== undefined) next.events = checkEvents(input.events);
    if (input.active !== undefined) next.active = input.active;
    if (input.secret === null) delete next.secret;
    else if (input.secret !== undefined) next.secret = checkSecret(input.secret);
    await ws.updateConfig((draft) => {
      draft.webhooks = draft.webhooks.map((h) => (h.id === id ? next : h));
    });
    if (next.secret !== current.secret) await forgetStoredSecret(ws, current.secret);
    return webhookView(next);
  });
}

export async function deleteWebhook(ws: Workspace, id: string): Promise<WebhookView> {
  return ws.mutate(async () => {
    const current = findWebhook(ws, id);
    await ws.updateConfig((draft) => {
      draft.webhooks = draft.webhooks.filter((h) => h.id !== id);
    });
    await forgetStoredSecret(ws, current.secret);
    return webhookView(current);
  });
}
