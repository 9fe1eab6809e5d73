import { ConfigError, parseConfig, serializeConfig } from '../config/parseConfig';
import type { KanbanConfig } from '../config/types';
import { FileConflictError, ValidationError } from '../core/errors';
import { log } from '../core/log';
import type { SharedConfigStore } from '../storage/cardStore';
import { emitConfigDifferences } from './external';
import type { WorkspaceState } from './workspaceState';
import type { SharedConfigState } from './sharedConfigState';
import { wakeOnChanges } from '../storage/changeSource';

/**
 * A config change that loses to another instance's is applied again on top of it, up to this many
 * times, after a random pause whose range doubles with each loss (to at most RETRY_CEILING_MS), so
 * instances that keep colliding spread out. A fixed short range let three instances writing labels
 * and settings at once on a busy machine keep losing to each other until one gave up with a 409.
 */
const WRITE_ATTEMPTS = 25;
const RETRY_CEILING_MS = 250;

/** The pause after the `attempt`-th lost write: random in [1, min(ceiling, 10 * 2^attempt)] ms. */
const retryPause = (attempt: number) => 1 + Math.random() * Math.min(RETRY_CEILING_MS, 10 * 2 ** attempt);

/** The shared part of a configuration, as the text stored in the database. */
export function sharedText(config: KanbanConfig): string {
  return serializeConfig({ ...config, plugins: {}, server: undefined });
}

function withLocalParts(shared: KanbanConfig, local: KanbanConfig): KanbanConfig {
  const merged: KanbanConfig = { ...shared, plugins: local.plugins };
  if (local.server !== undefined) merged.server = local.server;
  else delete merged.server;
  return merged;
}

function parseShared(text: string): KanbanConfig {
  try {
    return parseConfig(text);
  } catch (error) {
    const reason = error instanceof ConfigError ? error.message : String(error);
    throw new Error(`the shared configuration in the database is invalid (${reason})`);
  }
}

/**
 * At start: the database's configuration, or, over an empty database, this instance's
 * `.kanban.json` as the seed (once: of instances starting together, one seeds).
 */
export async function adoptSharedConfig(
  store: SharedConfigStore,
  local: KanbanConfig,
): Promise<{ config: KanbanConfig; version: number }> {
  let current = await store.read();
  if (!current) {
    const seeded = await store.seed(sharedText(local));
    if (seeded.seeded)
      log.info(
        'kanban: the shared database had no workspace configuration; seeded it from this .kanban.json (boards, labels, settings, forms, webhooks)',
      );
    current = seeded;
  }
  return { config: withLocalParts(parseShared(current.text), local), version: current.version };
}

/**
 * Take a newer shared version written by another instance, with the same events a hand edit of
 * `.kanban.json` gives. Call inside the mutation queue.
 */
export async function refreshSharedConfig(ws: WorkspaceState, shared: SharedConfigState): Promise<void> {
  const current = await shared.store.read();
  if (!current || current.version <= shared.version) return;
  let next: KanbanConfig;
  try {
    next = withLocalParts(parseShared(current.text), ws.config);
  } catch (error) {
    log.warn(`kanban: ${(error as Error).message}; keeping the last good configuration`);
    shared.version = current.version;
    return;
  }
  const previous = ws.config;
  ws.config = next;
  shared.version = current.version;
  emitConfigDifferences(ws, previous, next, true);
}

/** The shared text of `ws.config`, serialised only when the config object changed since last time. */
function currentSharedText(ws: WorkspaceState, shared: SharedConfigState): string {
  if (shared.lastText?.config !== ws.config) shared.lastText = { config: ws.config, text: sharedText(ws.config) };
  return shared.lastText.text;
}

/**
 * `updateConfig` over a shared database: the write names the version it was based on, so it never
 * undoes another instance's change; when another instance wrote first, its version is taken and
 * the change applied again on top of it.
 */
export async function updateSharedConfig(
  ws: WorkspaceState,
  shared: SharedConfigState,
  change: (draft: KanbanConfig) => void,
): Promise<KanbanConfig> {
  for (let attempt = 1; ; attempt++) {
    // The version the draft is made from, taken together with it: the preparations below may wait,
    // and the write must name the version the draft was based on, whatever happens meanwhile.
    const base = shared.version;
    const draft = structuredClone(ws.config);
    change(draft);
    for (const prepare of ws.beforeConfigWrite) await prepare(draft);
    if (JSON.stringify([draft.plugins, draft.server]) !== JSON.stringify([ws.config.plugins, ws.config.server])) {
      throw new ValidationError(
        'over a shared database, .kanban.json says only how this instance connects and listens (plugins, server); change those there by hand and restart',
      );
    }
    const text = sharedText(draft);
    if (text === currentSharedText(ws, shared)) {
      ws.config = draft;
      shared.lastText = { config: draft, text };
      return draft;
    }
    const version = await shared.store.write(text, base);
    if (version !== null) {
      shared.version = version;
      ws.config = draft;
      shared.lastText = { config: draft, text };
      return draft;
    }
    await refreshSharedConfig(ws, shared);
    await new Promise((resolve) => setTimeout(resolve, retryPause(attempt)));
    if (attempt >= WRITE_ATTEMPTS) {
      throw new FileConflictError(
        'the shared configuration kept changing on other instances while this change was written; nothing was written. Apply your change again.',
      );
    }
  }
}

/**
 * Follow other instances' configuration changes by reading the version (cheap: one small row):
 * every `intervalMs`, or on each push when the store pushes (see wakeOnChanges).
 */
export function followSharedConfig(ws: WorkspaceState, shared: SharedConfigState, intervalMs: number): void {
  let failing = false;
  let busy = false;
  /** Woken while a read ran: that read may predate the change, so one more follows. */
  let again = false;
  const check = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const version = await shared.store.version();
        if (version !== null && version > shared.version) await ws.mutate(() => refreshSharedConfig(ws, shared));
      } while (again);
      if (failing) log.warn('kanban: the shared configuration can be read again');
      failing = false;
    } catch (error) {
      if (!failing) log.warn(`kanban: cannot read the shared configuration: ${(error as Error).message}`);
      failing = true;
    } finally {
      busy = false;
    }
  };
  shared.stopFollowing = wakeOnChanges(shared.store.changes, 'config', intervalMs, () => void check());
}

export function stopFollowingSharedConfig(shared: SharedConfigState | null): void {
  shared?.stopFollowing?.();
  if (shared) shared.stopFollowing = null;
}

/** Take any newer shared configuration now (before delivering another instance's config event). */
export async function catchUpSharedConfig(ws: WorkspaceState): Promise<void> {
  const shared = ws.shared;
  if (!shared) return;
  const version = await shared.store.version();
  if (version !== null && version > shared.version) await ws.mutate(() => refreshSharedConfig(ws, shared));
}
