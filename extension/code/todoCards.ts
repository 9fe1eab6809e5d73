import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { currentBoardId, guarded, pickService } from '../commands/pickService';
import { callApi, type TaskSummary } from '../service/callApi';
import { workspaceTrusted } from '../trust';
import { linkedMarker, todoOfLine } from './todoComments';

export const CARD_FROM_TODO = 'kanban.createCardFromTodo';

/** A document as far as a TODO needs it (the editor's, or the test double's). */
type TodoDocument = Pick<vscode.TextDocument, 'uri' | 'lineAt' | 'lineCount'>;

function lineOf(document: TodoDocument, line: number): string {
  return line < document.lineCount ? document.lineAt(line).text : '';
}

/** "Create a card from this TODO" on any line with a `TODO:` or `FIXME:` comment that has no card yet. */
export class TodoCardActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range): vscode.CodeAction[] {
    // In Restricted Mode the board is read-only: no card can be made.
    if (!workspaceTrusted()) return [];
    const line = range.start.line;
    const todo = todoOfLine(lineOf(document, line));
    if (!todo || todo.cardId) return [];
    const action = new vscode.CodeAction('Create a card from this TODO', vscode.CodeActionKind.QuickFix);
    // The card must exist before the comment can name it: the command creates it, then edits.
    action.command = { title: action.title, command: CARD_FROM_TODO, arguments: [document, line] };
    return [action];
  }
}

/**
 * Creates the card (the board's default column and priority: a Quick Fix stays quick) and rewrites
 * the comment to carry its id, as an edit the editor can undo.
 */
export async function createCardFromTodo(parts: ExtensionParts, document: TodoDocument, line: number): Promise<void> {
  const todo = todoOfLine(lineOf(document, line));
  if (!todo || todo.cardId) return;
  const target = await pickService(parts, 'Add the card to which folder?');
  if (!target) return;
  const boardId = currentBoardId(parts, target);
  const created = await callApi<TaskSummary>(target, 'POST', `/boards/${encodeURIComponent(boardId)}/tasks`, {
    content: `# ${todo.text}\n`,
  });
  // The line may have changed while the folder was chosen: edit only the comment that was asked for.
  const now = todoOfLine(lineOf(document, line));
  if (!now || now.cardId || now.text !== todo.text) {
    void vscode.window.showWarningMessage(
      `Kanban: added "${created.title}" (${created.id}), but the TODO changed meanwhile; its comment was left as it is.`,
    );
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(line, now.start, line, now.end), linkedMarker(now, created.id));
  await vscode.workspace.applyEdit(edit);
}

export function registerTodoCards(parts: ExtensionParts): vscode.Disposable[] {
  return [
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new TodoCardActions(), {
      providedCodeActionKinds: TodoCardActions.kinds,
    }),
    vscode.commands.registerCommand(
      CARD_FROM_TODO,
      guarded('Create a card from this TODO', (document: TodoDocument, line: number) =>
        createCardFromTodo(parts, document, line),
      ),
    ),
  ];
}
