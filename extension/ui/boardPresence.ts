import * as vscode from 'vscode';

/**
 * Tells when a board may have appeared or gone: Create Board, `kanban init` in a terminal, a
 * checkout or a deletion of `.kanban.json`, a new `kanban.location`. Whoever shows something only
 * for a folder with a board (the sidebar and its welcome) asks again then.
 */
export class BoardPresence implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly watcher: vscode.FileSystemWatcher;

  constructor() {
    this.watcher = vscode.workspace.createFileSystemWatcher('**/.kanban.json', false, true, false);
    this.watcher.onDidCreate(() => this.changed());
    this.watcher.onDidDelete(() => this.changed());
  }

  changed(): void {
    this.emitter.fire();
  }

  dispose(): void {
    this.watcher.dispose();
    this.emitter.dispose();
  }
}
