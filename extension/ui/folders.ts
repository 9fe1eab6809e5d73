import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { kanbanRoot, type KanbanSettings } from '../settings';
import type { FolderRef } from '../service/folderServices';

export function toFolderRef(folder: vscode.WorkspaceFolder): FolderRef {
  return { key: folder.uri.toString(), name: folder.name, fsPath: folder.uri.fsPath };
}

export function isMultiRoot(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}

/**
 * A title or prompt that names a board or a target: in a multi-root workspace it names the folder
 * too ("Roadmap (api)"), so nobody acts on the right board of the wrong folder.
 */
export function withFolder(text: string, folder: FolderRef): string {
  return isMultiRoot() ? `${text} (${folder.name})` : text;
}

/** The workspace folders as the service layer sees them, and the choice among them. */
export class Folders {
  constructor(private readonly settingsFor: (folder: FolderRef) => KanbanSettings) {}

  all(): FolderRef[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map(toFolderRef);
  }

  byKey(key: string | undefined): FolderRef | undefined {
    return this.all().find((folder) => folder.key === key);
  }

  rootOf(folder: FolderRef): string {
    return kanbanRoot(folder.fsPath, this.settingsFor(folder));
  }

  hasKanban(folder: FolderRef): boolean {
    const root = this.rootOf(folder);
    return existsSync(path.join(root, '.kanban.json')) || existsSync(path.join(root, '.kanban'));
  }

  /** The first folder that has a board, else the first folder. */
  primary(): FolderRef | undefined {
    const folders = this.all();
    return folders.find((folder) => this.hasKanban(folder)) ?? folders[0];
  }

  /**
   * The folder a command acts on: the preferred one (the board in front), the only one, or the
   * user's pick in a multi-root workspace. Undefined when there is none or the user cancelled.
   */
  async choose(purpose: string, preferred?: FolderRef): Promise<FolderRef | undefined> {
    if (preferred) return preferred;
    const folders = this.all();
    if (folders.length === 0) {
      void vscode.window.showErrorMessage('Kanban: open a folder first; the board lives in .kanban/ inside it.');
      return undefined;
    }
    if (folders.length === 1) return folders[0];
    const items = folders.map((folder) => ({
      label: folder.name,
      description: this.hasKanban(folder) ? 'has a board' : 'no board yet',
      detail: this.rootOf(folder),
      folder,
    }));
    items.sort((a, b) => Number(this.hasKanban(b.folder)) - Number(this.hasKanban(a.folder)));
    const picked = await vscode.window.showQuickPick(items, { placeHolder: purpose, ignoreFocusOut: true });
    return picked?.folder;
  }
}
