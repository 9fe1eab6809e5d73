import { createHmac } from 'node:crypto';

/** A secret written as `${NAME}` is a reference to an environment variable, resolved at use time. */
const ENV_REFERENCE = /^\$\{([^}]*)\}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variable name a secret refers to, or null when the secret is a literal value. */
export function envReference(secret: string): string | null {
  const match = ENV_REFERENCE.exec(secret);
  return match ? match[1] : null;
}

/** Why a secret as given cannot be used, or null when it is acceptable. */
export function secretProblem(secret: string): string | null {
  if (secret === '') return 'secret must not be empty; send null to remove the secret';
  const name = envReference(secret);
  if (name !== null && !ENV_NAME.test(name)) {
    return `secret "\${...}" must name an environment variable (letters, digits and _, not starting with a digit)`;
  }
  return null;
}

export type ResolvedSecret = { ok: true; value: string | null } | { ok: false; error: string };

/**
 * The signing key for one delivery attempt. Reading the environment each time means a rotated
 * variable takes effect without rewriting `.kanban.json`, and the resolved value is never stored.
 */
export function resolveSecret(secret: string | undefined, env: NodeJS.ProcessEnv = process.env): ResolvedSecret {
  if (secret === undefined) return { ok: true, value: null };
  const name = envReference(secret);
  if (name === null) return { ok: true, value: secret };
  const value = env[name];
  if (value === undefined || value === '') {
    // Sending unsigned would let a receiver accept a forged-looking request; refuse instead.
    return { ok: false, error: `secret refers to environment variable ${name}, which is not set; delivery not sent` };
  }
  return { ok: true, value };
}

/** `X-Webhook-Signature` value: `sha256=` + lowercase hex HMAC-SHA256 of the exact body bytes. */
export function signatureHeader(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}
