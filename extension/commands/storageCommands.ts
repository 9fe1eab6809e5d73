import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { callApi } from '../service/callApi';
import { pickService } from './pickService';

type Target = 'sqlite' | 'markdown';

const DESCRIPTIONS: Record<Target, string> = {
  sqlite: 'Move every card of this workspace from Markdown files into a SQLite database (.kanban/kanban.db)? The service switches at once; the Markdown files stay as a backup.',
  markdown: 'Move every card of this workspace from the SQLite database back into Markdown files under .kanban/? The service switches at once; the database stays as a backup.',
};

/** Migrate Storage: the API's migration route, after a confirmation, with its outcome shown. */
export async function migrateStorage(parts: ExtensionParts, to: Target): Promise<void> {
  const target = await pickService(parts, `Migrate the storage of which folder to ${to === 'sqlite' ? 'SQLite' : 'Markdown'}?`);
  if (!target) return;
  const migrate = 'Migrate';
  const choice = await vscode.window.showWarningMessage(DESCRIPTIONS[to], { modal: true }, migrate);
  if (choice !== migrate) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Kanban: migrating cards to ${to}…` },
    () => callApi<Record<string, unknown>>(target, 'POST', `/storage/migrate-to-${to}`, to === 'sqlite' ? {} : undefined),
  );
  const count = typeof result?.migrated === 'number' ? `${result.migrated} card(s)` : 'the cards';
  void vscode.window.showInformationMessage(`Kanban: moved ${count} to ${to === 'sqlite' ? 'SQLite' : 'Markdown'} storage.`);
}
