import * as vscode from 'vscode';
import { guarded } from '../commands/pickService';
import type { ExtensionParts } from '../parts';
import type { BoardTree } from './boardTree';
import { OPEN_ON_BOARD_COMMAND, type CardNode } from './boardTreeItems';

/** The sidebar's own commands: a row opens its card on the board; the folder is switchable. */
export function registerSidebarCommands(parts: ExtensionParts, tree: BoardTree): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(
      OPEN_ON_BOARD_COMMAND,
      guarded('Open on Board', async (node?: CardNode) => {
        const folder = parts.folders.byKey(node?.folderKey);
        if (!node || !folder) return;
        parts.currentBoard.set(folder.key, node.boardId);
        parts.panels.open(folder, { type: 'openTask', boardId: node.boardId, taskId: node.taskId });
      }),
    ),
    vscode.commands.registerCommand(
      'kanban.sidebar.switchFolder',
      guarded('Switch Sidebar Folder', async () => {
        const current = tree.folder();
        const picked = await vscode.window.showQuickPick(
          parts.folders.all().map((folder) => ({
            label: folder.name,
            description: [
              folder.key === current?.key ? 'shown' : '',
              parts.folders.hasKanban(folder) ? 'has a board' : 'no board yet',
            ]
              .filter(Boolean)
              .join(' · '),
            folder,
          })),
          { placeHolder: 'Show the board of which folder in the sidebar?' },
        );
        if (picked) await tree.showFolder(picked.folder);
      }),
    ),
  ];
}
