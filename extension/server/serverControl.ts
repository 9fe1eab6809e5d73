import * as vscode from 'vscode';
import type { KanbanSettings } from '../settings';
import type { FolderRef, FolderServices } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import type { Folders } from '../ui/folders';
import { type ApiServer, PortInUseError, serverModule, type ServerState } from './apiServer';
import { findFreePort } from './freePort';
import { explainRestricted, RESTRICTED_SERVER, workspaceTrusted } from '../trust';

type Running = ServerState & { kind: 'running' };

/**
 * The user-facing side of the API server: which folder, which port, what to do when the port is
 * taken, and following settings and service changes. Every failure becomes a notification; none
 * reaches the extension host as an exception.
 */
export class ServerControl {
  constructor(
    readonly server: ApiServer,
    private readonly services: FolderServices,
    private readonly folders: Folders,
    private readonly settingsFor: (folder?: FolderRef) => KanbanSettings,
  ) {}

  get state(): ServerState {
    return this.server.state;
  }

  /** Start (or move) the server; resolves to the running state, or undefined when it did not start. */
  async start(folder?: FolderRef, port?: number): Promise<Running | undefined> {
    // The server would hand the board (and its writes) to any program on the machine.
    if (!workspaceTrusted()) {
      explainRestricted(RESTRICTED_SERVER);
      return undefined;
    }
    const chosen = folder ?? (await this.folders.choose("Serve which folder's board over HTTP?"));
    if (!chosen) return undefined;
    let service: KanbanService;
    try {
      service = await this.services.get(chosen);
    } catch (error) {
      void vscode.window.showErrorMessage(
        `Kanban: cannot open the board in ${chosen.name}: ${(error as Error).message}`,
      );
      return undefined;
    }
    const { host, port: configured } = this.settingsFor(chosen);
    try {
      return await this.server.start({ folder: chosen, service, host, port: port ?? configured });
    } catch (error) {
      if (error instanceof PortInUseError) return this.offerAnotherPort(chosen, error);
      const message =
        error instanceof serverModule().UnsafeBindError
          ? error.message
          : `cannot start the API server: ${(error as Error).message}`;
      void vscode.window.showErrorMessage(`Kanban: ${message}`);
      return undefined;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop();
    } catch (error) {
      void vscode.window.showErrorMessage(`Kanban: the API server did not stop cleanly: ${(error as Error).message}`);
    }
  }

  /** Settings changed: a running server moves to the new host/port; auto-start starts one. */
  async settingsChanged(previous: KanbanSettings, next: KanbanSettings): Promise<void> {
    const state = this.server.state;
    if (state.kind === 'running' && (previous.host !== next.host || previous.port !== next.port)) {
      await this.start(state.folder);
    } else if (state.kind === 'stopped' && next.autoStart && !previous.autoStart) {
      await this.autoStart();
    }
  }

  /** At activation (or once trusted) with auto-start on: serve the first folder that has a board. */
  async autoStart(): Promise<void> {
    if (!workspaceTrusted()) return;
    const folder = this.folders.primary();
    if (folder && this.settingsFor(folder).autoStart) await this.start(folder);
  }

  /** The folder's service was reopened (new location) or closed: follow it. */
  async serviceReplaced(folder: FolderRef, service: KanbanService | null): Promise<void> {
    const state = this.server.state;
    if (state.kind !== 'running' || state.folder.key !== folder.key) return;
    if (service) await this.start(folder, state.port);
    else await this.stop();
  }

  private async offerAnotherPort(folder: FolderRef, error: PortInUseError): Promise<Running | undefined> {
    const free = await findFreePort(error.host).catch(() => null);
    const useFree = free ? `Use Port ${free}` : null;
    const enter = 'Enter Another Port…';
    const settings = 'Open Settings';
    const choices = [useFree, enter, settings].filter((c): c is string => Boolean(c));
    const choice = await vscode.window.showWarningMessage(
      `Kanban: port ${error.port} on ${error.host} is already in use by another program, so the API server did not start.`,
      ...choices,
    );
    if (choice === useFree && free) return this.start(folder, free);
    if (choice === enter) {
      const typed = await vscode.window.showInputBox({
        prompt: `Port for the Kanban API server (${error.port} is taken)`,
        value: free ? String(free) : '',
        validateInput: (value) => (isPort(value) ? null : 'A whole number from 1 to 65535'),
      });
      if (typed && isPort(typed)) return this.start(folder, Number(typed));
    }
    if (choice === settings) void vscode.commands.executeCommand('workbench.action.openSettings', 'kanban.server.port');
    return undefined;
  }
}

function isPort(value: string): boolean {
  const port = Number(value.trim());
  return /^\d+$/.test(value.trim()) && port >= 1 && port <= 65535;
}
