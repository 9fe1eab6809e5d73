import { promises as fs } from 'node:fs';
import { FakeTextDocument, type ProviderRegistration, type WorkspaceEdit } from './doubleEditorTypes';
import { double, FakeDiagnosticCollection } from './doubleState';
import { EventEmitter, type Listener, type Range, Uri } from './doubleTypes';

/**
 * `vscode.languages` of the double, with the text documents and edits its providers work on: a
 * document is its text and a version that each change bumps, as the editor's are.
 */

export const documentEvents = {
  opened: new EventEmitter<FakeTextDocument>(),
  changed: new EventEmitter<{ document: FakeTextDocument }>(),
  saved: new EventEmitter<FakeTextDocument>(),
  closed: new EventEmitter<FakeTextDocument>(),
};

/** Open a file's document as the editor would (read from disk), firing onDidOpenTextDocument. */
export async function openDocument(fsPath: string): Promise<FakeTextDocument> {
  const document = new FakeTextDocument(Uri.file(fsPath), await fs.readFile(fsPath, 'utf8'));
  double.documents.push(document);
  documentEvents.opened.fire(document);
  return document;
}

/** Type into a document: the text changes, the version goes up, onDidChangeTextDocument fires. */
export function editDocument(document: FakeTextDocument, range: Range, text: string): void {
  document.replace(range, text);
  documentEvents.changed.fire({ document });
}

/** What `workspace.applyEdit` does with the replacements of an edit (renames are recorded only). */
export async function applyEdit(edit: WorkspaceEdit): Promise<boolean> {
  double.appliedEdits.push(edit);
  for (const { uri, range, text } of edit.replacements) {
    const document = double.documents.find((d) => d.uri.fsPath === uri.fsPath);
    if (!document) return false;
    editDocument(document, range, text);
  }
  return true;
}

export const languages = {
  createDiagnosticCollection(name: string) {
    const collection = new FakeDiagnosticCollection(name);
    double.diagnostics.set(name, collection);
    return collection;
  },
  registerCompletionItemProvider(selector: unknown, provider: unknown, ...triggers: string[]) {
    return register({ kind: 'completion', selector, provider, triggers });
  },
  registerCodeActionsProvider(selector: unknown, provider: unknown, metadata?: unknown) {
    return register({ kind: 'codeActions', selector, provider, metadata });
  },
  registerCodeLensProvider(selector: unknown, provider: unknown) {
    return register({ kind: 'codeLens', selector, provider });
  },
  registerHoverProvider(selector: unknown, provider: unknown) {
    return register({ kind: 'hover', selector, provider });
  },
};

function register(registration: ProviderRegistration) {
  double.providers.push(registration);
  return { dispose: () => void (double.providers = double.providers.filter((p) => p !== registration)) };
}

export const onDocument = {
  onDidOpenTextDocument: (listener: Listener<FakeTextDocument>) => documentEvents.opened.event(listener),
  onDidChangeTextDocument: (listener: Listener<{ document: FakeTextDocument }>) =>
    documentEvents.changed.event(listener),
  onDidSaveTextDocument: (listener: Listener<FakeTextDocument>) => documentEvents.saved.event(listener),
  onDidCloseTextDocument: (listener: Listener<FakeTextDocument>) => documentEvents.closed.event(listener),
};
