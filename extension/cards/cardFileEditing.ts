import * as vscode from 'vscode';
import type { BrokenFiles } from '../ui/brokenFiles';
import { type CardFileVocabulary, vocabularyOf } from './cardFileVocabulary';
import { CardFileFixes, OPEN_LAST_GOOD, openLastGoodVersion } from './cardFileFixes';
import type { CardFileLookup } from './cardOfFile';
import { type CheckedKey, fieldAtCursor } from './frontmatterFields';
import { FrontmatterDiagnostics, isCardDocument, linesOf } from './frontmatterDiagnostics';

/** Card files: Markdown under a board's folder (the providers check the exact shape again). */
export const CARD_FILES: vscode.DocumentFilter = {
  language: 'markdown',
  scheme: 'file',
  pattern: '**/.kanban/boards/**/*.md',
};

function choicesFor(
  key: CheckedKey,
  vocabulary: CardFileVocabulary,
): { label: string; detail?: string; kind: vscode.CompletionItemKind }[] {
  const { EnumMember, Value, User } = vscode.CompletionItemKind;
  switch (key) {
    case 'status':
      return vocabulary.columns.map((c) => ({ label: c.id, detail: c.name, kind: EnumMember }));
    case 'priority':
      return vocabulary.priorities.map((label) => ({ label, kind: EnumMember }));
    case 'labels':
      return vocabulary.labels.map((label) => ({ label, kind: Value }));
    case 'assignee':
      return vocabulary.assignees.map((label) => ({ label, detail: 'assigned on this board', kind: User }));
  }
}

/** The board's columns, priorities, labels and assignees where a frontmatter value is typed. */
export class FrontmatterCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly lookup: CardFileLookup) {}

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<vscode.CompletionItem[] | undefined> {
    if (!isCardDocument(document)) return undefined;
    const at = fieldAtCursor(linesOf(document), position.line, position.character);
    if (!at) return undefined;
    const vocabulary = await vocabularyOf(this.lookup, document.uri.fsPath);
    if (!vocabulary) return undefined;
    const range = new vscode.Range(at.line, at.start, position.line, position.character);
    // The board's order (columns left to right, priorities high to low), not the alphabet's.
    return choicesFor(at.key, vocabulary).map((choice, i) => {
      const item = new vscode.CompletionItem(choice.label, choice.kind);
      item.detail = choice.detail;
      item.range = range;
      item.sortText = String(i).padStart(4, '0');
      return item;
    });
  }
}

/** "Show on Board" and "Move to…" above the frontmatter of a card file. */
export class CardFileLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!isCardDocument(document)) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, { title: 'Show on Board', command: 'kanban.showOnBoard', arguments: [document.uri] }),
      new vscode.CodeLens(top, { title: 'Move to…', command: 'kanban.moveCardOfFile', arguments: [document.uri] }),
    ];
  }
}

/** Card files as documents the editor understands: completion, checks, Quick Fixes, lenses. */
export function registerCardFileEditing(lookup: CardFileLookup, brokenFiles: BrokenFiles): vscode.Disposable[] {
  return [
    new FrontmatterDiagnostics(lookup),
    vscode.languages.registerCompletionItemProvider(CARD_FILES, new FrontmatterCompletion(lookup), ':', ' ', '[', ','),
    vscode.languages.registerCodeActionsProvider(CARD_FILES, new CardFileFixes(lookup, brokenFiles), {
      providedCodeActionKinds: CardFileFixes.kinds,
    }),
    vscode.languages.registerCodeLensProvider(CARD_FILES, new CardFileLenses()),
    vscode.commands.registerCommand(OPEN_LAST_GOOD, (uri?: vscode.Uri) => {
      const file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      return file ? openLastGoodVersion(lookup, file) : undefined;
    }),
  ];
}
