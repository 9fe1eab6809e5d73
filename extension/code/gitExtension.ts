import * as vscode from 'vscode';

/**
 * The few parts of the built-in git extension's API (`vscode.git`, API version 1) that the board
 * uses, typed here rather than copied whole. Absent (git disabled, another editor): nothing is done.
 */
export interface GitChange {
  uri: vscode.Uri;
  /** The editor's Status enum: 1 index added, 2 index deleted, 3 index renamed, 6 deleted, 7 untracked, 9 intent to add. */
  status: number;
  originalUri: vscode.Uri;
  renameUri?: vscode.Uri;
}

export interface GitRepository {
  rootUri: vscode.Uri;
  inputBox: { value: string };
  state: {
    indexChanges: GitChange[];
    workingTreeChanges: GitChange[];
    onDidChange: vscode.Event<void>;
  };
}

export interface GitApi {
  repositories: GitRepository[];
  onDidOpenRepository: vscode.Event<GitRepository>;
}

/** The git API once the git extension is active; undefined if there is none. */
export async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions?.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!extension) return undefined;
  try {
    const exports = extension.isActive ? extension.exports : await extension.activate();
    return exports.getAPI(1);
  } catch {
    return undefined;
  }
}
