import * as vscode from 'vscode';
import { type CardFileVocabulary, vocabularyOf } from './cardFileVocabulary';
import { type CardFileLookup, looksLikeCardFile } from './cardOfFile';
import { type FrontmatterProblem, frontmatterProblems } from './frontmatterProblems';

export const FRONTMATTER_SOURCE = 'Kanban';

/** A Markdown file at a card file's place: the only documents the frontmatter features look at. */
export function isCardDocument(document: vscode.TextDocument): boolean {
  return document.uri.scheme === 'file' && document.languageId === 'markdown' && looksLikeCardFile(document.uri.fsPath);
}

export function linesOf(document: vscode.TextDocument): string[] {
  return document.getText().split(/\r?\n/);
}

export function rangeOf(problem: FrontmatterProblem): vscode.Range {
  const { line, start, end } = problem.at;
  return new vscode.Range(line, start, line, end);
}

/** The document's problems against its board's vocabulary, or none outside a board. */
export async function problemsOf(
  lookup: CardFileLookup,
  document: vscode.TextDocument,
): Promise<{ problems: FrontmatterProblem[]; vocabulary?: CardFileVocabulary }> {
  const vocabulary = await vocabularyOf(lookup, document.uri.fsPath);
  return vocabulary ? { problems: frontmatterProblems(linesOf(document), vocabulary), vocabulary } : { problems: [] };
}

/**
 * Unknown statuses, priorities and labels in open card files, in their own collection (the broken
 * files the service reports stay in theirs). Each document version is checked once; an answer for
 * a version that is no longer the document's is dropped, so a slow board read never shows stale
 * warnings over newer text.
 */
export class FrontmatterDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('kanban-frontmatter');
  private readonly checkedVersion = new Map<string, number>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly lookup: CardFileLookup) {
    this.disposables = [
      vscode.workspace.onDidOpenTextDocument((document) => void this.check(document)),
      vscode.workspace.onDidChangeTextDocument((change) => void this.check(change.document)),
      // A save does not bump the version, but the board may have read the file anew: check again.
      vscode.workspace.onDidSaveTextDocument((document) => void this.check(document, true)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document)),
    ];
    for (const document of vscode.workspace.textDocuments) void this.check(document);
  }

  async check(document: vscode.TextDocument, again = false): Promise<void> {
    if (!isCardDocument(document)) return;
    const key = document.uri.toString();
    const version = document.version;
    if (!again && this.checkedVersion.get(key) === version) return;
    this.checkedVersion.set(key, version);
    const { problems } = await problemsOf(this.lookup, document).catch(() => ({ problems: [] }));
    if (this.checkedVersion.get(key) !== version || document.version !== version) return;
    this.collection.set(document.uri, problems.map(diagnosticOf));
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.collection.dispose();
  }

  private forget(document: vscode.TextDocument): void {
    this.checkedVersion.delete(document.uri.toString());
    this.collection.delete(document.uri);
  }
}

function diagnosticOf(problem: FrontmatterProblem): vscode.Diagnostic {
  const severity =
    problem.kind === 'folder-mismatch' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning;
  const diagnostic = new vscode.Diagnostic(rangeOf(problem), problem.message, severity);
  diagnostic.source = FRONTMATTER_SOURCE;
  diagnostic.code = problem.kind;
  return diagnostic;
}
