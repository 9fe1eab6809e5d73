import * as vscode from 'vscode';

/**
 * Restricted Mode (package.json `capabilities.untrustedWorkspaces: limited`): in a folder the user
 * has not trusted, a cloned repository must not get to write through the extension, start a server
 * or hand an agent its tools. The board is shown read-only; trust turns everything on without a
 * reload.
 */
export const RESTRICTED_WRITE = 'Restricted Mode: trust this folder to change the board';
export const RESTRICTED_SERVER =
  'Restricted Mode: the API server starts only in a trusted folder; trust this folder to start it';
/** What the board's notice says while the folder is not trusted. */
export const RESTRICTED_NOTICE =
  'Restricted Mode: this board is read-only until you trust this folder (Manage Workspace Trust).';

const MANAGE_TRUST = 'Manage Workspace Trust';

export function workspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

export function onTrustGranted(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(listener);
}

/** A refusal people can act on: the message and a button to the editor's trust dialog. */
export function explainRestricted(message: string): void {
  void Promise.resolve(vscode.window.showWarningMessage(`Kanban: ${message}.`, MANAGE_TRUST)).then((choice) => {
    if (choice === MANAGE_TRUST) void vscode.commands.executeCommand('workbench.trust.manage');
  });
}

/** Run `start` now if the folder is trusted, else once it is; disposing undoes whichever ran. */
export function whenTrusted(start: () => vscode.Disposable): vscode.Disposable {
  let started: vscode.Disposable | null = workspaceTrusted() ? start() : null;
  const waiting = started ? null : onTrustGranted(() => (started ??= start()));
  return {
    dispose: () => {
      waiting?.dispose();
      started?.dispose();
    },
  };
}
