import * as vscode from 'vscode';
import { boardHtml } from './boardHtml';

/** The built board UI (esbuild's webview entry); the only folder a board webview may load from. */
export function assetsRoot(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
}

export function boardWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [assetsRoot(extensionUri)] };
}

/** Fill a webview with the board UI page (scripts on, resources limited to the built assets). */
export function loadBoardPage(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): void {
  webview.options = boardWebviewOptions(extensionUri);
  const root = assetsRoot(extensionUri);
  webview.html = boardHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'main.css')).toString(),
    iconStyleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'codicon.css')).toString(),
    title,
  });
}
