import type * as vscode from 'vscode';
import type { FolderAccess } from './auth/folderAccess';
import type { AgentsStatusBar } from './cards/agentsStatusBar';
import type { OverdueStatusBar } from './cards/overdueStatusBar';
import type { ChosenBoards } from './commands/chosenBoards';
import type { KanbanSettings } from './settings';
import type { FolderRef, FolderServices } from './service/folderServices';
import type { ServerControl } from './server/serverControl';
import type { BoardPresence } from './ui/boardPresence';
import type { Folders } from './ui/folders';
import type { BoardPanels } from './webview/boardPanels';

/** What the commands work with; built once in activate(). */
export interface ExtensionParts {
  context: vscode.ExtensionContext;
  folders: Folders;
  services: FolderServices;
  panels: BoardPanels;
  control: ServerControl;
  settingsFor(folder?: FolderRef): KanbanSettings;
  /** Carries each folder's API token (SecretStorage) into in-process calls. */
  access: FolderAccess;
  /** A line in the Kanban output channel (timestamped); never give it a secret. */
  log(line: string): void;
  /** The board each folder's commands act on (Switch Board sets it; else the default board). */
  currentBoard: ChosenBoards;
  /** The status bar's board and overdue count, and the cards it counted. */
  overdue: OverdueStatusBar;
  /** Told when a board may have appeared or gone (Create Board, `kanban init`, a deleted `.kanban.json`). */
  presence: BoardPresence;
  /** The status bar's count of agents at work and cards awaiting input, and the cards behind it. */
  agents: AgentsStatusBar;
}
