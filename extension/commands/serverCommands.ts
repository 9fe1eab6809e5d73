import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';

const COPY = 'Copy API URL';
const DOCS = 'Open API Docs';

export async function startApiServer(parts: ExtensionParts): Promise<void> {
  const running = await parts.control.start();
  if (!running) return;
  const choice = await vscode.window.showInformationMessage(
    `Kanban: API server running at ${running.url}/api (board of ${running.folder.name}).`,
    COPY,
    DOCS,
  );
  if (choice === COPY) await copyApiUrl(parts);
  if (choice === DOCS) await openApiDocs(parts);
}

export async function stopApiServer(parts: ExtensionParts): Promise<void> {
  if (parts.control.state.kind === 'stopped') {
    void vscode.window.showInformationMessage('Kanban: the API server is not running.');
    return;
  }
  await parts.control.stop();
  void vscode.window.showInformationMessage('Kanban: API server stopped; its port is free.');
}

/** The running server's API base URL, or undefined after offering to start it. */
async function runningUrl(parts: ExtensionParts): Promise<string | undefined> {
  const state = parts.control.state;
  if (state.kind === 'running') return state.url;
  const start = 'Start API Server';
  const choice = await vscode.window.showInformationMessage('Kanban: the API server is not running.', start);
  if (choice !== start) return undefined;
  return (await parts.control.start())?.url;
}

export async function copyApiUrl(parts: ExtensionParts): Promise<void> {
  const url = await runningUrl(parts);
  if (!url) return;
  await vscode.env.clipboard.writeText(`${url}/api`);
  void vscode.window.showInformationMessage(`Kanban: copied ${url}/api`);
}

export async function openApiDocs(parts: ExtensionParts): Promise<void> {
  const url = await runningUrl(parts);
  if (url) await vscode.env.openExternal(await externalUri(`${url}/api/docs`));
}

/**
 * The address a browser beside the editor reaches a local URL at: itself on a desktop, a forwarded
 * address in a remote or web editor. The whole URL goes in, but some hosts (code-server) answer
 * with the forwarded root only, so a lost path is put back.
 */
export async function externalUri(local: string): Promise<vscode.Uri> {
  const wanted = vscode.Uri.parse(local);
  const external = await vscode.env.asExternalUri(wanted);
  if (external.path.endsWith(wanted.path)) return external;
  return external.with({ path: `${external.path.replace(/\/$/, '')}${wanted.path}` });
}

/** The status bar item's menu while the server runs. */
export async function serverActions(parts: ExtensionParts): Promise<void> {
  const state = parts.control.state;
  if (state.kind !== 'running') return startApiServer(parts);
  const stop = 'Stop API Server';
  const picked = await vscode.window.showQuickPick([COPY, DOCS, stop], {
    placeHolder: `Kanban API at ${state.url}/api`,
  });
  if (picked === COPY) await copyApiUrl(parts);
  else if (picked === DOCS) await openApiDocs(parts);
  else if (picked === stop) await stopApiServer(parts);
}
