import { AuthRequiredError, ForbiddenError, ValidationError } from '../core/errors';
import {
  isIdentity,
  isIdentityUnavailable,
  roleAtLeast,
  type Credential,
  type Identity,
  type IdentityProvider,
} from './identity';
import { requiredRole, type GuardedRoute } from './roles';
import { log } from '../core/log';

/** The actor used when no auth.identity provider is configured. */
export const DEFAULT_IDENTITY: Identity = { subject: 'default', role: 'admin' };

/** What a request carried and who it turned out to be; GET /api/auth reports it (never the token). */
export interface RequestAuth {
  enabled: boolean;
  provider: string | null;
  credential: { present: boolean; source: Credential['source'] | null; recognised: boolean };
  identity: Identity | null;
  /** Why the provider could not tell who holds the credential, when it could not. */
  identityError: string | null;
}

/** Last identity-unavailable failure, for GET /api/card-state/status. */
export interface AuthHealth {
  identityUnavailable: { message: string; at: string } | null;
}

const CARD_STATE_TAG = 'Card state';

export interface Lookup {
  identity: Identity | null;
  /** Set when the provider could not answer (down, misconfigured, faulty). */
  unavailable: string | null;
}

/** A provider's message may quote what it was given; the token must not travel on from here. */
function withoutToken(text: string, token: string): string {
  return token ? text.split(token).join('[token]') : text;
}

/**
 * Ask the provider who holds a credential. Never throws: a provider that fails or answers something
 * that is not an identity is reported as unavailable (and logged once per new failure).
 */
export async function lookUp(provider: IdentityProvider, credential: Credential, health: AuthHealth): Promise<Lookup> {
  let reason: string;
  try {
    const answer = await provider.identify(credential);
    if (answer === null || answer === undefined) {
      health.identityUnavailable = null;
      return { identity: null, unavailable: null };
    }
    if (isIdentity(answer)) {
      health.identityUnavailable = null;
      return { identity: { subject: answer.subject, role: answer.role }, unavailable: null };
    }
    reason = 'it answered with something other than {subject, role} with role viewer, editor or admin';
  } catch (error) {
    const message = withoutToken(error instanceof Error ? error.message : String(error), credential.token);
    reason = isIdentityUnavailable(error) ? message : `it failed: ${message}`;
  }
  const message = `identity unavailable: the "${provider.id}" provider could not identify the caller (${reason})`;
  if (health.identityUnavailable?.message !== message) log.warn(`kanban: ${message}`);
  health.identityUnavailable = { message, at: new Date().toISOString() };
  return { identity: null, unavailable: message };
}

/**
 * Decide who is calling and whether they may call this route. Throws 401 (no or unknown credential),
 * 403 (role too low), and when the provider cannot answer: 400 on card-state operations ("identity
 * unavailable"), 401 elsewhere. Public routes always pass and report what happened.
 */
export async function authorize(
  provider: IdentityProvider | null,
  route: GuardedRoute,
  credential: Credential | null,
  health: AuthHealth,
): Promise<RequestAuth> {
  const carried = { present: credential !== null, source: credential?.source ?? null, recognised: false };
  if (!provider)
    return { enabled: false, provider: null, credential: carried, identity: DEFAULT_IDENTITY, identityError: null };
  const need = requiredRole(route);
  const { identity, unavailable } = credential
    ? await lookUp(provider, credential, health)
    : { identity: null, unavailable: null };
  const auth: RequestAuth = {
    enabled: true,
    provider: provider.id,
    credential: { ...carried, recognised: identity !== null },
    identity,
    identityError: unavailable,
  };
  if (need === 'public') return auth;
  if (unavailable)
    throw route.tag === CARD_STATE_TAG ? new ValidationError(unavailable) : new AuthRequiredError(unavailable);
  if (!credential)
    throw new AuthRequiredError('authentication required: send the header "Authorization: Bearer <token>"');
  if (!identity) throw new AuthRequiredError('the bearer token is not recognised');
  if (!roleAtLeast(identity.role, need)) {
    throw new ForbiddenError(
      `role "${identity.role}" may not ${route.method.toUpperCase()} ${route.path}; it needs the "${need}" role`,
    );
  }
  return auth;
}

/** `Authorization: Bearer <token>` (any case of "Bearer"), else null. */
export function bearerCredential(header: string | undefined): Credential | null {
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? { token: match[1], source: 'header' } : null;
}
