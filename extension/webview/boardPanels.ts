import * as vscode from 'vscode';
import type { FolderAccess } from '../auth/folderAccess';
import type { ChosenBoards } from '../commands/chosenBoards';
import { withFolder } from '../ui/folders';
import type { FolderRef, FolderServices } from '../service/folderServices';
import type { BridgeHost } from './bridgeHost';
import type { HostCommandMessage } from './hostMessages';
import { boardWebviewOptions, loadBoardPage } from './boardWebview';
import { WebviewBridge } from './webviewBridge';
import { boardCardsPath } from '../../webview/listQuery';

export const BOARD_VIEW_TYPE = 'kanban.board';
/** Which folder a restored panel shows (the UI keeps its own state; this is the host's part). */
const LAST_FOLDER_KEY = 'kanban.lastBoardFolder';

interface OpenPanel {
  panel: vscode.WebviewPanel;
  bridge: WebviewBridge;
  /** The board a command sent to the page just now shows: it need not be told again. */
  askedBoardId?: string;
}

/**
 * Board editor panels: one per workspace folder, revealed when opened again, restored after a
 * window reload by the serializer. Each panel talks to its folder's shared service, shows the
 * folder's current board (ChosenBoards, which the sidebar and the status bar follow too: a board
 * chosen anywhere is shown everywhere) and is titled with that board's name.
 */
export class BoardPanels implements vscode.Disposable {
  private panels = new Map<string, OpenPanel>();
  private readonly registration: vscode.Disposable;
  private readonly following: vscode.Disposable;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: FolderServices,
    private readonly folderByKey: (key: string | undefined) => FolderRef | undefined,
    private readonly access: FolderAccess,
    private readonly host: BridgeHost,
    private readonly chosen: ChosenBoards,
  ) {
    this.registration = vscode.window.registerWebviewPanelSerializer(BOARD_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => this.restore(panel),
    });
    this.following = chosen.onDidChange((folderKey) => this.followChosen(folderKey));
  }

  /** Show the folder's board, creating the panel if needed. */
  open(folder: FolderRef, command?: HostCommandMessage): vscode.WebviewPanel {
    const existing = this.panels.get(folder.key);
    if (existing) {
      existing.panel.reveal();
      if (command) this.send(existing, command);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(BOARD_VIEW_TYPE, this.title(folder), vscode.ViewColumn.Active, {
      ...boardWebviewOptions(this.context.extensionUri),
      // A rebuilt page took 1.4-2 s to come back on a large board and lost the open card, the
      // search and unsaved text in the drawer; a kept page is back at once, exactly as it was.
      retainContextWhenHidden: true,
    });
    this.adopt(panel, folder);
    // A new page would show the board it kept, or the default: it shows the folder's current one.
    const boardId = this.chosen.get(folder.key);
    const opening = command ?? (boardId ? { type: 'showBoard' as const, boardId } : undefined);
    if (opening) this.send(this.panels.get(folder.key)!, opening);
    return panel;
  }

  /**
   * Reads the folder's cards and builds the card list its board page asks for first (as
   * `Api.listTasks` will), so the page's request takes the bytes the service keeps (its read cache,
   * valid until anything changes). Runs soon after activation and again when a panel opens, which
   * then finds it done or on the way. A failure is reported when the page asks. Before any panel,
   * the list is built only for boards up to `listUpTo` cards: the answer stays in memory until the
   * board changes, and at 100,000 cards it is tens of megabytes a user may never open.
   */
  prepare(folder: FolderRef, listUpTo = Infinity): void {
    void this.services
      .get(folder)
      .then((service) => {
        if (service.workspace.index.size > listUpTo) return;
        const boardId = this.chosen.get(folder.key) ?? service.workspace.defaultBoardId;
        return this.access.dispatch(service, folder, { method: 'GET', path: boardCardsPath(boardId), asJson: true });
      })
      .catch(() => undefined);
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
    if (open) this.send(open, message);
    return Boolean(open);
  }

  dispose(): void {
    this.registration.dispose();
    this.following.dispose();
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
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'extension', 'media', 'icon.png');
    loadBoardPage(panel.webview, this.context.extensionUri, panel.title);
    const bridge = new WebviewBridge(panel.webview, folder, this.services, this.access, this.host);
    // While the page loads, not after it asks: on a large board each step takes about as long.
    this.prepare(folder);
    // Renamed in the page, the CLI or by hand in .kanban.json: the tab keeps the board's name.
    bridge.onDidChangeBoards(() => this.retitle(folder));
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

  /** A board chosen elsewhere (the palette, the sidebar, a card link): the folder's panel shows it too. */
  private followChosen(folderKey: string): void {
    const open = this.panels.get(folderKey);
    if (!open) return;
    this.retitle(open.bridge.folder);
    // Whoever chose usually opens the panel next with its own command (open this card on that
    // board): wait for it, so the page is not sent to the board twice.
    queueMicrotask(() => {
      const boardId = this.chosen.get(folderKey);
      if (!boardId || this.panels.get(folderKey) !== open) return;
      if (open.bridge.shownBoardId !== boardId && open.askedBoardId !== boardId)
        this.send(open, { type: 'showBoard', boardId });
    });
  }

  private send(open: OpenPanel, command: HostCommandMessage): void {
    // Remembered only until the choices made with this command are followed: a later choice of the
    // same board (after the page went elsewhere) must reach the page.
    open.askedBoardId = command.boardId;
    queueMicrotask(() => {
      if (open.askedBoardId === command.boardId) open.askedBoardId = undefined;
    });
    open.bridge.command(command);
  }

  /** The page reported its board, or the board was renamed: the tab says so. */
  retitle(folder: FolderRef): void {
    const open = this.panels.get(folder.key);
    if (open) open.panel.title = this.title(folder);
  }

  /** The tab says which board it shows (and in which folder, when there are several). */
  private title(folder: FolderRef): string {
    const workspace = this.services.peek(folder)?.workspace;
    const wanted = this.chosen.get(folder.key) ?? workspace?.defaultBoardId;
    const board = workspace?.config.boards.find((b) => b.id === wanted);
    return withFolder(board?.name ?? 'Kanban', folder);
  }
}
