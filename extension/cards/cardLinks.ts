import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { currentBoardId, pickService } from '../commands/pickService';
import type { FolderRef } from '../service/folderServices';
import { titleOf } from '../../server/core/model';

/**
 * `vscode://<publisher>.<name>/open?board=<id>&card=<id>` (the editor's own scheme, so Insiders and
 * forks work too) opens the board at a card; `folder` names the workspace folder when there are several.
 */
export function cardUri(
  extensionId: string,
  folder: FolderRef,
  boardId: string,
  taskId: string,
  folderCount: number,
): string {
  const query = new URLSearchParams({
    board: boardId,
    card: taskId,
    ...(folderCount > 1 ? { folder: folder.name } : {}),
  });
  return `${vscode.env.uriScheme}://${extensionId}/open?${query}`;
}

/** Copy a card's vscode:// link (the board's card menu, and Copy Card Link from the palette). */
export async function copyCardUri(
  parts: ExtensionParts,
  folder: FolderRef,
  boardId: string,
  taskId: string,
): Promise<void> {
  await vscode.env.clipboard.writeText(
    cardUri(parts.context.extension.id, folder, boardId, taskId, parts.folders.all().length),
  );
  void vscode.window.showInformationMessage(`Kanban: copied the link to card ${taskId}.`);
}

/** Kanban: Copy Card Link: the card open on the board in front, else one picked by title. */
export async function copyCardLinkCommand(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Copy a link to a card of which folder?');
  if (!target) return;
  const active = target.service.workspace.activeTask;
  if (active) return copyCardUri(parts, target.folder, active.boardId, active.id);
  const boardId = currentBoardId(parts, target);
  const tasks = target.service.workspace.index.allCards().filter((c) => c.boardId === boardId);
  const picked = await vscode.window.showQuickPick(
    tasks.map((card) => ({ label: titleOf(card.content) || card.id, detail: card.id, card })),
    { placeHolder: 'Copy a link to which card?' },
  );
  if (picked) await copyCardUri(parts, target.folder, picked.card.boardId, picked.card.id);
}

/** Opens the board panel at the card a vscode:// link names. */
export function registerCardUriHandler(parts: ExtensionParts): vscode.Disposable {
  return vscode.window.registerUriHandler({
    handleUri: (uri) => {
      const query = new URLSearchParams(uri.query);
      const board = query.get('board');
      const card = query.get('card');
      if (uri.path !== '/open' || !board) {
        void vscode.window.showErrorMessage(
          `Kanban: cannot open ${uri.toString()}: a board link looks like ${vscode.env.uriScheme}://${parts.context.extension.id}/open?board=<id>&card=<id>`,
        );
        return;
      }
      const folders = parts.folders.all();
      const folder = folders.find((f) => f.name === query.get('folder')) ?? parts.panels.activeFolder() ?? folders[0];
      if (!folder) {
        void vscode.window.showErrorMessage('Kanban: open a folder with a board first, then the link again.');
        return;
      }
      parts.currentBoard.set(folder.key, board);
      parts.panels.open(
        folder,
        card ? { type: 'openTask', boardId: board, taskId: card } : { type: 'showBoard', boardId: board },
      );
    },
  });
}
