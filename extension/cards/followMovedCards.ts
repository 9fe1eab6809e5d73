import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EventOf } from '../../server/core/events';
import { log } from '../../server/core/log';
import { titleOf } from '../../server/core/model';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';
import { cardFilePath } from './cardOfFile';
import { guardUnsavedCards } from './unsavedCardGuard';

const OPEN_MOVED = 'Open Moved Card';

/**
 * A card's file moves with the card (another column or board). An editor showing the old path
 * would show the file deleted, and a save there would recreate it: a second copy. So an editor
 * without unsaved changes follows the card to its new path, in the same place; one with unsaved
 * changes is left alone (its text is the user's) and the user is warned and offered the moved card.
 */
export class FollowMovedCards implements vscode.Disposable {
  private readonly followed = new Map<string, () => void>();

  follow(folder: FolderRef, service: KanbanService): void {
    this.forget(folder);
    const stopFollowing = service.workspace.events.on((event) => {
      if (event.event === 'task.moved')
        void this.moved(service, event).catch((error) =>
          log.warn('kanban: could not take an editor along to a moved card file:', error),
        );
    });
    const stopGuarding = guardUnsavedCards(service);
    this.followed.set(folder.key, () => {
      stopFollowing();
      stopGuarding();
    });
  }

  forget(folder: FolderRef): void {
    this.followed.get(folder.key)?.();
    this.followed.delete(folder.key);
  }

  dispose(): void {
    for (const stop of this.followed.values()) stop();
    this.followed.clear();
  }

  private async moved(service: KanbanService, event: EventOf<'task.moved'>): Promise<void> {
    const { data, card } = event;
    const oldFile = cardFilePath(service, { id: card.id, boardId: data.fromBoard ?? card.boardId, status: data.from });
    const newFile = cardFilePath(service, card);
    if (!oldFile || !newFile || oldFile === newFile) return;
    const tabs = tabsShowing(oldFile);
    if (!tabs.length) return;
    const document = vscode.workspace.textDocuments.find(
      (d) => d.uri.scheme === 'file' && samePath(d.uri.fsPath, oldFile),
    );
    const newUri = vscode.Uri.file(newFile);
    if (document?.isDirty) {
      const title = titleOf(card.content) || card.id;
      const to = path.relative(service.root, newFile).split(path.sep).join('/');
      const choice = await vscode.window.showWarningMessage(
        `Kanban: "${title}" moved to ${to} while its file had unsaved changes here. Saving this tab would make a second copy of the card; open the moved card and carry your change over instead.`,
        OPEN_MOVED,
      );
      if (choice === OPEN_MOVED) await vscode.window.showTextDocument(newUri, { preview: false });
      return;
    }
    for (const tab of tabs) {
      // Where the user was in the file: the moved file opens with the same selection and scroll.
      const before = (vscode.window.visibleTextEditors ?? []).find(
        (e) => samePath(e.document.uri.fsPath, oldFile) && e.viewColumn === tab.group.viewColumn,
      );
      const place = before && { selections: before.selections, top: before.visibleRanges[0] };
      // Opened where the old one was, then the old one closed: the layout stays as the user made it.
      const editor = await vscode.window.showTextDocument(newUri, {
        viewColumn: tab.group.viewColumn,
        preview: tab.isPreview,
        preserveFocus: !tab.group.isActive || !tab.isActive,
        ...(place ? { selection: place.selections[0] } : {}),
      });
      if (place && editor) {
        editor.selections = [...place.selections];
        if (place.top) editor.revealRange(place.top, vscode.TextEditorRevealType.AtTop);
      }
    }
    // Looked up again: the editor hands out new tab objects as groups change, and refuses to close stale ones.
    const stale = tabsShowing(oldFile);
    if (stale.length) await vscode.window.tabGroups.close(stale, true);
  }
}

function samePath(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}

function tabsShowing(file: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputText &&
        tab.input.uri.scheme === 'file' &&
        samePath(tab.input.uri.fsPath, file),
    );
}
