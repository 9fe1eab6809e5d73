import { existsSync } from 'node:fs';
import type { Static } from '@sinclair/typebox';
import { CARD_STATE_BACKENDS, type AuthStatusSchema, type CardStateStatusSchema } from '../core/shapes/accessStatus';
import type { StorageStatusSchema, WorkspaceInfoSchema } from '../core/shapes/workspaceStatus';
import * as os from 'node:os';
import type { InstanceInfo } from '../storage/cardStore';
import type { RequestAuth } from '../auth/gate';
import type { Workspace } from './workspace';
import { currentIdentityProvider } from './currentIdentity';

// What the status routes answer; the shapes (and their descriptions) are in core/shapes.
export type StorageStatus = Static<typeof StorageStatusSchema>;
export type WorkspaceInfo = Static<typeof WorkspaceInfoSchema>;
export type CardStateStatus = Static<typeof CardStateStatusSchema>;
export type AuthStatus = Static<typeof AuthStatusSchema>;

export function describeStorage(ws: Workspace): StorageStatus {
  return {
    card: { provider: ws.store.provider, ...(ws.store.describe?.() ?? {}) },
    attachment: { provider: ws.attachments.provider, ...(ws.attachments.describe?.() ?? {}) },
    webhook: { provider: 'built-in', deliveryQueue: '.kanban/.state/webhooks' },
    cardState: { provider: ws.cardStates.store.provider, ...(ws.cardStates.store.describe?.() ?? {}) },
    filesystem: { kanbanDir: ws.kanbanDir, configPath: ws.configPath, watch: ws.watching },
  };
}

export function describeWorkspace(ws: Workspace): WorkspaceInfo {
  const identityProvider = currentIdentityProvider(ws);
  return {
    root: ws.root,
    configPath: ws.configPath,
    configExists: existsSync(ws.configPath),
    kanbanDir: ws.kanbanDir,
    port: ws.options.port ?? null,
    defaultBoard: ws.defaultBoardId,
    boards: ws.config.boards.map((b) => b.id),
    cardCount: ws.index.size,
    providers: describeStorage(ws),
    auth: { provider: identityProvider?.id ?? null, enabled: identityProvider !== null },
    watcher: { supported: true, active: ws.watching },
    invalidFiles: ws.invalidFiles,
    configWarnings: ws.configWarnings,
    recoveredFiles: ws.recoveredFiles,
    staleCopies: [...ws.staleCopies],
    duplicateIds: [...ws.duplicateIds],
    revision: ws.live.revision,
    instances: instancesOf(ws),
    claims: { store: ws.claims.store.kind, location: ws.claims.store.location },
  };
}

/** Who serves this workspace: every live instance over a shared database, else this process alone. */
function instancesOf(ws: Workspace): InstanceInfo[] {
  const shared = ws.store.instances?.();
  if (shared) return shared;
  return [
    {
      id: `pid-${process.pid}`,
      host: os.hostname(),
      pid: process.pid,
      started: ws.startedAt,
      lastSeen: null,
      self: true,
    },
  ];
}

/** The storage family of a card.state provider. */
function backendOf(provider: string): CardStateStatus['backend'] {
  return CARD_STATE_BACKENDS.find((backend) => backend === provider) ?? 'file';
}

/** What the status answers read of a request: the workspace and what the caller's auth came to. */
export interface StatusRequest {
  ws: Workspace;
  auth: RequestAuth;
}

export function describeCardState(ctx: StatusRequest): CardStateStatus {
  const { ws } = ctx;
  const provider = currentIdentityProvider(ws);
  const unavailable = ws.authHealth.identityUnavailable;
  return {
    provider: ws.cardStates.store.provider,
    backend: backendOf(ws.cardStates.store.provider),
    available: true,
    defaultActor: { id: 'default', usedWhen: 'no auth.identity provider is configured' },
    actor: provider ? (ctx.auth.identity?.subject ?? null) : 'default',
    identity: {
      provider: provider?.id ?? null,
      required: provider !== null,
      available: unavailable === null,
      // Card-state calls fail with "identity unavailable" (400) while the provider cannot identify callers.
      error: unavailable?.message ?? null,
      since: unavailable?.at ?? null,
    },
  };
}

/** Auth metadata and what this request carried; the token itself is never echoed. */
export function describeAuth(ctx: StatusRequest): AuthStatus {
  const { auth } = ctx;
  return {
    provider: auth.provider,
    enabled: auth.enabled,
    credential: auth.credential,
    subject: auth.identity?.subject ?? null,
    role: auth.identity?.role ?? null,
    // Set when the provider could not tell who holds the credential (its own words, token removed).
    identityError: auth.identityError,
  };
}
