import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { callApi } from '../service/callApi';
import { pickService, type FolderService } from './pickService';

/**
 * Migrate to SQLite: the API's migration route after a confirmation. Inside VS Code the service
 * opens the database with SQLite's WebAssembly build (the native driver cannot load in the editor's
 * runtime), which keeps the file to itself while the board is open.
 */
export async function migrateToSqlite(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Migrate the storage of which folder to SQLite?');
  if (!target) return;
  if (target.service.workspace.store.provider === 'sqlite') {
    void vscode.window.showInformationMessage(
      `Kanban: the cards of ${target.folder.name} are already stored in SQLite; nothing to migrate.`,
    );
    return;
  }
  const migrate = 'Migrate';
  const question =
    `Move every card of ${target.folder.name} into a SQLite database (.kanban/kanban.db)? The service switches at once; the Markdown files stay as a backup. ` +
    'While this window has the board open, a kanban server or command elsewhere cannot open the database.';
  const choice = await vscode.window.showWarningMessage(question, { modal: true }, migrate);
  if (choice !== migrate) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Kanban: migrating cards to SQLite…' },
    () => callApi<Record<string, unknown>>(target, 'POST', '/storage/migrate-to-sqlite'),
  );
  void vscode.window.showInformationMessage(`Kanban: moved ${movedCount(result)} to SQLite storage.`);
}

/** The migration route answers `cards` (moved) and `skipped` (files it could not read, left in place). */
function movedCount(result: Record<string, unknown> | undefined): string {
  const moved = typeof result?.cards === 'number' ? `${result.cards} card(s)` : 'the cards';
  const skipped = Array.isArray(result?.skipped) ? result.skipped.length : 0;
  return skipped ? `${moved} (${skipped} unreadable file(s) were left where they are)` : moved;
}

/** Migrate to Markdown: the API's migration route after a confirmation; nothing to ask when it is Markdown already. */
export async function migrateToMarkdown(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Migrate the storage of which folder to Markdown?');
  if (!target) return;
  if (alreadyMarkdown(target)) {
    void vscode.window.showInformationMessage(
      `Kanban: the cards of ${target.folder.name} are already stored as Markdown files under .kanban/; nothing to migrate.`,
    );
    return;
  }
  const migrate = 'Migrate';
  const question = `Move every card of ${target.folder.name} from ${target.service.workspace.store.provider} into Markdown files under .kanban/? The service switches at once; the old store stays as a backup.`;
  const choice = await vscode.window.showWarningMessage(question, { modal: true }, migrate);
  if (choice !== migrate) return;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Kanban: migrating cards to Markdown…' },
    () => callApi<Record<string, unknown>>(target, 'POST', '/storage/migrate-to-markdown'),
  );
  void vscode.window.showInformationMessage(`Kanban: moved ${movedCount(result)} to Markdown storage.`);
}

function alreadyMarkdown({ service }: FolderService): boolean {
  return service.workspace.store.provider === 'markdown';
}
