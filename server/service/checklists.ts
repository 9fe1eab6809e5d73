import { addChecklistItem, editChecklistItem, removeChecklistItem } from '../core/checklist';
import { ValidationError } from '../core/errors';
import { resolveCard } from './taskQueries';
import { updateTask } from './tasks';
import type { Workspace } from './workspace';
import type { ChecklistEditBody } from '../core/shapes/requests/cardNotes';

/**
 * Checklist changes are content changes: each one rewrites the task list line in the card's
 * Markdown and goes through updateTask, so it is checked against the file on disk, bumps the
 * revision and emits one task.updated, exactly as a PUT of the new content would.
 */

/** A path segment as an item index: a whole number, 0 or more. */
export function parseItemIndex(segment: string): number {
  if (!/^\d+$/.test(segment))
    throw new ValidationError(`checklist index "${segment}" is not a whole number (items are numbered from 0)`);
  return Number(segment);
}

function changeContent(ws: Workspace, boardId: string, idish: string, edit: (content: string) => string) {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    return updateTask(ws, boardId, card.id, { content: edit(card.content) });
  });
}

export function addItem(ws: Workspace, boardId: string, idish: string, text: string) {
  return changeContent(ws, boardId, idish, (content) => addChecklistItem(content, text));
}

export function editItem(ws: Workspace, boardId: string, idish: string, index: number, change: ChecklistEditBody) {
  if (change.done === undefined && change.text === undefined)
    throw new ValidationError('send "done" (true or false) and/or "text"');
  return changeContent(ws, boardId, idish, (content) => editChecklistItem(content, index, change));
}

export function removeItem(ws: Workspace, boardId: string, idish: string, index: number) {
  return changeContent(ws, boardId, idish, (content) => removeChecklistItem(content, index));
}
