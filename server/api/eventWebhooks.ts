import { EVENT_NAMES } from '../core/events';
import { EVENT_TABLE } from '../core/eventPayloads';

/**
 * The OpenAPI `webhooks` section: one entry per event, the body a webhook receives for it. The
 * WebSocket and the board UI get the same `event`, `boardId`, `card` and `data`, so this is where a
 * client generator finds every event's payload. Built from the event table, so it cannot drift.
 */
export function eventWebhooks(): Record<string, unknown> {
  return Object.fromEntries(EVENT_NAMES.map((name) => [name, { post: deliveryOperation(name) }]));
}

function deliveryOperation(name: (typeof EVENT_NAMES)[number]) {
  const spec = EVENT_TABLE[name];
  return {
    operationId: `${name.replace(/\.(\w)/g, (_dot, letter: string) => letter.toUpperCase())}Event`,
    summary: `${name}: ${spec.description}`,
    description:
      'Sent to each active webhook subscribed to this event (by name, `prefix.*` or `*`), with the headers X-Webhook-Event, X-Webhook-Delivery (the body `id`) and, with a secret, X-Webhook-Signature.',
    tags: ['Webhooks'],
    // The receiver checks X-Webhook-Signature (HMAC of the body with the webhook's secret), not a token.
    security: [],
    requestBody: { required: true, content: { 'application/json': { schema: deliveryBodySchema(name) } } },
    responses: { '200': { description: 'any 2xx answer ends the delivery; anything else is retried with backoff' } },
  };
}

function deliveryBodySchema(name: (typeof EVENT_NAMES)[number]) {
  const spec = EVENT_TABLE[name];
  const required = ['id', 'event', 'timestamp', 'boardId', 'data', ...(spec.card ? ['card'] : [])];
  return {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'the delivery id: the same on every retry, so a receiver can de-duplicate' },
      event: { const: name, type: 'string' },
      timestamp: { type: 'string', description: 'when the change happened (ISO 8601)' },
      boardId: { type: ['string', 'null'], description: 'the board, or null for a workspace-wide change' },
      ...(spec.card
        ? { card: { $ref: '#/components/schemas/Task', description: "the card's read model after the change" } }
        : {}),
      data: spec.data,
    },
    required,
  };
}
