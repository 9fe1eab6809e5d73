import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InvalidFile } from '../../server/storage/cardStore';
import { InvalidConfigFileError } from '../../server/service/workspace';
import type { BrokenFile } from '../../webview/protocol';
import type { FolderRef } from '../service/folderServices';
import type { KanbanService } from '../service/kanbanService';

const OPEN = 'Open File';
const PROBLEMS = 'Show Problems';

interface Followed {
  root: string;
  files: BrokenFile[];
  stop: () => void;
}

/**
 * Card files and `.kanban.json` versions that do not parse, made visible: a diagnostic in the
 * Problems panel at the line the parser stopped at (cleared once the file parses again), a
 * notification the first time a file breaks in this window, and the list for the boards' notice.
 */
export class BrokenFiles implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('kanban');
  private readonly folders = new Map<string, Followed>();
  /** Files already announced in a notification; the Problems entry stays, the toast does not repeat. */
  private readonly announced = new Set<string>();
  private readonly listeners = new Set<(folderKey: string, files: BrokenFile[]) => void>();

  /** Follow an open service's list of broken files. */
  follow(folder: FolderRef, service: KanbanService): void {
    this.forget(folder);
    const workspace = service.workspace;
    const listener = (files: readonly InvalidFile[]) => this.show(folder, service.root, files);
    workspace.invalidFilesListeners.add(listener);
    this.folders.set(folder.key, {
      root: service.root,
      files: [],
      stop: () => workspace.invalidFilesListeners.delete(listener),
    });
    this.show(folder, service.root, workspace.invalidFiles);
  }

  /** The folder's service could not open; a `.kanban.json` that does not parse is shown like any broken file. */
  openFailed(folder: FolderRef, root: string, error: unknown): void {
    this.forget(folder);
    this.folders.set(folder.key, { root, files: [], stop: () => undefined });
    this.show(folder, root, error instanceof InvalidConfigFileError ? [error.invalid] : []);
  }

  /** The folder's service closed (folder removed, location changed): its problems go with it. */
  forget(folder: FolderRef): void {
    const followed = this.folders.get(folder.key);
    if (!followed) return;
    followed.stop();
    this.folders.delete(folder.key);
    for (const file of followed.files) this.diagnostics.delete(this.uriOf(followed.root, file.path));
    if (followed.files.length) this.tell(folder.key, []);
  }

  filesOf(folderKey: string): BrokenFile[] {
    return this.folders.get(folderKey)?.files ?? [];
  }

  onDidChange(listener: (folderKey: string, files: BrokenFile[]) => void): vscode.Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Open a file of the folder (at its line) in a column; only files of that folder's kanban root. */
  async open(folderKey: string, relative: string, line?: number, viewColumn?: vscode.ViewColumn): Promise<void> {
    const followed = this.folders.get(folderKey);
    if (!followed) return;
    const file = path.resolve(followed.root, ...relative.split('/'));
    if (path.relative(followed.root, file).startsWith('..') || path.isAbsolute(path.relative(followed.root, file)))
      return;
    const at = Math.max(0, (line ?? 1) - 1);
    await vscode.window.showTextDocument(vscode.Uri.file(file), {
      preview: false,
      selection: new vscode.Range(at, 0, at, 0),
      ...(viewColumn === undefined ? {} : { viewColumn }),
    });
  }

  dispose(): void {
    for (const followed of this.folders.values()) followed.stop();
    this.folders.clear();
    this.listeners.clear();
    this.diagnostics.dispose();
  }

  private show(folder: FolderRef, root: string, invalid: readonly InvalidFile[]): void {
    const followed = this.folders.get(folder.key);
    if (!followed) return;
    const files = invalid.map(({ path: file, reason, line, duplicateOf }) => ({
      path: file,
      reason,
      ...(line ? { line } : {}),
      ...(duplicateOf ? { duplicateOf } : {}),
    }));
    for (const gone of followed.files.filter((old) => !files.some((f) => f.path === old.path))) {
      this.diagnostics.delete(this.uriOf(root, gone.path));
      this.announced.delete(path.join(root, gone.path));
    }
    for (const file of files) this.diagnostics.set(this.uriOf(root, file.path), [diagnosticFor(file)]);
    followed.files = files;
    this.tell(folder.key, files);
    for (const file of files) this.announce(folder, root, file);
  }

  private announce(folder: FolderRef, root: string, file: BrokenFile): void {
    const key = path.join(root, file.path);
    if (this.announced.has(key)) return;
    this.announced.add(key);
    const text = file.duplicateOf
      ? `Kanban: ${file.path} is a second copy of the card served from ${file.duplicateOf}; it is ignored (the card exists once) until you delete one of the two files.`
      : brokenText(file);
    void Promise.resolve(vscode.window.showWarningMessage(text, OPEN, PROBLEMS)).then((choice) => {
      if (choice === OPEN) return this.open(folder.key, file.path, file.line);
      if (choice === PROBLEMS) return vscode.commands.executeCommand('workbench.actions.view.problems');
      return undefined;
    });
  }

  private tell(folderKey: string, files: BrokenFile[]): void {
    for (const listener of this.listeners) listener(folderKey, files);
  }

  private uriOf(root: string, relative: string): vscode.Uri {
    return vscode.Uri.file(path.join(root, ...relative.split('/')));
  }
}

function brokenText(file: BrokenFile): string {
  const what = file.path === '.kanban.json' ? '.kanban.json' : `the card file ${file.path}`;
  const keeps =
    file.path === '.kanban.json' ? 'the last good settings stay in effect' : 'the board keeps its last good version';
  return `Kanban: ${what} does not parse (${file.reason}); ${keeps} until the file is fixed. The service never rewrites a broken file.`;
}

function diagnosticFor(file: BrokenFile): vscode.Diagnostic {
  const line = Math.max(0, (file.line ?? 1) - 1);
  // The whole line: the parser names a line, rarely a column worth trusting.
  const diagnostic = new vscode.Diagnostic(
    new vscode.Range(line, 0, line, 1000),
    file.reason,
    vscode.DiagnosticSeverity.Error,
  );
  diagnostic.source = 'Kanban';
  return diagnostic;
}
