import type { PluginEntry } from '../config/types';
import { loadPluginModule } from '../config/pluginModule';
import type { IdentityProvider } from './identity';
import { TokenIdentityProvider, parseTokenOptions } from './tokenProvider';

/** The plugins["auth.identity"] entry (as JSON) each provider was built from. */
const origins = new WeakMap<IdentityProvider, string>();

/** The entry, as JSON, that built this provider ('null' for no provider). */
export function originOf(provider: IdentityProvider | null): string | undefined {
  return provider ? origins.get(provider) : 'null';
}

type ProviderModule = {
  createIdentityProvider?: (options: Record<string, unknown>, context: { root: string }) => unknown;
};

function checkedProvider(value: unknown, name: string): IdentityProvider {
  const provider = value as Partial<IdentityProvider> | null;
  if (typeof provider !== 'object' || provider === null || typeof provider.identify !== 'function') {
    throw new Error(
      `auth.identity provider "${name}": createIdentityProvider() must return an object with identify(credential)`,
    );
  }
  // A provider without an id is still usable; /api/auth then reports the name it was configured by.
  return typeof provider.id === 'string' && provider.id !== ''
    ? (provider as IdentityProvider)
    : { id: name, identify: provider.identify.bind(provider) };
}

/**
 * The identity provider `plugins["auth.identity"]` names: the built-in `token`, or a package (or a
 * workspace-relative module path) that exports `createIdentityProvider(options, {root})`.
 */
export function loadIdentityProvider(entry: PluginEntry | undefined, root: string): IdentityProvider | null {
  if (!entry) return null;
  const provider = createProvider(entry, root);
  origins.set(provider, JSON.stringify(entry));
  return provider;
}

function createProvider(entry: PluginEntry, root: string): IdentityProvider {
  if (entry.provider === 'token') return new TokenIdentityProvider(parseTokenOptions(entry.options));
  const module = loadPluginModule('auth.identity', entry.provider, root) as ProviderModule;
  if (typeof module.createIdentityProvider !== 'function') {
    throw new Error(
      `auth.identity provider "${entry.provider}" does not export createIdentityProvider(options, context)`,
    );
  }
  let created: unknown;
  try {
    created = module.createIdentityProvider(entry.options, { root });
  } catch (error) {
    throw new Error(
      `auth.identity provider "${entry.provider}" refused its options (plugins["auth.identity"].options): ${(error as Error).message}`,
    );
  }
  return checkedProvider(created, entry.provider);
}
