import { forgetWebhook, listDeliveries } from '../../live/webhooks';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from '../../live/webhooks/webhookRegistry';
import { defineRoutes, type JsonSchema } from '../route';
import { object } from '../schemas';
import { webhookDeliveryListSchema, webhookListSchema, webhookSchema } from '../responseSchemas';

const url: JsonSchema = {
  type: 'string',
  maxLength: 2048,
  description: 'http(s) URL that receives a POST per matching event',
};
const events: JsonSchema = {
  type: 'array',
  items: { type: 'string', maxLength: 100 },
  maxItems: 100,
  description: 'event names (task.created, ...), "*" for all, or "prefix.*" such as "task.*"',
};
const secret = 'HMAC-SHA256 signing key, write-only; "${NAME}" reads environment variable NAME at delivery time';

const webhookCreateSchema = object({ url, events, secret: { type: 'string', maxLength: 1024, description: secret } }, [
  'url',
  'events',
]);

const webhookUpdateSchema = object({
  url,
  events,
  secret: { type: ['string', 'null'], maxLength: 1024, description: `${secret}; null removes it` },
  active: { type: 'boolean', description: 'false pauses delivery (pending retries are dropped)' },
});

/** Webhook registrations and their delivery history. Admin-only once auth is configured. */
export const webhookRoutes = defineRoutes([
  {
    method: 'get',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Registered webhooks (secrets shown only as hasSecret)',
    errors: [401, 403],
    response: webhookListSchema,
    handle: ({ ws }) => listWebhooks(ws),
  },
  {
    method: 'post',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Register a webhook',
    body: webhookCreateSchema,
    success: 201,
    errors: [401, 403],
    response: webhookSchema,
    handle: ({ ws, body }) => createWebhook(ws, body),
  },
  {
    method: 'put',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Change a webhook (url, events, secret, active)',
    body: webhookUpdateSchema,
    errors: [401, 403, 404],
    response: webhookSchema,
    handle: ({ ws, params, body }) => updateWebhook(ws, params.id, body),
  },
  {
    method: 'delete',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Remove a webhook and its delivery history',
    errors: [401, 403, 404],
    response: webhookSchema,
    handle: async ({ ws, params }) => {
      const removed = await deleteWebhook(ws, params.id);
      await forgetWebhook(ws, params.id);
      return removed;
    },
  },
  {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    tag: 'Webhooks',
    summary: 'Last 50 delivery attempts, newest first, with status and error',
    returns:
      'attempts: deliveryId, event, attempt, status (delivered|retrying|failed|dropped), httpStatus, error, at, durationMs, nextAttemptAt',
    errors: [401, 403, 404],
    response: webhookDeliveryListSchema,
    handle: ({ ws, params }) => listDeliveries(ws, params.id),
  },
]);
