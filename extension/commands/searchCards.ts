import * as vscode from 'vscode';
import type { ExtensionParts } from '../parts';
import { callApi, type BoardSummary, type TaskSummary } from '../service/callApi';
import { cardPickItem, type CardPickItem } from './cardPickItem';
import { pickService, type FolderService } from './pickService';

/** The most cards one board shows for a typed search: enough to pick from, cheap to draw. */
const SHOWN_PER_BOARD = 50;

/**
 * Search Cards: the board's own search (the list route's `q`: title, description, labels, assignee,
 * comments) over every board of the folder, run again as the person types; the picked card opens
 * on its board. With nothing typed, every card is offered, as before.
 */
export async function searchCards(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Search the cards of which folder?');
  if (!target) return;
  const boards = await callApi<BoardSummary[]>(target, 'GET', '/boards');
  const task = await searchPick(target, boards);
  if (!task) return;
  parts.currentBoard.set(target.folder.key, task.boardId);
  parts.panels.open(target.folder, { type: 'openTask', boardId: task.boardId, taskId: task.id });
}

function searchPick(target: FolderService, boards: BoardSummary[]): Promise<TaskSummary | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<CardPickItem>();
    pick.title = 'Search Cards';
    pick.placeholder = 'Search titles, descriptions, labels and assignees';
    let asked = 0;
    const search = async (text: string) => {
      const mine = ++asked;
      pick.busy = true;
      try {
        const found = await findCards(target, boards, text.trim());
        if (mine === asked) pick.items = found;
      } catch (error) {
        if (mine === asked)
          void vscode.window.showErrorMessage(`Kanban: the search failed: ${(error as Error).message}`);
      } finally {
        if (mine === asked) pick.busy = false;
      }
    };
    let chosen: TaskSummary | undefined;
    pick.onDidChangeValue((text) => void search(text));
    pick.onDidAccept(() => {
      chosen = (pick.selectedItems[0] ?? pick.activeItems[0])?.task;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    void search('');
    pick.show();
  });
}

async function findCards(target: FolderService, boards: BoardSummary[], text: string): Promise<CardPickItem[]> {
  const query = text ? `?q=${encodeURIComponent(text)}&limit=${SHOWN_PER_BOARD}` : '';
  const lists = await Promise.all(
    boards.map((board) =>
      callApi<TaskSummary[]>(target, 'GET', `/boards/${encodeURIComponent(board.id)}/tasks${query}`),
    ),
  );
  const configured = target.service.workspace.config.boards;
  // Shown whatever the editor makes of the typed text: the service matched it.
  return lists.flat().map((task) => ({ ...cardPickItem(task, configured), alwaysShow: true }));
}
