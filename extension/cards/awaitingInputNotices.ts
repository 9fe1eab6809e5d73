import * as vscode from 'vscode';
import type { ServiceEvent } from '../../server/core/events';
import type { TaskView } from '../../server/core/model';
import type { CardSession } from '../../server/core/sessions';
import type { FolderRef } from '../service/folderServices';
import { PrimaryFolderService } from './primaryFolderService';

export interface NoticeSource {
  primary(): FolderRef | undefined;
  /** Who "my" cards belong to: `git config user.name` of the folder. */
  person(folder: FolderRef): Promise<string>;
  /** Open the card on the board. */
  open(folder: FolderRef, boardId: string, taskId: string): void;
}

/**
 * A notification when an agent starts waiting for an answer on a card assigned to the current git
 * user: that person is the one who can unblock it. Each report notifies once (a session turning
 * stale later repeats its state, not the question).
 */
export class AwaitingInputNotices implements vscode.Disposable {
  private readonly followed: PrimaryFolderService;
  private readonly told = new Set<string>();

  constructor(private readonly source: NoticeSource) {
    this.followed = new PrimaryFolderService(source.primary, (event, folder) => void this.consider(event, folder));
  }

  follow(folder: FolderRef, service: Parameters<PrimaryFolderService['follow']>[1]): void {
    this.followed.follow(folder, service);
  }

  dispose(): void {
    this.followed.dispose();
  }

  private async consider(event: ServiceEvent, folder: FolderRef): Promise<void> {
    if (event.event !== 'task.session') return;
    const { card } = event;
    const { session } = event.data;
    if (!session || session.state !== 'awaitingInput' || session.stale) return;
    const once = `${card.boardId}/${card.id}@${session.updatedAt}`;
    if (this.told.has(once) || !card.assignee) return;
    this.told.add(once);
    const person = (await this.source.person(folder).catch(() => '')).trim().toLowerCase();
    if (!person || card.assignee.trim().toLowerCase() !== person) return;
    void this.notify(folder, card, session);
  }

  private async notify(folder: FolderRef, card: TaskView, session: CardSession): Promise<void> {
    const note = session.note ? `: ${session.note}` : '';
    const choice = await vscode.window.showInformationMessage(
      `Kanban: agent ${session.agent} needs your input on "${card.title}"${note}`,
      'Open Card',
    );
    if (choice === 'Open Card') this.source.open(folder, card.boardId, card.id);
  }
}
