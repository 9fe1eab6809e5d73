import * as vscode from 'vscode';
import { branchNamesCard } from '../../server/core/gitLinkModel';
import { titleOf, type Card } from '../../server/core/model';
import { PrimaryFolderService } from '../cards/primaryFolderService';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import { branchOfHead, gitDirOf, watchHead } from './gitHead';

export const SHOW_ON_BOARD = 'kanban.showOnBoard';

/** The card a branch is named after, as the service's git links decide (the longest id wins). */
export function cardOfBranch(branch: string, service: KanbanService): Card | undefined {
  const { index } = service.workspace;
  const isCardId = (id: string) => index.hasId(id);
  return index
    .allCards()
    .filter((card) => !card.archivedAt && branchNamesCard(branch, card.id, isCardId))
    .sort((a, b) => b.id.length - a.id.length)[0];
}

/**
 * "$(git-branch) Fix login · In Progress": the card the checked-out branch is named after (the
 * service's git links: a branch whose name holds the card id), with its column. Hidden on any
 * other branch; a click opens the card on the board. Follows branch switches through HEAD.
 */
export class BranchCardStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kanban.branchCard', vscode.StatusBarAlignment.Left, 46);
  private readonly followed: PrimaryFolderService;
  private folder: FolderRef | null = null;
  private headWatch: { dispose(): void } | null = null;
  private branch: string | null = null;
  private gitDir: string | null = null;
  /** Bumped by every read of HEAD, so a late answer does not win over a newer one. */
  private generation = 0;
  private shown = false;

  constructor(primary: () => FolderRef | undefined) {
    this.item.name = 'Kanban Card of the Branch';
    this.followed = new PrimaryFolderService(primary, (event) => {
      if (event.event.startsWith('task.') || event.event.startsWith('column.') || event.event === 'board.updated')
        this.refresh();
    });
  }

  /** For the tests and the e2e: what the item shows now ('' when hidden). */
  get text(): string {
    return this.shown ? this.item.text : '';
  }

  follow(folder: FolderRef, service: KanbanService | null): void {
    if (!this.followed.follow(folder, service)) return;
    if (this.folder?.key !== folder.key) void this.watch(folder);
    else this.refresh();
  }

  /** Reads HEAD again (the watcher calls this); resolves once the item shows what HEAD says. */
  async readHead(): Promise<void> {
    const mine = ++this.generation;
    const branch = this.gitDir ? await branchOfHead(this.gitDir) : null;
    if (mine !== this.generation) return;
    this.branch = branch;
    this.refresh();
  }

  refresh(): void {
    const service = this.followed.service;
    const card = this.branch && service ? cardOfBranch(this.branch, service) : undefined;
    if (!card || !service || !this.folder) return this.hide();
    const board = service.workspace.config.boards.find((b) => b.id === card.boardId);
    const column = board?.columns.find((c) => c.id === card.status)?.name ?? card.status;
    const title = titleOf(card.content) || card.id;
    this.item.text = `$(git-branch) ${title} · ${column}`;
    this.item.tooltip = `Kanban: branch ${this.branch} is card "${title}" (${card.id}), in ${column}. Click to open it on the board.`;
    this.item.command = {
      title: 'Show on Board',
      command: SHOW_ON_BOARD,
      arguments: [{ folderKey: this.folder.key, boardId: card.boardId, taskId: card.id }],
    };
    this.item.show();
    this.shown = true;
  }

  dispose(): void {
    this.headWatch?.dispose();
    this.followed.dispose();
    this.item.dispose();
  }

  private async watch(folder: FolderRef): Promise<void> {
    this.folder = folder;
    this.headWatch?.dispose();
    this.headWatch = null;
    this.gitDir = await gitDirOf(folder.fsPath);
    if (this.folder !== folder) return;
    if (this.gitDir) this.headWatch = watchHead(this.gitDir, () => void this.readHead());
    await this.readHead();
  }

  private hide(): void {
    this.shown = false;
    this.item.hide();
  }
}
