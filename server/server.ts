import { constants as fsConstants, promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import * as path from 'node:path';
import { originProblem } from './config/origins';
import { createApp } from './api/app';
import type * as McpEndpointModule from './mcp/httpEndpoint';
import { fastLane } from './api/fastLane';
import { allRoutes } from './api/routes';
import { startWebhooks } from './live/webhooks';
import { Workspace } from './service/workspace';
import { applyExternalChanges } from './service/external';
import { FileWatcher } from './live/fileWatcher';
import { WsHub } from './live/wsHub';
import { startAutoArchive } from './live/autoArchive';
import { removeServerRecord, writeServerRecord } from './live/serverRecord';

export interface ServerOptions {
  root: string;
  port?: number;
  host?: string;
  allowedHosts?: string[];
  /** Web origins besides the server's own whose pages may change the board (`--allow-origin`). */
  allowedOrigins?: string[];
  /** Follow hand edits of `.kanban/` and `.kanban.json` (default true). */
  watch?: boolean;
  /** WebSocket heartbeat interval, for tests. */
  heartbeatMs?: number;
  /** Bind a non-loopback address even though no auth.identity provider is configured. */
  allowUnauthenticated?: boolean;
  /**
   * Serve this already-open workspace (the VS Code extension's) instead of opening `root`. Its
   * owner keeps watching it, following its store and delivering its webhooks, so the server adds
   * only HTTP and /ws; close() then leaves the workspace open.
   */
  workspace?: Workspace;
}

export interface RunningServer {
  url: string;
  port: number;
  workspace: Workspace;
  server: http.Server;
  /** The Express app behind the fast lane (which answers plain card gets before it): its route table. */
  app: ReturnType<typeof createApp>;
  hub: WsHub;
  watcher: FileWatcher | null;
  close(): Promise<void>;
}

/** Binding a public address without auth would expose the board to the network. */
export class UnsafeBindError extends Error {}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The workspace folder (or its .kanban) cannot be written, so the first change would fail. */
export class WorkspaceNotWritableError extends Error {}

/**
 * Refuse a workspace this process cannot write before serving it: otherwise it looks fine until
 * the first card is saved. A missing folder is left to Workspace.open, which names that problem.
 */
async function checkWritable(root: string): Promise<void> {
  const resolved = path.resolve(root);
  for (const folder of [resolved, path.join(resolved, '.kanban')]) {
    const code = await fs.access(folder, fsConstants.W_OK).then(
      () => null,
      (error: NodeJS.ErrnoException) => error.code ?? 'unknown',
    );
    if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') continue;
    const why = code === 'EROFS' ? 'it is on a read-only file system' : 'this user lacks write permission';
    throw new WorkspaceNotWritableError(
      `cannot write to the workspace folder ${folder}: ${why} (${code}); the server needs write permission there to save cards`,
    );
  }
}

/**
 * /mcp, set up at its first request: the MCP SDK and zod were a tenth of a restart at 100,000 cards
 * (about 0.7 s of module loading in a profile under load), for an endpoint many servers never see.
 * Its change feed only serves streams opened through it, so it has nothing to miss before. A
 * require the bundle keeps lazy (see extension/server/apiServer.ts).
 */
function mcpOnFirstRequest(workspace: Workspace): RequestHandler {
  let endpoint: RequestHandler | undefined;
  return (req, res, next) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    endpoint ??= (require('./mcp/httpEndpoint') as typeof McpEndpointModule).mcpHttpEndpoint(workspace);
    endpoint(req, res, next);
  };
}

/** Open the workspace and serve the API (and later the board UI and /ws) on one port. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const ownsWorkspace = !options.workspace;
  for (const origin of options.allowedOrigins ?? []) {
    const problem = originProblem(origin);
    if (problem) throw new Error(`allowed origin ${problem}`);
  }
  if (ownsWorkspace) await checkWritable(options.root);
  const workspace = options.workspace ?? (await Workspace.open({ root: options.root }));
  // The standalone server's start may clear what a crash of ours provably left (docs/git.md, "Reads never change tracked files").
  if (ownsWorkspace) await workspace.recoverCrashLeftovers();
  const closeOwnWorkspace = async () => {
    if (ownsWorkspace) await workspace.close();
  };
  if (!isLoopback(host) && !workspace.identityProvider && !options.allowUnauthenticated) {
    await closeOwnWorkspace();
    throw new UnsafeBindError(
      `refusing to serve ${host}: anyone on the network could change the board. Configure plugins["auth.identity"] in .kanban.json, or pass --allow-unauthenticated if a proxy guards it`,
    );
  }
  const allowedHosts = [host, ...(options.allowedHosts ?? [])];
  const app = createApp(workspace, {
    allowedHosts,
    allowedOrigins: options.allowedOrigins,
    mcp: mcpOnFirstRequest(workspace),
  });
  const server = http.createServer(fastLane(workspace, allRoutes, allowedHosts, app));
  // Slow or stalled clients must not hold sockets forever.
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await closeOwnWorkspace();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  workspace.options.port = port;
  const hub = new WsHub(server, workspace, {
    allowedHosts,
    allowedOrigins: options.allowedOrigins,
    heartbeatMs: options.heartbeatMs,
  });
  const watcher = options.watch === false || !ownsWorkspace ? null : new FileWatcher(workspace);
  await watcher?.start();
  const stopFollowingStore = ownsWorkspace
    ? workspace.store.subscribe?.((change) => void applyExternalChanges(workspace, [change]))
    : undefined;
  // Only a server that did bind resumes pending deliveries, so a failed second start sends nothing.
  const webhooks = ownsWorkspace ? await startWebhooks(workspace) : null;
  // After the webhooks and the hub listen, so the cards archived at start are announced.
  const stopAutoArchive = ownsWorkspace ? await startAutoArchive(workspace) : undefined;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  // The command line reads this to send its changes here instead of writing the files itself.
  const record = await writeServerRecord(workspace.root, url);
  return {
    url,
    port,
    workspace,
    server,
    app,
    hub,
    watcher,
    async close() {
      await removeServerRecord(workspace.root, record);
      stopAutoArchive?.();
      stopFollowingStore?.();
      await watcher?.close();
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks?.stop();
      if (ownsWorkspace) await workspace.close();
      else if (workspace.options.port === port) workspace.options.port = undefined;
    },
  };
}
