import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { initWorkspace } from '../../server/service/initWorkspace';
import type { ExtensionParts } from '../parts';
import type { FolderRef } from '../service/folderServices';
import { explainRestricted, RESTRICTED_WRITE, workspaceTrusted } from '../trust';

const CREATE = 'Create Board';

/** Create Board: what `kanban init` does, in a folder that has no board; the board opens after. */
export async function createBoardCommand(parts: ExtensionParts): Promise<void> {
  const folder = await folderWithoutBoard(parts);
  if (!folder) return;
  if (parts.folders.hasKanban(folder)) {
    void vscode.window.showInformationMessage(`Kanban: ${folder.name} already has a board.`);
  } else {
    await createBoard(parts, folder);
    void vscode.window.showInformationMessage(
      `Kanban: created the board of ${folder.name}: .kanban.json and .kanban/. Commit them to share the board.`,
    );
  }
  parts.panels.open(folder);
}

/**
 * Whether the folder has a board, after offering to create one when it has none: nothing is
 * written to a folder before the person says so (a first card would otherwise start a board
 * without its `.kanban.json`).
 */
export async function boardOrOffer(parts: ExtensionParts, folder: FolderRef): Promise<boolean> {
  if (parts.folders.hasKanban(folder)) return true;
  // Restricted Mode writes nothing, a new board included: say so rather than offer it.
  if (!workspaceTrusted()) {
    explainRestricted(RESTRICTED_WRITE);
    return false;
  }
  const choice = await vscode.window.showInformationMessage(
    `Kanban: ${folder.name} has no board yet. Create one?`,
    { modal: true, detail: 'This writes .kanban.json and .kanban/.gitignore, as `kanban init` does.' },
    CREATE,
  );
  if (choice !== CREATE) return false;
  await createBoard(parts, folder);
  return true;
}

async function createBoard(parts: ExtensionParts, folder: FolderRef): Promise<void> {
  const root = parts.folders.rootOf(folder);
  // `kanban.location` may name a folder that does not exist yet; the person asked for a board there.
  await fs.mkdir(root, { recursive: true });
  const created = await initWorkspace(root);
  // A service opened over the empty folder (a read before) knows nothing of the new configuration.
  await parts.services.close(folder.key);
  parts.log(`created a board in ${folder.name}: ${created.configPath}`);
  parts.presence.changed();
}

/** The only folder, or the one picked among those without a board (each named). */
async function folderWithoutBoard(parts: ExtensionParts): Promise<FolderRef | undefined> {
  const folders = parts.folders.all();
  if (folders.length <= 1) return parts.folders.choose('Create a board in which folder?');
  const candidates = folders.filter((folder) => !parts.folders.hasKanban(folder));
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage('Kanban: every folder of this workspace already has a board.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((folder) => ({ label: folder.name, detail: parts.folders.rootOf(folder), folder })),
    { placeHolder: 'Create a board in which folder?', ignoreFocusOut: true },
  );
  return picked?.folder;
}
