import { createHmac } from 'node:crypto';

/** A secret written as `${NAME}` is a reference to an environment variable, resolved at use time. */
const ENV_REFERENCE = /^\$\{([^}]*)\}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * `${secret:NAME}` refers to a secret the service keeps in `.kanban/.state/secrets.json`: what
 * `.kanban.json` holds in place of a literal secret (the file is committed; the state folder is not).
 */
const STORED_REFERENCE = /^\$\{secret:([^}]+)\}$/;

/** The stored secret's name a secret refers to, or null. */
export function storedReference(secret: string): string | null {
  const match = STORED_REFERENCE.exec(secret);
  return match ? match[1] : null;
}

export function storedReferenceTo(name: string): string {
  return `\${secret:${name}}`;
}

/** The variable name a secret refers to, or null when the secret is a literal value or stored. */
export function envReference(secret: string): string | null {
  if (STORED_REFERENCE.test(secret)) return null;
  const match = ENV_REFERENCE.exec(secret);
  return match ? match[1] : null;
}

/** A literal value, as sent by a client or found in an older `.kanban.json`: to be moved out. */
export function isLiteralSecret(secret: string): boolean {
  return storedReference(secret) === null && envReference(secret) === null;
}

/** Why a secret as given cannot be used, or null when it is acceptable. */
export function secretProblem(secret: string): string | null {
  if (secret === '') return 'secret must not be empty; send null to remove the secret';
  // Only the service writes these; a client naming one could sign with another webhook's key.
  if (storedReference(secret) !== null)
    return 'secret must be the secret itself or "${NAME}" for an environment variable; "${secret:...}" references are written by the service';
  const name = envReference(secret);
  if (name !== null && !ENV_NAME.test(name)) {
    return `secret "\${...}" must name an environment variable (letters, digits and _, not starting with a digit)`;
  }
  return null;
}

export type ResolvedSecret = { ok: true; value: string | null } | { ok: false; error: string };

/** Where `${secret:NAME}` references are looked up (the state file, see secretStore.ts). */
export interface StoredSecrets {
  get(name: string): Promise<string | undefined>;
}

/**
 * The signing key for one delivery attempt. Reading the environment and the stored secrets each
 * time means a rotated variable or secret takes effect for pending retries, and a resolved value
 * is never written back. A literal (from an older `.kanban.json`, until it is moved) is used as is.
 */
export async function resolveSecret(
  secret: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  stored?: StoredSecrets,
): Promise<ResolvedSecret> {
  if (secret === undefined) return { ok: true, value: null };
  const storedName = storedReference(secret);
  if (storedName !== null) return resolveStored(storedName, stored);
  const name = envReference(secret);
  if (name === null) return { ok: true, value: secret };
  const value = env[name];
  if (value === undefined || value === '') {
    // Sending unsigned would let a receiver accept a forged-looking request; refuse instead.
    return { ok: false, error: `secret refers to environment variable ${name}, which is not set; delivery not sent` };
  }
  return { ok: true, value };
}

async function resolveStored(name: string, stored: StoredSecrets | undefined): Promise<ResolvedSecret> {
  let value: string | undefined;
  try {
    value = await stored?.get(name);
  } catch (error) {
    return {
      ok: false,
      error: `could not read the stored secret "${name}": ${(error as Error).message}; delivery not sent`,
    };
  }
  if (value === undefined || value === '') {
    return {
      ok: false,
      error: `stored secret "${name}" is missing from .kanban/.state/secrets.json; set the webhook's secret again; delivery not sent`,
    };
  }
  return { ok: true, value };
}

/** `X-Webhook-Signature` value: `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes. */
export function signatureHeader(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}
