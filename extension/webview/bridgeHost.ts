import type * as vscode from 'vscode';
import type { DisplayBackground, DisplayPreferences } from '../../webview/protocol';
import type { FolderRef } from '../service/folderServices';
import type { BrokenFiles } from '../ui/brokenFiles';

/** What a webview bridge needs from the rest of the extension, beyond the folder's service. */
export interface BridgeHost {
  brokenFiles: BrokenFiles;
  /** The user's display preferences for the folder (VS Code settings). */
  display(folder: FolderRef): DisplayPreferences;
  onDisplayChange(listener: () => void): vscode.Disposable;
  saveDisplay(folder: FolderRef, background: DisplayBackground | 'shared', preset?: string): Promise<void>;
  /** The author of new comments. */
  identity(folder: FolderRef): Promise<string>;
  /** The page now shows this board: the commands, the sidebar and the status bar follow it. */
  boardShown(folder: FolderRef, boardId: string): void;
  /** Copy the vscode:// link that opens this card (the card menu's Copy link). */
  copyCardLink(folder: FolderRef, boardId: string, taskId: string): Promise<void>;
}
