/** Roles in increasing power; each includes the ones before it. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

export interface Identity {
  subject: string;
  role: Role;
}

/** Where a credential came from. */
export type CredentialSource = 'header' | 'query';

export interface Credential {
  token: string;
  source: CredentialSource;
}

/** `code` of an identity-unavailable error, for providers that cannot import this module. */
export const IDENTITY_UNAVAILABLE = 'IDENTITY_UNAVAILABLE';

/** The provider could not say who the caller is (its backend is down, its config is incomplete). */
export class IdentityUnavailableError extends Error {
  override readonly name = 'IdentityUnavailableError';
  readonly code = IDENTITY_UNAVAILABLE;
}

/**
 * Whether a provider's error means "cannot tell who this is". A provider package has its own copy of
 * Error, so besides this module's class the name or the code is enough (see docs/security.md, "Authentication").
 */
export function isIdentityUnavailable(error: unknown): error is Error {
  if (error instanceof IdentityUnavailableError) return true;
  const e = error as { name?: unknown; code?: unknown } | null;
  return (
    typeof e === 'object' && e !== null && (e.name === 'IdentityUnavailableError' || e.code === IDENTITY_UNAVAILABLE)
  );
}

/** A provider's answer is used only when it is a real identity; anything else is a provider fault. */
export function isIdentity(value: unknown): value is Identity {
  const v = value as Partial<Identity> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.subject === 'string' &&
    v.subject !== '' &&
    ROLES.includes(v.role as Role)
  );
}

/**
 * The `auth.identity` capability. A provider package exports
 * `createIdentityProvider(options, context) => IdentityProvider` (see docs/security.md, "Authentication").
 */
export interface IdentityProvider {
  /** Provider id as configured, e.g. "token". */
  readonly id: string;
  /**
   * Who holds this credential: an identity, or null for an unknown credential (401). Throws an
   * identity-unavailable error (see isIdentityUnavailable) when it cannot tell.
   */
  identify(credential: Credential): Promise<Identity | null> | Identity | null;
}
