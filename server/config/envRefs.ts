const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * `${NAME}` values in `.kanban.json` are read from the environment when used, never written back
 * resolved. Plain values are returned as they are; an unset variable gives undefined.
 */
export function resolveEnvReference(value: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const match = ENV_REFERENCE.exec(value);
  if (!match) return value;
  const resolved = env[match[1]];
  return resolved === undefined || resolved === '' ? undefined : resolved;
}

export function isEnvReference(value: string): boolean {
  return ENV_REFERENCE.test(value);
}
