import { Type, type Static } from '@sinclair/typebox';
import { closed, flag, nullableText } from '../parts';

/** Request bodies of the webhook routes. */

const url = () => Type.String({ maxLength: 2048, description: 'http(s) URL that receives a POST per matching event' });
const events = () =>
  Type.Array(Type.String({ maxLength: 100 }), {
    maxItems: 100,
    description: 'event names (task.created, ...), "*" for all, or "prefix.*" such as "task.*"',
  });
const secret = 'HMAC-SHA256 signing key, write-only; "${NAME}" reads environment variable NAME at delivery time';

export const WebhookCreateBody = closed({
  url: url(),
  events: events(),
  secret: Type.Optional(Type.String({ maxLength: 1024, description: secret })),
});
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

export const WebhookUpdateBody = closed({
  url: Type.Optional(url()),
  events: Type.Optional(events()),
  secret: Type.Optional(nullableText({ maxLength: 1024, description: `${secret}; null removes it` })),
  active: Type.Optional(flag('false pauses delivery (pending retries are dropped)')),
});
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;
