import * as vscode from 'vscode';
import type { FolderAccess } from '../auth/folderAccess';
import type { FolderRef, FolderServices } from '../service/folderServices';
import type { BridgeHost } from './bridgeHost';
import type { HostCommandMessage } from './hostMessages';
import { boardWebviewOptions, loadBoardPage } from './boardWebview';
import { WebviewBridge } from './webviewBridge';

export const BOARD_VIEW_TYPE = 'kanban.board';
/** Which folder a restored panel shows (the UI keeps its own state; this is the host's part). */
const LAST_FOLDER_KEY = 'kanban.lastBoardFolder';

interface OpenPanel {
  panel: vscode.WebviewPanel;
  bridge: WebviewBridge;
}

/**
 * Board editor panels: one per workspace folder, revealed when opened again, restored after a
 * window reload by the serializer. Each panel talks to its folder's shared service.
 */
export class BoardPanels implements vscode.Disposable {
  private panels = new Map<string, OpenPanel>();
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: FolderServices,
    private readonly folderByKey: (key: string | undefined) => FolderRef | undefined,
    private readonly access: FolderAccess,
    private readonly host: BridgeHost,
  ) {
    this.registration = vscode.window.registerWebviewPanelSerializer(BOARD_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => this.restore(panel),
    });
  }

  /** Show the folder's board, creating the panel if needed. */
  open(folder: FolderRef, command?: HostCommandMessage): vscode.WebviewPanel {
    const existing = this.panels.get(folder.key);
    if (existing) {
      existing.panel.reveal();
      if (command) existing.bridge.command(command);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(BOARD_VIEW_TYPE, this.title(folder), vscode.ViewColumn.Active, {
      ...boardWebviewOptions(this.context.extensionUri),
      // A rebuilt page took 1.4-2 s to come back on a large board and lost the open card, the
      // search and unsaved text in the drawer; a kept page is back at once, exactly as it was.
      retainContextWhenHidden: true,
    });
    const bridge = this.adopt(panel, folder);
    if (command) bridge.command(command);
    return panel;
  }

  /** The folder of the panel the user is looking at, for commands that act on "this board". */
  activeFolder(): FolderRef | undefined {
    for (const { panel, bridge } of this.panels.values()) if (panel.active) return bridge.folder;
    return undefined;
  }

  /** The board the folder's panel shows, as the page last reported; null without a panel. */
  shownBoard(folder: FolderRef): string | null {
    return this.panels.get(folder.key)?.bridge.shownBoardId ?? null;
  }

  isOpen(folder: FolderRef): boolean {
    return this.panels.has(folder.key);
  }

  /** A host command for the folder's open panel, if any; returns whether one received it. */
  command(folder: FolderRef, message: HostCommandMessage): boolean {
    const open = this.panels.get(folder.key);
    open?.bridge.command(message);
    return Boolean(open);
  }

  dispose(): void {
    this.registration.dispose();
    for (const { panel } of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }

  private async restore(panel: vscode.WebviewPanel): Promise<void> {
    const folder = this.folderByKey(this.context.workspaceState.get<string>(LAST_FOLDER_KEY));
    if (!folder || this.panels.has(folder.key)) {
      panel.dispose();
      return;
    }
    this.adopt(panel, folder);
  }

  private adopt(panel: vscode.WebviewPanel, folder: FolderRef): WebviewBridge {
    panel.title = this.title(folder);
    loadBoardPage(panel.webview, this.context.extensionUri, panel.title);
    const bridge = new WebviewBridge(panel.webview, folder, this.services, this.access, this.host);
    this.panels.set(folder.key, { panel, bridge });
    void this.context.workspaceState.update(LAST_FOLDER_KEY, folder.key);
    panel.onDidDispose(() => {
      bridge.dispose();
      if (this.panels.get(folder.key)?.panel === panel) this.panels.delete(folder.key);
    });
    panel.onDidChangeViewState(() => {
      if (panel.active) void this.context.workspaceState.update(LAST_FOLDER_KEY, folder.key);
    });
    return bridge;
  }

  private title(folder: FolderRef): string {
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `Kanban: ${folder.name}` : 'Kanban';
  }
}
