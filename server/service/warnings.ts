import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Warnings a request's operation raised while it still succeeded (a column went over its WIP
 * limit). The service adds them wherever it notices; the host that runs the request collects them
 * and says so in its own way (HTTP: a `Warning` header). Outside a collecting host they are dropped.
 */
const collected = new AsyncLocalStorage<string[]>();

export async function collectWarnings<T>(run: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const value = await collected.run(warnings, run);
  return { value, warnings };
}

export function addWarning(text: string): void {
  const warnings = collected.getStore();
  if (warnings && !warnings.includes(text)) warnings.push(text);
}
