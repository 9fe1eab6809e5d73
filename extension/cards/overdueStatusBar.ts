import * as vscode from 'vscode';
import type { Card } from '../../server/core/model';
import type { FolderRef } from '../service/folderServices';
import { withFolder } from '../ui/folders';
import type { KanbanService } from '../service/kanbanService';
import { localToday, overdueCardsOf } from './overdue';
import { PrimaryFolderService } from './primaryFolderService';

export const SHOW_OVERDUE_COMMAND = 'kanban.showMyOverdueCards';
/** A date changes at midnight without any event: look again now and then. */
const RECHECK_MS = 10 * 60_000;

export interface OverdueSource {
  /** The folder the item speaks for (the first with a board) and the board shown there. */
  folder(): FolderRef | undefined;
  boardId(folder: FolderRef, service: KanbanService): string;
  /** Who "my" cards belong to: `git config user.name` of the folder. */
  person(folder: FolderRef): Promise<string>;
}

export interface OverdueState {
  folder: FolderRef;
  service: KanbanService;
  boardId: string;
  boardName: string;
  person: string;
  cards: Card[];
}

/**
 * "$(project) Roadmap · 2 overdue": the board and how many of its cards assigned to the current
 * git user are overdue. It appears once the folder's board has been read (by any part of the
 * extension), so activation stays cheap; a click lists those cards.
 */
export class OverdueStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kanban.overdue', vscode.StatusBarAlignment.Left, 48);
  private readonly timer: NodeJS.Timeout;
  private readonly followed: PrimaryFolderService;
  private generation = 0;
  private pending: NodeJS.Timeout | undefined;
  state: OverdueState | null = null;

  constructor(private readonly source: OverdueSource) {
    this.followed = new PrimaryFolderService(source.folder, (event) => {
      if (/^(task|board|column|settings)\./.test(event.event)) this.refreshSoon();
    });
    this.item.name = 'Kanban Overdue Cards';
    this.item.command = SHOW_OVERDUE_COMMAND;
    this.timer = setInterval(() => void this.refreshNow(), RECHECK_MS);
    this.timer.unref?.();
  }

  /** A folder's service opened or was replaced: if it is the one the item speaks for, follow it. */
  follow(folder: FolderRef, service: KanbanService | null): void {
    if (this.followed.follow(folder, service)) void this.refreshNow();
  }

  get text(): string {
    return this.state ? this.item.text : '';
  }

  dispose(): void {
    clearInterval(this.timer);
    clearTimeout(this.pending);
    this.followed.dispose();
    this.item.dispose();
  }

  /** A burst of events (a checkout) counts once. */
  private refreshSoon(): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => void this.refreshNow(), 150);
  }

  async refreshNow(): Promise<void> {
    const mine = ++this.generation;
    const folder = this.source.folder();
    const service = this.followed.service;
    if (!folder || !service) return this.hide();
    const person = await this.source.person(folder).catch(() => '');
    if (mine !== this.generation) return;
    const boardId = this.source.boardId(folder, service);
    const board = service.workspace.config.boards.find((b) => b.id === boardId);
    if (!board) return this.hide();
    const cards = overdueCardsOf(board, service.workspace.index.cardsOf(board.id), person, localToday());
    this.state = { folder, service, boardId, boardName: board.name, person, cards };
    const name = withFolder(board.name, folder);
    this.item.text = cards.length ? `$(project) ${name} · $(warning) ${cards.length} overdue` : `$(project) ${name}`;
    this.item.tooltip = person
      ? `Kanban: ${cards.length || 'no'} overdue card(s) on ${name} assigned to ${person}. Click to see them.`
      : `Kanban: ${name}. Set git config user.name to see the overdue cards assigned to you.`;
    this.item.show();
  }

  private hide(): void {
    this.state = null;
    this.item.hide();
  }
}
