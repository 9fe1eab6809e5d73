import * as path from 'node:path';
import * as vscode from 'vscode';
import { titleOf } from '../../server/core/model';
import type { ExtensionParts } from '../parts';
import { callApi } from '../service/callApi';
import { cardOfFile, type CardAtFile } from './cardOfFile';

/** The file a command from the Explorer or an editor title acts on, else the active editor's. */
function fileOf(uri: unknown): vscode.Uri | undefined {
  if (uri instanceof vscode.Uri) return uri;
  return vscode.window.activeTextEditor?.document.uri;
}

/** A sidebar row names its card directly (folder, board, id). */
function isCardRow(value: unknown): value is { folderKey: string; boardId: string; taskId: string } {
  const row = value as { folderKey?: unknown; boardId?: unknown; taskId?: unknown } | null;
  return typeof row?.folderKey === 'string' && typeof row.boardId === 'string' && typeof row.taskId === 'string';
}

async function cardOfRow(
  parts: ExtensionParts,
  row: { folderKey: string; boardId: string; taskId: string },
): Promise<CardAtFile | undefined> {
  const folder = parts.folders.byKey(row.folderKey);
  const service = folder ? await parts.services.get(folder) : null;
  const card = service?.workspace.index.get(row.boardId, row.taskId);
  return folder && service && card ? { target: { folder, service, access: parts.access }, card } : undefined;
}

async function cardFor(parts: ExtensionParts, uri: unknown, commandTitle: string): Promise<CardAtFile | undefined> {
  if (isCardRow(uri)) return cardOfRow(parts, uri);
  const file = fileOf(uri);
  if (!file || file.scheme !== 'file') {
    void vscode.window.showInformationMessage(
      `Kanban: ${commandTitle} works on a card file (.kanban/boards/<board>/<column>/<id>.md); open one first.`,
    );
    return undefined;
  }
  const found = await cardOfFile(parts, file.fsPath);
  if (!found) {
    void vscode.window.showWarningMessage(
      `Kanban: ${path.basename(file.fsPath)} is not a card on any board here (not under a board's .kanban folder, or a second copy of a card served from another file).`,
    );
  }
  return found;
}

/** Show on Board: the card's board in the panel, with the card's details open. */
export async function showOnBoard(parts: ExtensionParts, uri?: unknown): Promise<void> {
  const found = await cardFor(parts, uri, 'Show on Board');
  if (!found) return;
  const { target, card } = found;
  parts.currentBoard.set(target.folder.key, card.boardId);
  parts.panels.open(target.folder, { type: 'openTask', boardId: card.boardId, taskId: card.id });
}

/** Move Card to Column: the card of the open file (or the one given) to a column picked by name. */
export async function moveCardOfFile(parts: ExtensionParts, uri?: unknown): Promise<void> {
  const found = await cardFor(parts, uri, 'Move Card to Column');
  if (!found) return;
  const { target, card } = found;
  const board = target.service.workspace.config.boards.find((b) => b.id === card.boardId);
  if (!board) return;
  const picked = await vscode.window.showQuickPick(
    board.columns.map((column) => ({
      label: column.name,
      description: column.id === card.status ? 'current' : undefined,
      id: column.id,
    })),
    { title: `Move "${titleOf(card.content) || card.id}"`, placeHolder: 'Column' },
  );
  if (!picked || picked.id === card.status) return;
  await callApi(
    target,
    'PATCH',
    `/boards/${encodeURIComponent(card.boardId)}/tasks/${encodeURIComponent(card.id)}/move`,
    { status: picked.id },
  );
}

/** Show My Overdue Cards: the overdue cards the status bar counted; the one picked opens on the board. */
export async function showMyOverdueCards(parts: ExtensionParts): Promise<void> {
  await parts.overdue.refreshNow();
  const state = parts.overdue.state;
  if (!state) {
    void vscode.window.showInformationMessage('Kanban: open the board first; the overdue count follows it.');
    return;
  }
  if (!state.person) {
    void vscode.window.showInformationMessage(
      'Kanban: set your name with `git config user.name` to see the overdue cards assigned to you.',
    );
    return;
  }
  if (!state.cards.length) {
    void vscode.window.showInformationMessage(
      `Kanban: no overdue cards on ${state.boardName} are assigned to ${state.person}.`,
    );
    return;
  }
  const board = state.service.workspace.config.boards.find((b) => b.id === state.boardId);
  const columnName = (status: string) => board?.columns.find((c) => c.id === status)?.name ?? status;
  const picked = await vscode.window.showQuickPick(
    state.cards.map((card) => ({
      label: titleOf(card.content) || card.id,
      description: `due ${card.dueDate} · ${columnName(card.status)}`,
      detail: card.id,
      card,
    })),
    {
      title: `Overdue on ${state.boardName}, assigned to ${state.person}`,
      placeHolder: 'Card to open on the board',
      matchOnDescription: true,
    },
  );
  if (!picked) return;
  parts.currentBoard.set(state.folder.key, state.boardId);
  parts.panels.open(state.folder, { type: 'openTask', boardId: state.boardId, taskId: picked.card.id });
}
