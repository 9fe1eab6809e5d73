import type * as ServerModule from '../../server/server';
import type { RunningServer } from '../../server/server';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';

/**
 * The HTTP server's module, loaded at the first start: Express, WebSockets, Swagger UI and MCP over
 * HTTP are not needed to activate (esbuild.mjs, EXTENSION_VENDOR_PARTS). A require the bundle keeps
 * lazy; an import() would reach Node's ESM loader under the tests, which run this source as TypeScript.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const serverModule = () => require('../../server/server') as typeof ServerModule;

export type ServerState =
  | { kind: 'stopped' }
  | { kind: 'starting'; folder: FolderRef; port: number }
  | { kind: 'running'; folder: FolderRef; url: string; port: number; host: string };

export interface StartRequest {
  folder: FolderRef;
  service: KanbanService;
  host: string;
  port: number;
}

/** The port asked for is taken by another process; the UI offers another one. */
export class PortInUseError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(`port ${port} on ${host} is already in use`);
  }
}

/**
 * The optional HTTP server (`/api` and `/ws`) over the folder's shared service: at most one at a
 * time, since the API has one URL. It never opens a second copy of the data.
 */
export class ApiServer {
  private running: RunningServer | null = null;
  private current: ServerState = { kind: 'stopped' };
  private listeners = new Set<(state: ServerState) => void>();
  /** Start and stop run one after the other, so a quick stop-start never races over the port. */
  private queue: Promise<unknown> = Promise.resolve();

  get state(): ServerState {
    return this.current;
  }

  get workspaceOfRunning(): KanbanService['workspace'] | null {
    return this.running?.workspace ?? null;
  }

  onDidChange(listener: (state: ServerState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops any running server first; rejects with PortInUseError when the port is taken. */
  start(request: StartRequest): Promise<ServerState & { kind: 'running' }> {
    return this.serialize(async () => {
      await this.stopNow();
      this.set({ kind: 'starting', folder: request.folder, port: request.port });
      try {
        this.running = await serverModule().startServer({
          root: request.service.root,
          workspace: request.service.workspace,
          host: request.host,
          port: request.port,
        });
      } catch (error) {
        this.set({ kind: 'stopped' });
        if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
          throw new PortInUseError(request.host, request.port);
        throw error;
      }
      const state = {
        kind: 'running' as const,
        folder: request.folder,
        url: this.running.url,
        port: this.running.port,
        host: request.host,
      };
      this.set(state);
      return state;
    });
  }

  stop(): Promise<void> {
    return this.serialize(() => this.stopNow());
  }

  private async stopNow(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = null;
    try {
      await running.close();
    } finally {
      this.set({ kind: 'stopped' });
    }
  }

  private serialize<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private set(state: ServerState): void {
    this.current = state;
    for (const listener of this.listeners) listener(state);
  }
}
