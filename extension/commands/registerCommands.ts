import * as vscode from 'vscode';
import { moveCardOfFile, showMyOverdueCards, showOnBoard } from '../cards/cardFileCommands';
import { copyCardLinkCommand } from '../cards/cardLinks';
import { showAgentsAtWork } from '../cards/showAgentsAtWork';
import type { ExtensionParts } from '../parts';
import { createCardFromSelection } from '../code/cardFromSelection';
import { createBoardCommand } from './createBoard';
import { addCard, openBoard, openCardFile, switchBoard } from './cardCommands';
import { searchCards } from './searchCards';
import { guarded } from './pickService';
import { copyApiUrl, openApiDocs, serverActions, startApiServer, stopApiServer } from './serverCommands';
import { migrateToMarkdown, migrateToSqlite } from './storageCommands';
import { clearApiToken, setApiToken } from './tokenCommands';
import { explainRestricted, RESTRICTED_WRITE, workspaceTrusted } from '../trust';

type Handler = (...args: never[]) => Promise<void>;

/**
 * Command id -> its title as the palette shows it (for messages people read) and its handler;
 * package.json `contributes.commands` lists the same ids and titles (a test checks).
 */
export function commandTable(parts: ExtensionParts): Record<string, [title: string, run: Handler]> {
  return {
    'kanban.createBoard': ['Create Board', () => createBoardCommand(parts)],
    'kanban.openBoard': ['Open Board', () => openBoard(parts)],
    'kanban.addCard': ['Add Card', () => addCard(parts)],
    'kanban.createCardFromSelection': ['Create Card from Selection', () => createCardFromSelection(parts)],
    'kanban.switchBoard': ['Switch Board', () => switchBoard(parts)],
    'kanban.searchCards': ['Search Cards', () => searchCards(parts)],
    'kanban.openCardFile': [
      'Open Card File',
      (ref?: { boardId: string; taskId: string; folderKey?: string }) => openCardFile(parts, ref),
    ],
    'kanban.showOnBoard': ['Show on Board', (uri?: unknown) => showOnBoard(parts, uri)],
    'kanban.moveCardOfFile': ['Move Card to Column', (uri?: unknown) => moveCardOfFile(parts, uri)],
    'kanban.copyCardLink': ['Copy Card Link', () => copyCardLinkCommand(parts)],
    'kanban.showMyOverdueCards': ['Show My Overdue Cards', () => showMyOverdueCards(parts)],
    'kanban.showAgentsAtWork': ['Show Agents at Work', () => showAgentsAtWork(parts)],
    'kanban.startApiServer': ['Start API Server', () => startApiServer(parts)],
    'kanban.stopApiServer': ['Stop API Server', () => stopApiServer(parts)],
    'kanban.copyApiUrl': ['Copy API URL', () => copyApiUrl(parts)],
    'kanban.openApiDocs': ['Open API Docs', () => openApiDocs(parts)],
    'kanban.migrateToSqlite': ['Migrate Storage to SQLite', () => migrateToSqlite(parts)],
    'kanban.migrateToMarkdown': ['Migrate Storage to Markdown', () => migrateToMarkdown(parts)],
    'kanban.serverActions': ['API Server Actions', () => serverActions(parts)],
    'kanban.setApiToken': ['Set API Token', (folderKey?: string) => setApiToken(parts, folderKey)],
    'kanban.clearApiToken': ['Clear API Token', (folderKey?: string) => clearApiToken(parts, folderKey)],
  };
}

/**
 * Commands that exist to change the board. Their writes would be refused anyway (FolderAccess), but
 * in Restricted Mode they say so before asking for a title or a column that cannot be used.
 */
const CHANGES_THE_BOARD = new Set([
  'kanban.createBoard',
  'kanban.addCard',
  'kanban.createCardFromSelection',
  'kanban.moveCardOfFile',
  'kanban.migrateToSqlite',
  'kanban.migrateToMarkdown',
]);

export function registerCommands(parts: ExtensionParts): vscode.Disposable[] {
  return Object.entries(commandTable(parts)).map(([id, [title, run]]) => {
    const command = guarded(title, run as (...args: unknown[]) => Promise<void>);
    if (!CHANGES_THE_BOARD.has(id)) return vscode.commands.registerCommand(id, command);
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      if (workspaceTrusted()) return command(...args);
      explainRestricted(RESTRICTED_WRITE);
    });
  });
}
