import * as vscode from 'vscode';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import { agentsAtWork, type AgentsAtWork } from './agentsAtWork';
import { PrimaryFolderService } from './primaryFolderService';

export const SHOW_AGENTS_COMMAND = 'kanban.showAgentsAtWork';

export interface AgentsState extends AgentsAtWork {
  folder: FolderRef;
  service: KanbanService;
}

/**
 * "$(hubot) 2 agents · $(bell) 1 awaiting input": how many agents hold claims in the folder's
 * workspace, and how many of their cards wait for a person. Hidden while no agent is at work; a
 * click lists the cards. Claims from other processes (an agent in another worktree) reach it
 * through the service's claim watcher, as events.
 */
export class AgentsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('kanban.agents', vscode.StatusBarAlignment.Left, 47);
  private readonly followed: PrimaryFolderService;
  private folder: FolderRef | null = null;
  state: AgentsState | null = null;

  constructor(primary: () => FolderRef | undefined) {
    this.item.name = 'Kanban Agents';
    this.item.command = SHOW_AGENTS_COMMAND;
    this.followed = new PrimaryFolderService(primary, (event) => {
      if (/^task\./.test(event.event)) this.refresh();
    });
  }

  follow(folder: FolderRef, service: KanbanService | null): void {
    if (!this.followed.follow(folder, service)) return;
    this.folder = folder;
    this.refresh();
  }

  /** Counts from the service's copy of the claims in memory: no I/O, so every task event may ask. */
  refresh(): void {
    const service = this.followed.service;
    if (!service || !this.folder) return this.hide();
    const { claims, index } = service.workspace;
    const atWork = agentsAtWork(claims.liveClaims(), claims.allSessions(), (boardId, cardId) =>
      index.get(boardId, cardId),
    );
    this.state = { ...atWork, folder: this.folder, service };
    const errors = atWork.cards.filter((c) => c.state === 'error').length;
    if (!atWork.agents.length && !atWork.awaiting.length && !errors) return this.hide();
    const parts = [`$(hubot) ${atWork.agents.length} agent${atWork.agents.length === 1 ? '' : 's'}`];
    if (atWork.awaiting.length) parts.push(`$(bell) ${atWork.awaiting.length} awaiting input`);
    if (errors) parts.push(`$(error) ${errors} failed`);
    this.item.text = parts.join(' · ');
    this.item.tooltip = `Kanban: ${atWork.agents.join(', ') || 'no agent'} at work; ${atWork.awaiting.length} card(s) wait for your input. Click to see them.`;
    this.item.show();
  }

  dispose(): void {
    this.followed.dispose();
    this.item.dispose();
  }

  private hide(): void {
    this.state = null;
    this.item.hide();
  }
}
