import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { addCard, openBoard, openCardFile, searchCards, switchBoard } from './cardCommands';
import { guarded } from './pickService';
import { copyApiUrl, openApiDocs, serverActions, startApiServer, stopApiServer } from './serverCommands';
import { migrateStorage } from './storageCommands';
import { clearApiToken, setApiToken } from './tokenCommands';

/** Command id -> handler; package.json `contributes.commands` lists the same ids (a test checks). */
export function commandTable(parts: ExtensionParts): Record<string, (...args: never[]) => Promise<void>> {
  return {
    'kanban.openBoard': () => openBoard(parts),
    'kanban.addCard': () => addCard(parts),
    'kanban.switchBoard': () => switchBoard(parts),
    'kanban.searchCards': () => searchCards(parts),
    'kanban.openCardFile': (ref?: { boardId: string; taskId: string }) => openCardFile(parts, ref),
    'kanban.startApiServer': () => startApiServer(parts),
    'kanban.stopApiServer': () => stopApiServer(parts),
    'kanban.copyApiUrl': () => copyApiUrl(parts),
    'kanban.openApiDocs': () => openApiDocs(parts),
    'kanban.migrateToSqlite': () => migrateStorage(parts, 'sqlite'),
    'kanban.migrateToMarkdown': () => migrateStorage(parts, 'markdown'),
    'kanban.serverActions': () => serverActions(parts),
    'kanban.setApiToken': (folderKey?: string) => setApiToken(parts, folderKey),
    'kanban.clearApiToken': (folderKey?: string) => clearApiToken(parts, folderKey),
  };
}

export function registerCommands(parts: ExtensionParts): vscode.Disposable[] {
  return Object.entries(commandTable(parts)).map(([id, run]) => vscode.commands.registerCommand(id, guarded(id, run as (...args: unknown[]) => Promise<void>)));
}
