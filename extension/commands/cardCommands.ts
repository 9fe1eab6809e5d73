import * as path from 'node:path';
import * as vscode from 'vscode';
import { PRIORITIES } from '../../server/core/shapes/vocabulary';
import type { ExtensionParts } from '../parts';
import { callApi, type BoardSummary, type ColumnInfo, type TaskSummary } from '../service/callApi';
import { withFolder } from '../ui/folders';
import { cardPickItem } from './cardPickItem';
import { boardOrOffer } from './createBoard';
import { currentBoardId, pickService, type FolderService } from './pickService';

interface BoardDetails {
  id: string;
  name: string;
  columns: ColumnInfo[];
  defaultStatus: string | null;
  defaultPriority: string | null;
}

/** Open Board: the folder's board in an editor panel (one per folder, revealed if open). */
export async function openBoard(parts: ExtensionParts): Promise<void> {
  const folder = await parts.folders.choose("Open which folder's board?");
  if (folder && (await boardOrOffer(parts, folder))) parts.panels.open(folder);
}

/** Add Card: title, then column, then priority; created through the API like any other card. */
export async function addCard(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Add the card to which folder?');
  if (!target) return;
  const boardId = currentBoardId(parts, target);
  const choices = await columnChoices(target, boardId);
  const title = await vscode.window.showInputBox({
    title: `Add Card to ${withFolder(choices.board.name, target.folder)}`,
    prompt: 'Card title',
    placeHolder: 'What needs doing?',
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? null : 'The title cannot be empty'),
  });
  if (!title?.trim()) return;
  const place = await chooseColumnAndPriority(choices, title.trim());
  if (!place) return;
  const created = await callApi<TaskSummary>(target, 'POST', `/boards/${encodeURIComponent(boardId)}/tasks`, {
    content: `# ${title.trim()}\n`,
    status: place.status.id,
    priority: place.priority,
  });
  const open = 'Open Card File';
  const choice = await vscode.window.showInformationMessage(
    `Kanban: added "${created.title}" to ${place.status.label}.`,
    open,
  );
  if (choice === open) await showCardFile(target, created);
}

/** What a new card's column and priority are chosen from: the board and the defaults. */
export interface ColumnChoices {
  board: BoardDetails;
  /** What the prompts are headed with: "Add Card", naming the folder in a multi-root window. */
  heading: string;
  defaultStatus: string;
  defaultPriority: string;
}

export async function columnChoices(target: FolderService, boardId: string): Promise<ColumnChoices> {
  const board = await callApi<BoardDetails>(target, 'GET', `/boards/${encodeURIComponent(boardId)}`);
  const settings = await callApi<{ defaultStatus: string; defaultPriority: string }>(target, 'GET', '/settings');
  return {
    board,
    heading: withFolder('Add Card', target.folder),
    defaultStatus: board.defaultStatus ?? settings.defaultStatus,
    defaultPriority: board.defaultPriority ?? settings.defaultPriority,
  };
}

/** The column (default first) and then the priority (default preselected) of a new card. */
export async function chooseColumnAndPriority(
  choices: ColumnChoices,
  title: string,
): Promise<{ status: { id: string; label: string }; priority: string } | undefined> {
  const { board, defaultStatus, defaultPriority } = choices;
  const columns = [...board.columns].sort((a, b) => Number(b.id === defaultStatus) - Number(a.id === defaultStatus));
  const status = await vscode.window.showQuickPick(
    columns.map((column) => ({
      label: column.name,
      description: column.id === defaultStatus ? 'default' : undefined,
      id: column.id,
    })),
    { title: `${choices.heading}: ${title}`, placeHolder: 'Column', ignoreFocusOut: true },
  );
  if (!status) return undefined;
  // Always in order of urgency, so the list reads the same every time; the default is preselected.
  const priorities = PRIORITIES.map((p) => ({ label: p, description: p === defaultPriority ? 'default' : undefined }));
  const priority = await pickWithActive(
    priorities,
    priorities.find((p) => p.label === defaultPriority),
    { title: `${choices.heading}: ${title}`, placeholder: 'Priority' },
  );
  return priority ? { status, priority: priority.label } : undefined;
}

