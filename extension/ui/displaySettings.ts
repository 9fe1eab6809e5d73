import * as vscode from 'vscode';
import { BACKGROUND_PRESETS } from '../../server/core/shapes/vocabulary';
import type { DisplayBackground, DisplayPreferences, DisplayScope } from '../../webview/protocol';
import type { FolderRef } from '../service/folderServices';

const SECTION = 'kanban.board';
export const DEFAULT_DISPLAY: DisplayPreferences = { background: 'native', preset: 'aurora' };

/**
 * A VS Code user's own display choices (`kanban.board.background`, `kanban.board.backgroundPreset`):
 * native (the editor's background) by default, kept in VS Code settings so one person's taste is not
 * written into the `.kanban.json` the team shares. `shared` follows the file.
 */
export function readDisplay(folder?: FolderRef): DisplayPreferences {
  const config = vscode.workspace.getConfiguration(SECTION, folder ? vscode.Uri.parse(folder.key) : undefined);
  const background = config.get<unknown>('background');
  const preset = config.get<unknown>('backgroundPreset');
  return {
    background:
      background === 'native' || background === 'plain' || background === 'fancy' || background === 'shared'
        ? background
        : DEFAULT_DISPLAY.background,
    preset:
      typeof preset === 'string' && (BACKGROUND_PRESETS as readonly string[]).includes(preset)
        ? preset
        : DEFAULT_DISPLAY.preset,
  };
}

/**
 * Keep a choice made on the board for the user: where they already set it for this workspace, there;
 * otherwise in their user settings, so it follows them to every board.
 */
export async function saveDisplayForMe(
  folder: FolderRef,
  background: DisplayBackground | 'shared',
  preset?: string,
): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION, vscode.Uri.parse(folder.key));
  const entries: [string, unknown][] = [
    ['background', background],
    ...(preset ? [['backgroundPreset', preset] as [string, unknown]] : []),
  ];
  for (const [key, value] of entries) {
    const inspected = config.inspect(key);
    const target =
      inspected?.workspaceFolderValue !== undefined
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : inspected?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
    await config.update(key, value, target);
  }
}

export function affectsDisplay(change: vscode.ConfigurationChangeEvent): boolean {
  return change.affectsConfiguration(SECTION);
}

export type { DisplayScope };
