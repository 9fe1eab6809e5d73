import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { BoardCommitSuggestion } from './boardCommitSuggestion';
import { type BranchCardStatusBar } from './branchCardStatusBar';
import { CARD_ID_DOCUMENTS, CardIdHovers } from './cardIdHovers';
import { registerTodoCards } from './todoCards';

/**
 * Code and cards together: cards from TODO comments, the branch's card in the status bar, a commit
 * message for board-only changes, hovers on card ids. (Create Card from Selection is a palette
 * command, in the command table.)
 */
export function registerCodeAndCards(parts: ExtensionParts, branchCard: BranchCardStatusBar): vscode.Disposable[] {
  return [
    ...registerTodoCards(parts),
    branchCard,
    new BoardCommitSuggestion(parts),
    vscode.languages.registerHoverProvider(CARD_ID_DOCUMENTS, new CardIdHovers(parts)),
  ];
}
