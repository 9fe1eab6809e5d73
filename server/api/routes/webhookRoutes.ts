import { forgetWebhook, listDeliveries } from '../../live/webhooks';
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from '../../live/webhooks/webhookRegistry';
import { defineRoutes, route } from '../route';
import { WebhookCreateBody, WebhookUpdateBody } from '../../core/shapes/requests/webhooks';
import { webhookDeliveryListSchema, webhookListSchema, webhookSchema } from '../responseSchemas';

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
  route({
    method: 'post',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'Register a webhook',
    body: WebhookCreateBody,
    success: 201,
    errors: [401, 403],
    response: webhookSchema,
    handle: ({ ws, body }) => createWebhook(ws, body),
  }),
  route({
    method: 'put',
    path: '/webhooks/{id}',
    tag: 'Webhooks',
    summary: 'Change a webhook (url, events, secret, active)',
    body: WebhookUpdateBody,
    errors: [401, 403, 404],
    response: webhookSchema,
    handle: ({ ws, params, body }) => updateWebhook(ws, params.id, body),
  }),
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
