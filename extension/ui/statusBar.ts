import * as vscode from 'vscode';
import type { ServerState } from '../server/apiServer';

/** Shows whether the API server runs and where; a click starts it or offers what to do with it. */
export class ServerStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('kanban.apiServer', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Kanban API Server';
    this.show({ kind: 'stopped' });
    this.item.show();
  }

  show(state: ServerState): void {
    if (state.kind === 'running') {
      this.item.text = `$(broadcast) Kanban API ${state.host}:${state.port}`;
      this.item.tooltip = `Kanban API server running at ${state.url}/api for ${state.folder.name}. Click for actions.`;
      this.item.command = 'kanban.serverActions';
    } else if (state.kind === 'starting') {
      this.item.text = `$(sync~spin) Kanban API starting on port ${state.port}`;
      this.item.tooltip = 'Kanban API server is starting';
      this.item.command = undefined;
    } else {
      this.item.text = '$(circle-slash) Kanban API off';
      this.item.tooltip = 'Kanban API server is stopped. Click to start it.';
      this.item.command = 'kanban.startApiServer';
    }
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
