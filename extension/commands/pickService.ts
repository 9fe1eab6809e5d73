import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { ApiCallError, type ApiTarget } from '../service/callApi';
import { boardOrOffer } from './createBoard';

/** A folder and its shared service, with the access layer that carries the folder's token. */
export type FolderService = ApiTarget;

/**
 * The folder a command acts on (the board in front first) and its shared service; a folder without
 * a board gets one only if the person accepts Create Board.
 */
export async function pickService(parts: ExtensionParts, purpose: string): Promise<FolderService | undefined> {
  const folder = await parts.folders.choose(purpose, parts.panels.activeFolder());
  if (!folder || !(await boardOrOffer(parts, folder))) return undefined;
  try {
    return { folder, service: await parts.services.get(folder), access: parts.access };
  } catch (error) {
    void vscode.window.showErrorMessage(`Kanban: cannot open the board in ${folder.name}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * The board commands act on: the folder's current board (the one its panel shows or last chose,
 * or Switch Board, the sidebar or a card link chose since), if it still exists, else the default.
 * The panel's own report is not asked first: right after a choice elsewhere it still names the
 * board it is leaving, and the sidebar and status bar stayed there.
 */
export function currentBoardId(parts: ExtensionParts, { folder, service }: FolderService): string {
  const chosen = parts.currentBoard.get(folder.key);
  const boards = service.workspace.config.boards;
  return chosen && boards.some((b) => b.id === chosen) ? chosen : service.workspace.defaultBoardId;
}

/**
 * Any error becomes a notification naming the command as the palette does (never its internal id):
 * a command must never throw into the extension host.
 */
export function guarded<A extends unknown[]>(
  title: string,
  run: (...args: A) => Promise<unknown>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (error) {
      if (error instanceof ApiCallError && error.alreadyShown) return;
      void vscode.window.showErrorMessage(`Kanban: ${title} failed: ${(error as Error).message}`);
    }
  };
}
