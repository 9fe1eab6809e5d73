import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { callApi } from '../service/callApi';
import { pickService, type FolderService } from './pickService';

const COPY = 'Copy Command';

/**
 * Migrate to SQLite cannot run in the editor: better-sqlite3 is a native module built for one Node
 * ABI, and VS Code's extension host (Electron) loads none that this package could carry for every
 * platform. Until a WebAssembly SQLite build is bundled, the honest answer is the command-line tool,
 * which runs on the system's Node where the native module loads.
 */
export async function migrateToSqlite(parts: ExtensionParts): Promise<void> {
  const folder = await parts.folders.choose('Migrate the storage of which folder to SQLite?', parts.panels.activeFolder());
  if (!folder) return;
  const command = `kanban storage migrate-to-sqlite --dir ${shellQuote(parts.folders.rootOf(folder))}`;
  const text =
    `Kanban: SQLite storage cannot run inside VS Code yet (its database driver is a native module the editor cannot load). ` +
    `To move the cards of ${folder.name} into SQLite, run this in a terminal: ${command}. ` +
    'The Markdown files stay as a backup; afterwards this board opens with the kanban command-line server rather than in the editor.';
  const choice = await vscode.window.showInformationMessage(text, COPY);
  if (choice !== COPY) return;
  await vscode.env.clipboard.writeText(command);
  void vscode.window.showInformationMessage('Kanban: command copied; paste it into a terminal.');
}

/** Migrate to Markdown: the API's migration route after a confirmation; nothing to ask when it is Markdown already. */
export async function migrateToMarkdown(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Migrate the storage of which folder to Markdown?');
  if (!target) return;
  if (alreadyMarkdown(target)) {
    void vscode.window.showInformationMessage(`Kanban: the cards of ${target.folder.name} are already stored as Markdown files under .kanban/; nothing to migrate.`);
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
  const count = typeof result?.migrated === 'number' ? `${result.migrated} card(s)` : 'the cards';
  void vscode.window.showInformationMessage(`Kanban: moved ${count} to Markdown storage.`);
}

function alreadyMarkdown({ service }: FolderService): boolean {
  return service.workspace.store.provider === 'markdown';
}

/** A path as one shell word (POSIX shells and PowerShell both take single quotes). */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
