import { ValidationError } from '../core/errors';
import { replaceBoard, requireActionKey } from './boards';
import type { Workspace } from './workspace';

function checkActionKey(key: string): void {
  if (key.trim() === '' || key.length > 100 || /[\u0000-\u001f]/.test(key)) {
    throw new ValidationError(`action key must be 1-100 printable characters (got ${JSON.stringify(key)})`);
  }
}

function checkTitle(title: string, key: string): void {
  if (title.trim() === '') throw new ValidationError(`title of action "${key}" must not be empty`);
}

export function getBoardActions(ws: Workspace, boardId: string): Record<string, string> {
  return ws.board(boardId).actions;
}

export async function setBoardActions(ws: Workspace, boardId: string, actions: Record<string, string>) {
  return ws.mutate(async () => {
    for (const [key, title] of Object.entries(actions)) {
      checkActionKey(key);
      checkTitle(title, key);
    }
    const board = { ...ws.board(boardId), actions: { ...actions } };
    await replaceBoard(ws, board);
    ws.emit('board.updated', boardId, { actions: board.actions });
    return board.actions;
  });
}

export async function putBoardAction(ws: Workspace, boardId: string, key: string, title: string) {
  return ws.mutate(async () => {
    checkActionKey(key);
    checkTitle(title, key);
    const current = ws.board(boardId);
    const board = { ...current, actions: { ...current.actions, [key]: title } };
    await replaceBoard(ws, board);
    ws.emit('board.updated', boardId, { actions: board.actions });
    return board.actions;
  });
}

export async function deleteBoardAction(ws: Workspace, boardId: string, key: string) {
  return ws.mutate(async () => {
    const current = ws.board(boardId);
    requireActionKey(current, key);
    const actions = { ...current.actions };
    delete actions[key];
    await replaceBoard(ws, { ...current, actions });
    ws.emit('board.updated', boardId, { actions });
  });
}

export function triggerBoardAction(ws: Workspace, boardId: string, key: string): void {
  const board = ws.board(boardId);
  const title = requireActionKey(board, key);
  ws.emit('board.action.triggered', boardId, { action: key, title, boardId });
}
