import * as vscode from 'vscode';
import { currentBoardId } from '../commands/pickService';
import { localToday } from '../cards/overdue';
import type { ExtensionParts } from '../parts';
import { callApi, type ApiTarget } from '../service/callApi';
import type { FolderRef } from '../service/folderServices';
import { cardItem, columnItem, type BoardNode, type CardNode, type ColumnNode } from './boardTreeItems';

export const SIDEBAR_VIEW_ID = 'kanban.sidebar';
const CARD_MIME = 'application/vnd.code.tree.kanban.sidebar';
/** Which folder the sidebar shows in a multi-root workspace, kept per workspace. */
const FOLDER_KEY = 'kanban.sidebarFolder';
/** Whether the sidebar's folder has a board: without one the view shows its welcome (package.json viewsWelcome). */
export const HAS_BOARD_CONTEXT = 'kanban.hasBoard';

interface BoardView {
  columns: { id: string; name: string }[];
  minimizedColumnIds: string[];
  name: string;
}

interface TaskRow {
  id: string;
  title: string;
  status: string;
  priority: string;
  assignee: string | null;
  dueDate: string | null;
  position: number;
}

/**
 * The board as a compact list for the sidebar: columns with their counts, folded or not, and one
 * row per card; drag rows between columns, click a row to open the card in the board panel.
 *
 * A native TreeView rather than the board page squeezed to 300 px: it has the editor's own look,
 * keyboard and screen-reader support, folding and drag and drop for free, and costs no second
 * webview. Everything goes through the API with the folder's token, like the board page.
 */
