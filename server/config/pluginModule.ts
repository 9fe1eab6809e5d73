import * as path from 'node:path';

/**
 * Load the module a `plugins[namespace].provider` names: a package (resolved from the workspace's
 * node_modules, then the service's own) or a workspace-relative path starting with `.`. Used by
 * every capability that accepts providers from other packages (auth.identity, card.storage,
 * attachment.storage), so they resolve and report alike.
 */
export function loadPluginModule(namespace: string, provider: string, root: string): Record<string, unknown> {
  const target = provider.startsWith('.') || path.isAbsolute(provider) ? path.resolve(root, provider) : provider;
  let resolved: string;
  try {
    resolved = require.resolve(target, { paths: [root, __dirname] });
  } catch (error) {
    throw new PluginModuleError(namespace, provider, firstLine(error), true);
  }
  try {
    // A user-named module, loaded at run time on purpose.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(resolved) as Record<string, unknown>;
  } catch (error) {
    throw new PluginModuleError(namespace, provider, firstLine(error), false);
  }
}

/** The named module could not be found (`notFound`) or failed while loading. */
export class PluginModuleError extends Error {
  constructor(
    namespace: string,
    provider: string,
    /** Node's own message (first line): `Cannot find module 'x'`, or what the module threw. */
    readonly reason: string,
    readonly notFound: boolean,
  ) {
    super(`${namespace} provider "${provider}" cannot be loaded (plugins["${namespace}"].provider): ${reason}`);
  }
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