/** Switch Board: which board the panel shows and the commands act on. */
export async function switchBoard(parts: ExtensionParts): Promise<void> {
  const target = await pickService(parts, 'Switch the board of which folder?');
  if (!target) return;
  const boards = await callApi<BoardSummary[]>(target, 'GET', '/boards');
  const current = currentBoardId(parts, target);
  const picked = await vscode.window.showQuickPick(
    boards.map((board) => ({
      label: board.name,
      description:
        [board.id === current ? 'current' : '', board.isDefault ? 'default' : ''].filter(Boolean).join(', ') ||
        undefined,
      detail: `${board.taskCount ?? 0} card(s) · ${board.id}`,
      id: board.id,
    })),
    { placeHolder: withFolder('Board to show', target.folder), matchOnDetail: true },
  );
  if (!picked) return;
  // The board becomes the folder's current one: an open panel follows it, a new one opens on it.
  parts.currentBoard.set(target.folder.key, picked.id);
  parts.panels.open(target.folder);
}

/** A quick pick whose highlighted item (what Enter takes) is `active` rather than the first. */
function pickWithActive<T extends vscode.QuickPickItem>(
  items: T[],
  active: T | undefined,
  options: { title: string; placeholder: string },
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.ignoreFocusOut = true;
    pick.items = items;
    if (active) pick.activeItems = [active];
    let chosen: T | undefined;
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

/** Every card of every board, for the pickers. */
async function allTasks(target: FolderService): Promise<TaskSummary[]> {
  const boards = await callApi<BoardSummary[]>(target, 'GET', '/boards');
  const lists = await Promise.all(
    boards.map((board) => callApi<TaskSummary[]>(target, 'GET', `/boards/${encodeURIComponent(board.id)}/tasks`)),
  );
  return lists.flat();
}

async function pickTask(target: FolderService, placeHolder: string): Promise<TaskSummary | undefined> {
  const tasks = await allTasks(target);
  if (tasks.length === 0) {
    void vscode.window.showInformationMessage('Kanban: there are no cards yet. Add one with "Kanban: Add Card".');
    return undefined;
  }
  const boards = target.service.workspace.config.boards;
  const picked = await vscode.window.showQuickPick(
    tasks.map((task) => cardPickItem(task, boards)),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.task;
}

/** Open Card File: the card's Markdown file in a text editor. */
export async function openCardFile(
  parts: ExtensionParts,
  ref?: { boardId: string; taskId: string; folderKey?: string },
): Promise<void> {
  // A sidebar row names its folder: no need to ask which one in a multi-root window.
  const rowFolder = parts.folders.byKey(ref?.folderKey);
  const target = rowFolder
    ? { folder: rowFolder, service: await parts.services.get(rowFolder), access: parts.access }
    : await pickService(parts, 'Open a card file of which folder?');
  if (!target) return;
  const task = ref
    ? await callApi<TaskSummary>(
        target,
        'GET',
        `/boards/${encodeURIComponent(ref.boardId)}/tasks/${encodeURIComponent(ref.taskId)}`,
      )
    : await pickTask(target, 'Card whose file to open');
  if (task) await showCardFile(target, task);
}

async function showCardFile({ service }: FolderService, task: TaskSummary): Promise<void> {
  const relative = service.workspace.store.filePathOf?.(task);
  if (!relative) {
    void vscode.window.showInformationMessage(
      `Kanban: cards are stored in ${service.workspace.store.provider}, so "${task.title}" has no Markdown file.`,
    );
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(path.join(service.root, ...relative.split('/'))), {
    preview: false,
  });
}
