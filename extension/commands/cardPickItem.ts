import type * as vscode from 'vscode';
import type { BoardConfig } from '../../server/core/model';
import type { TaskSummary } from '../service/callApi';

export interface CardPickItem extends vscode.QuickPickItem {
  task: TaskSummary;
}

/**
 * A card as a quick-pick row: its title, its column (and its board, when the folder has several)
 * and its id. People know columns and boards by their names; ids are for files and URLs.
 */
export function cardPickItem(task: TaskSummary, boards: readonly BoardConfig[]): CardPickItem {
  const board = boards.find((b) => b.id === task.boardId);
  const column = board?.columns.find((c) => c.id === task.status)?.name ?? task.status;
  return {
    label: task.title || task.id,
    description: boards.length > 1 ? `${board?.name ?? task.boardId} · ${column}` : column,
    detail: task.id,
    task,
  };
}
