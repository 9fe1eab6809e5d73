import { Type } from '@sinclair/typebox';
import { named } from './names';
import { count, flag, nullableInteger, nullableText, choice, text, textList, time } from './parts';

/** Webhooks and their delivery attempts, as the webhook routes answer them. */

export const WebhookSchema = named(
  'Webhook',
  Type.Object(
    {
      id: text('wh_ and 16 hex characters'),
      url: text('receives a POST per matching event'),
      events: textList('event names, "*" or "prefix.*"'),
      active: flag('false while delivery is paused'),
      hasSecret: flag('whether deliveries are signed; the secret itself is never shown'),
    },
    { description: 'a registered webhook' },
  ),
);

export const ATTEMPT_STATUSES = ['delivered', 'retrying', 'failed', 'dropped'] as const;

export const WebhookDeliverySchema = named(
  'WebhookDelivery',
  Type.Object(
    {
      deliveryId: text('the X-Webhook-Delivery header and body id of the delivery'),
      event: text('event name'),
      attempt: count('1 for the first try; 0 when the delivery was dropped before any try'),
      status: choice(ATTEMPT_STATUSES, 'retrying: another attempt follows; failed: gave up; dropped: not sent'),
      httpStatus: nullableInteger("the receiver's HTTP status, or null when none came"),
      error: nullableText('what went wrong, or null'),
      at: time('when the attempt was made'),
      durationMs: count('how long the attempt took'),
      nextAttemptAt: Type.Optional(time('when the next attempt is due; only while retrying')),
    },
    { description: 'one delivery attempt' },
  ),
);
