import * as vscode from 'vscode';
import type { FolderAccess } from '../auth/folderAccess';
import type { FolderRef, FolderServices } from '../service/folderServices';
import { loadBoardPage } from './boardWebview';
import type { BridgeHost } from './bridgeHost';
import { WebviewBridge } from './webviewBridge';

export const SIDEBAR_VIEW_ID = 'kanban.sidebar';

/**
 * The board in the activity-bar view. It shows the first folder with a kanban (a sidebar has no
 * room for a folder picker); the same shared service answers it as the editor panels.
 */
export class SidebarView implements vscode.WebviewViewProvider, vscode.Disposable {
  private bridge: WebviewBridge | null = null;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly services: FolderServices,
    private readonly pickFolder: () => FolderRef | undefined,
    private readonly access: FolderAccess,
    private readonly host: BridgeHost,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const folder = this.pickFolder();
    if (!folder) {
      view.webview.options = { enableScripts: false, localResourceRoots: [] };
      view.webview.html = '<!doctype html><html><body><p>Open a folder to see its kanban board.</p></body></html>';
      return;
    }
    view.description = folder.name;
    loadBoardPage(view.webview, this.extensionUri, 'Kanban');
    this.bridge?.dispose();
    const bridge = new WebviewBridge(view.webview, folder, this.services, this.access, this.host);
    this.bridge = bridge;
    view.onDidDispose(() => {
      bridge.dispose();
      if (this.bridge === bridge) this.bridge = null;
    });
  }

  dispose(): void {
    this.bridge?.dispose();
    this.bridge = null;
  }
}
