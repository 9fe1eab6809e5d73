import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import type { FolderRef } from '../service/folderServices';

/** The folder a token command is for: the one a Set Token offer named, else the usual choice. */
async function folderFor(parts: ExtensionParts, purpose: string, folderKey?: unknown): Promise<FolderRef | undefined> {
  const named = typeof folderKey === 'string' ? parts.folders.byKey(folderKey) : undefined;
  return named ?? parts.folders.choose(purpose, parts.panels.activeFolder());
}

/**
 * Set API Token: a password box, then VS Code's SecretStorage for this folder. The token is
 * checked against the folder's identity provider so the user learns at once whom it identifies.
 * It is never written to the output channel or shown back.
 */
export async function setApiToken(parts: ExtensionParts, folderKey?: unknown): Promise<void> {
  const folder = await folderFor(parts, 'Set the API token of which folder?', folderKey);
  if (!folder) return;
  const token = await vscode.window.showInputBox({
    title: `Kanban: API token for ${folder.name}`,
    prompt: 'A token from the auth.identity provider in .kanban.json; kept in VS Code secret storage',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) =>
      !value.trim() ? 'The token cannot be empty' : /\s/.test(value.trim()) ? 'A token has no spaces' : null,
  });
  if (!token?.trim()) return;
  await parts.access.tokens.set(folder, token.trim());
  parts.log(`API token stored for ${folder.name}`);
  await reportWhoItIs(parts, folder);
}

async function reportWhoItIs(parts: ExtensionParts, folder: FolderRef): Promise<void> {
  const service = await parts.services.get(folder).catch(() => null);
  const check = service ? await parts.access.check(service, folder).catch(() => null) : null;
  if (!check) {
    void vscode.window.showInformationMessage(`Kanban: API token saved for ${folder.name}.`);
  } else if (!check.authEnabled) {
    void vscode.window.showInformationMessage(
      `Kanban: API token saved for ${folder.name}. Authentication is off there (no auth.identity in .kanban.json), so it is not needed yet.`,
    );
  } else if (check.role) {
    parts.log(`the API token of ${folder.name} identifies ${check.subject} (${check.role})`);
    void vscode.window.showInformationMessage(
      `Kanban: API token saved; in ${folder.name} you act as ${check.subject} (${check.role}).`,
    );
  } else {
    const why = check.error ?? 'the identity provider does not recognise it';
    void vscode.window.showWarningMessage(
      `Kanban: API token saved for ${folder.name}, but it is refused: ${why}. Run "Kanban: Set API Token" again with a valid one.`,
    );
  }
}

/** Clear API Token: removes the folder's token from secret storage. */
export async function clearApiToken(parts: ExtensionParts, folderKey?: unknown): Promise<void> {
  const folder = await folderFor(parts, 'Clear the API token of which folder?', folderKey);
  if (!folder) return;
  if (!(await parts.access.tokens.get(folder))) {
    void vscode.window.showInformationMessage(`Kanban: no API token is stored for ${folder.name}.`);
    return;
  }
  await parts.access.tokens.clear(folder);
  parts.log(`API token cleared for ${folder.name}`);
  void vscode.window.showInformationMessage(`Kanban: API token cleared for ${folder.name}.`);
}
