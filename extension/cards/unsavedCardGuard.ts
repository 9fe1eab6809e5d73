import * as path from 'node:path';
import * as vscode from 'vscode';
import { FileConflictError } from '../../server/core/errors';
import type { KanbanService } from '../service/kanbanService';
import { cardFilePath } from './cardOfFile';

/**
 * Refuse a board edit (any front end in this extension host: the board, the sidebar, commands, the
 * API server it runs) to a card whose file is open in an editor with unsaved changes. Writing the
 * file under the dirty buffer would be undone by the next save, silently; the user saves or reverts
 * first. Answers the function that removes the guard.
 */
export function guardUnsavedCards(service: KanbanService): () => void {
  const guard = (cards: readonly { id: string; boardId: string; status: string }[]) => {
    const dirty = vscode.workspace.textDocuments.filter(
      (document) => document.isDirty && document.uri.scheme === 'file',
    );
    if (dirty.length === 0) return;
    for (const card of cards) {
      const file = cardFilePath(service, card);
      if (file && dirty.some((document) => path.resolve(document.uri.fsPath) === path.resolve(file))) {
        const relative = path.relative(service.root, file).split(path.sep).join('/');
        throw new FileConflictError(
          `${relative} has unsaved changes in the editor; save or revert them there, then try again (nothing was written)`,
        );
      }
    }
  };
  service.workspace.cardWriteGuards.add(guard);
  return () => service.workspace.cardWriteGuards.delete(guard);
}
