import { createHash, timingSafeEqual } from 'node:crypto';
import { ROLES, type Credential, type Identity, type IdentityProvider, type Role } from './identity';
import { resolveEnvReference } from '../config/envRefs';
import { log } from '../core/log';

export interface TokenEntry {
  token: string;
  subject: string;
  role: Role;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Parse and check the `token` provider's options; errors name the setting. */
export function parseTokenOptions(options: Record<string, unknown>): TokenEntry[] {
  const tokens = options.tokens;
  if (!Array.isArray(tokens) || tokens.length === 0) {
    throw new Error('plugins["auth.identity"].options.tokens must be a non-empty list of {token, subject, role}');
  }
  const entries = tokens.map((raw, i) => {
    const entry = (raw ?? {}) as Record<string, unknown>;
    const at = `plugins["auth.identity"].options.tokens[${i}]`;
    if (typeof entry.token !== 'string' || entry.token === '')
      throw new Error(`${at}.token must be a non-empty string (or a \${ENV} reference)`);
    if (typeof entry.subject !== 'string' || entry.subject === '')
      throw new Error(`${at}.subject must be a non-empty string`);
    if (!ROLES.includes(entry.role as Role)) throw new Error(`${at}.role must be one of ${ROLES.join(', ')}`);
    return { token: entry.token, subject: entry.subject, role: entry.role as Role };
  });
  // One token for two entries would make the second unreachable; say which (never the value).
  entries.forEach((entry, i) => {
    const first = entries.findIndex((other) => other.token === entry.token);
    if (first !== i)
      throw new Error(
        `plugins["auth.identity"].options.tokens[${i}].token repeats tokens[${first}].token; each token must be unique`,
      );
  });
  return entries;
}

/**
 * The built-in provider: a fixed list of bearer tokens. Values written as `${NAME}` are read from the
 * environment at each request (so rotating the variable needs no restart) and never stored resolved.
 * Every configured token is compared, in constant time, so timing says nothing about which matched.
 */
export class TokenIdentityProvider implements IdentityProvider {
  readonly id = 'token';
  private warned = new Set<string>();

  constructor(private readonly entries: TokenEntry[]) {}

  identify(credential: Credential): Identity | null {
    const presented = digest(credential.token);
    let found: Identity | null = null;
    for (const entry of this.entries) {
      const value = resolveEnvReference(entry.token);
      if (value === undefined) {
        if (!this.warned.has(entry.token))
          log.warn(
            `kanban: auth token for "${entry.subject}" refers to an unset environment variable; it matches nothing`,
          );
        this.warned.add(entry.token);
        continue;
      }
      if (timingSafeEqual(digest(value), presented) && !found) found = { subject: entry.subject, role: entry.role };
    }
    return found;
  }
}
