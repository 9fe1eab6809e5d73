import { Type } from '@sinclair/typebox';
import { named } from './names';
import { flag, nullableText, choice, text } from './parts';

/** Who the caller is and what card state and auth make of it (GET /card-state/status, GET /auth). */

/** Where card state can live. */
export const CARD_STATE_BACKENDS = ['file', 'sqlite', 'mysql', 'postgres'] as const;

export const CardStateStatusSchema = named(
  'CardStateStatus',
  Type.Object({
    provider: text('card.state provider id'),
    backend: choice(
      CARD_STATE_BACKENDS,
      'storage family of the provider (mysql, postgres: shared by every instance over the database)',
    ),
    available: flag('whether card state can be read and written'),
    defaultActor: Type.Object({
      id: text('actor used for card state when no auth.identity provider is configured'),
      usedWhen: text('the condition, in words'),
    }),
    actor: nullableText('actor of this request: "default" without auth, the subject with auth, null when unidentified'),
    identity: Type.Object({
      provider: nullableText('auth.identity provider id, or null'),
      required: flag('whether card-state calls need an identified caller'),
      available: flag(
        'false while the identity provider fails; card-state calls then answer 400 "identity unavailable"',
      ),
      error: nullableText('the last identity failure, or null'),
      since: nullableText('ISO 8601 time of that failure, or null'),
    }),
  }),
);

export const AuthStatusSchema = named(
  'AuthStatus',
  Type.Object({
    provider: nullableText('auth.identity provider id, or null when auth is off'),
    enabled: flag('whether requests must carry a credential'),
    credential: Type.Object(
      {
        present: flag('whether this request carried a credential'),
        source: nullableText('where it came from (header, query), or null'),
        recognised: flag('whether the provider knew it'),
      },
      { description: 'what this request carried; the token itself is never echoed' },
    ),
    subject: nullableText('who the caller is'),
    role: Type.Unsafe<'viewer' | 'editor' | 'admin' | null>({
      type: ['string', 'null'],
      enum: ['viewer', 'editor', 'admin', null],
      description: 'viewer, editor or admin; null when unidentified',
    }),
    identityError: nullableText('why the provider could not identify the caller, or null'),
  }),
);
