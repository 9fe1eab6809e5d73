import type { PluginEntry } from '../config/types';
import type { Workspace } from './workspace';
import type { IdentityProvider } from '../auth/identity';
import { loadIdentityProvider, originOf } from '../auth/loadProvider';
import { log } from '../core/log';

/** Entries found unusable, per workspace, so each is reported once and not on every request. */
const reported = new WeakMap<Workspace, Set<string>>();
const keys = new WeakMap<PluginEntry, string>();

function keyOf(entry: PluginEntry | undefined): string {
  if (!entry) return 'null';
  let key = keys.get(entry);
  if (key === undefined) keys.set(entry, (key = JSON.stringify(entry)));
  return key;
}

/**
 * The identity provider for the workspace's current `.kanban.json`. A hand edit of
 * plugins["auth.identity"] (a revoked token, a changed role, a new provider) applies from the next
 * request, like every other config edit. Two edits do not apply at once, on purpose: removing the
 * entry keeps auth on until a restart (a running server never opens up by itself, and start-up
 * checks the bind address), and an entry that cannot load keeps the last working provider.
 */
export function currentIdentityProvider(ws: Workspace): IdentityProvider | null {
  const entry = ws.config.plugins['auth.identity'];
  const key = keyOf(entry);
  const origin = originOf(ws.identityProvider);
  // A provider a host set by hand (not from the config) is left alone.
  if (origin === undefined || key === origin) return ws.identityProvider;
  const seen = reported.get(ws) ?? new Set<string>();
  reported.set(ws, seen);
  if (seen.has(key)) return ws.identityProvider;
  if (!entry) {
    seen.add(key);
    log.warn(
      'kanban: plugins["auth.identity"] was removed from .kanban.json; authentication stays on until the server restarts',
    );
    return ws.identityProvider;
  }
  try {
    ws.identityProvider = loadIdentityProvider(entry, ws.root);
    log.info(`kanban: plugins["auth.identity"] changed; the "${entry.provider}" provider now identifies callers`);
  } catch (error) {
    seen.add(key);
    log.warn(
      `kanban: plugins["auth.identity"] changed but cannot be used (${(error as Error).message}); the previous setting stays in force`,
    );
  }
  return ws.identityProvider;
}
