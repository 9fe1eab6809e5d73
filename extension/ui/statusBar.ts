import * as vscode from 'vscode';
import type { ServerState } from '../server/apiServer';

/**
 * Shows where the API server runs while it runs (a click offers what to do with it), and nothing
 * while it is stopped: most people never start it, and an "off" item in every window is noise.
 */
export class ServerStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('kanban.apiServer', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'Kanban API Server';
    this.show({ kind: 'stopped' });
  }

  show(state: ServerState): void {
    if (state.kind === 'running') {
      this.item.text = `$(broadcast) Kanban API ${state.host}:${state.port}`;
      this.item.tooltip = `Kanban API server running at ${state.url}/api for ${state.folder.name}. Click for actions.`;
      this.item.command = 'kanban.serverActions';
      this.item.show();
    } else if (state.kind === 'starting') {
      this.item.text = `$(sync~spin) Kanban API starting on port ${state.port}`;
      this.item.tooltip = 'Kanban API server is starting';
      this.item.command = undefined;
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