export class BoardTree
  implements vscode.TreeDataProvider<BoardNode>, vscode.TreeDragAndDropController<BoardNode>, vscode.Disposable
{
  readonly dragMimeTypes = [CARD_MIME];
  readonly dropMimeTypes = [CARD_MIME];
  private readonly changed = new vscode.EventEmitter<BoardNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<BoardNode>;
  private readonly disposables: vscode.Disposable[] = [];
  private stopEvents: (() => void) | null = null;
  private followedService: unknown = null;
  private pending: NodeJS.Timeout | undefined;
  /** The last answer, so a card row can find its column without asking again. */
  private columns: ColumnNode[] = [];
  private cards = new Map<string, CardNode[]>();
  /** The board listed now: only its changes redraw the list. */
  private listedBoardId: string | null = null;

  constructor(private readonly parts: ExtensionParts) {
    this.view = vscode.window.createTreeView(SIDEBAR_VIEW_ID, {
      treeDataProvider: this,
      dragAndDropController: this,
      showCollapseAll: true,
      canSelectMany: false,
    });
    this.disposables.push(this.view, this.changed);
    // No redraw on becoming visible: events keep the list current while hidden too, and a redraw
    // under a click replaces the row being clicked (the editor then refuses its stale command).
    this.disposables.push(vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()));
    this.disposables.push(parts.presence.onDidChange(() => this.refresh()));
    this.updateMultiRoot();
    this.updateHasBoard();
  }

  /** The folder the sidebar shows: the one the user chose, else the first with a board. */
  folder(): FolderRef | undefined {
    return (
      this.parts.folders.byKey(this.parts.context.workspaceState.get<string>(FOLDER_KEY)) ??
      this.parts.folders.primary()
    );
  }

  async showFolder(folder: FolderRef): Promise<void> {
    await this.parts.context.workspaceState.update(FOLDER_KEY, folder.key);
    this.refresh();
  }

  refresh(): void {
    this.updateHasBoard();
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.changed.fire(undefined), 50);
  }

  getTreeItem(node: BoardNode): vscode.TreeItem {
    return node.kind === 'column' ? columnItem(node) : cardItem(node, localToday());
  }

  getParent(node: BoardNode): BoardNode | undefined {
    return node.kind === 'card' ? this.columns.find((c) => c.columnId === node.status) : undefined;
  }

  async getChildren(node?: BoardNode): Promise<BoardNode[]> {
    if (node?.kind === 'card') return [];
    if (node?.kind === 'column') return this.cards.get(node.columnId) ?? [];
    return this.loadBoard();
  }

  async handleDrag(nodes: readonly BoardNode[], transfer: vscode.DataTransfer): Promise<void> {
    const cards = nodes.filter((n): n is CardNode => n.kind === 'card');
    if (cards.length)
      transfer.set(
        CARD_MIME,
        new vscode.DataTransferItem(
          cards.map((c) => ({ boardId: c.boardId, taskId: c.taskId, folderKey: c.folderKey })),
        ),
      );
  }

  /** Onto a column: to its top. Onto a card: to that card's place, as on the board. */
  async handleDrop(target: BoardNode | undefined, transfer: vscode.DataTransfer): Promise<void> {
    const dragged = transfer.get(CARD_MIME)?.value as
      { boardId: string; taskId: string; folderKey: string }[] | undefined;
    if (!target || !dragged?.length) return;
    const status = target.kind === 'column' ? target.columnId : target.status;
    const position = target.kind === 'column' ? 0 : target.position;
    const api = await this.target();
    if (!api) return;
    for (const card of dragged.filter((c) => c.folderKey === api.folder.key && c.boardId === target.boardId)) {
      await callApi(
        api,
        'PATCH',
        `/boards/${encodeURIComponent(card.boardId)}/tasks/${encodeURIComponent(card.taskId)}/move`,
        { status, position },
      ).catch((error: Error) => {
        void vscode.window.showErrorMessage(`Kanban: the card was not moved: ${error.message}`);
      });
    }
  }

  dispose(): void {
    clearTimeout(this.pending);
    this.stopEvents?.();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private async target(): Promise<ApiTarget | undefined> {
    const folder = this.folder();
    if (!folder) return undefined;
    const service = await this.parts.services.get(folder).catch(() => null);
    return service ? { folder, service, access: this.parts.access } : undefined;
  }

  private async loadBoard(): Promise<BoardNode[]> {
    this.updateMultiRoot();
    const folder = this.folder();
    if (folder && !this.parts.folders.hasKanban(folder)) {
      // An empty tree lets the welcome (Create Board) show; five empty columns would explain nothing.
      const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      this.view.message = undefined;
      this.view.title = multiRoot ? folder.name : 'Board';
      this.view.description = undefined;
      return [];
    }
    const api = await this.target();
    if (!api) {
      this.view.message = this.folder()
        ? `The board of ${this.folder()!.name} cannot be read; see the Kanban output.`
        : 'Open a folder to see its kanban board.';
      return [];
    }
    this.follow(api);
    const boardId = currentBoardId(this.parts, api);
    this.listedBoardId = boardId;
    try {
      const [board, tasks] = await Promise.all([
        callApi<BoardView>(api, 'GET', `/boards/${encodeURIComponent(boardId)}`),
        callApi<TaskRow[]>(api, 'GET', `/boards/${encodeURIComponent(boardId)}/tasks`),
      ]);
      this.view.message = undefined;
      const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
      this.view.description = multiRoot ? `${api.folder.name} · ${board.name}` : board.name;
      // A view alone in its container shows the title, not the description: the folder goes there too.
      this.view.title = multiRoot ? `${api.folder.name}: ${board.name}` : board.name;
      this.cards = new Map(board.columns.map((c) => [c.id, [] as CardNode[]]));
      for (const task of [...tasks].sort((a, b) => a.position - b.position)) {
        this.cards.get(task.status)?.push({
          kind: 'card',
          folderKey: api.folder.key,
          boardId,
          taskId: task.id,
          status: task.status,
          title: task.title || task.id,
          priority: task.priority,
          assignee: task.assignee,
          dueDate: task.dueDate,
          position: task.position,
        });
      }
      this.columns = board.columns.map((c) => ({
        kind: 'column',
        folderKey: api.folder.key,
        boardId,
        columnId: c.id,
        name: c.name,
        count: this.cards.get(c.id)!.length,
        minimized: board.minimizedColumnIds.includes(c.id),
      }));
      return this.columns;
    } catch (error) {
      this.view.message = `Kanban: ${(error as Error).message}`;
      return [];
    }
  }

  /** Changes from anywhere (the board, the API, a hand edit) redraw the list. */
  private follow(api: ApiTarget): void {
    if (this.followedService === api.service) return;
    this.stopEvents?.();
    this.followedService = api.service;
    this.stopEvents = api.service.workspace.events.on((event) => {
      const listed =
        event.boardId === null ||
        event.boardId === this.listedBoardId ||
        ('fromBoard' in event.data && event.data.fromBoard === this.listedBoardId);
      if (listed && /^(task|column|board)\./.test(event.event)) this.refresh();
    });
  }

  private updateHasBoard(): void {
    const folder = this.folder();
    void vscode.commands.executeCommand(
      'setContext',
      HAS_BOARD_CONTEXT,
      folder ? this.parts.folders.hasKanban(folder) : false,
    );
  }

  private updateMultiRoot(): void {
    void vscode.commands.executeCommand(
      'setContext',
      'kanban.multiRoot',
      (vscode.workspace.workspaceFolders?.length ?? 0) > 1,
    );
  }
}
