import { refreshViews } from './views';
import { ApiError } from '../api';
import type { EventMessage } from '../protocol';
import type { TaskView } from '../types';
import type { BoardAccess } from './boardAccess';
import { placeTask, refreshTask, removeTask } from './placement';

/** What applying an event calls on the controller, beyond what every state module uses of it. */
export interface LiveBoard extends BoardAccess {
  load(boardId?: string): Promise<void>;
  refreshBoard(): Promise<void>;
  refreshBoards(): Promise<void>;
  refreshBoardsSoon(): void;
  refreshTasks(): Promise<void>;
  refreshLabels(): Promise<void>;
  refreshSettings(): Promise<void>;
}

/** Listeners for changes to the archive (the archive panel re-reads it). */
const archiveListeners = new Set<() => void>();

export function onArchiveChange(listener: () => void): () => void {
  archiveListeners.add(listener);
  return () => archiveListeners.delete(listener);
}

function notifyArchiveListeners(): void {
  for (const listener of archiveListeners) listener();
}

/** Listeners for changes the open card drawer cares about (comments, logs, attachments). */
/** `onDisk`: the change was made to the card's file outside the service (a hand edit, a git checkout). */
type CardChangeListener = (taskId: string, event: string, onDisk: boolean) => void;
const cardChangeListeners = new Set<CardChangeListener>();

export function onCardChange(listener: CardChangeListener): () => void {
  cardChangeListeners.add(listener);
  return () => cardChangeListeners.delete(listener);
}

function isTaskView(value: unknown): value is TaskView {
  const task = value as TaskView | undefined;
  return (
    typeof task?.id === 'string' &&
    typeof task.status === 'string' &&
    typeof task.position === 'number' &&
    typeof task.title === 'string'
  );
}

/** The card an event is about: from the event when it carries the read model, else fetched. */
async function cardOf(ctrl: LiveBoard, event: EventMessage): Promise<TaskView | null | 'gone'> {
  if (isTaskView(event.card)) return event.card;
  const taskId = taskIdOf(event);
  if (!taskId || !event.boardId) return null;
  try {
    return await ctrl.api.getTask(event.boardId, taskId);
  } catch (error) {
    return error instanceof ApiError && error.status === 404 ? 'gone' : null;
  }
}

/** The card an event names, by its id in `data` or its read model. */
function taskIdOf(event: EventMessage): string | undefined {
  return 'taskId' in event.data && typeof event.data.taskId === 'string' ? event.data.taskId : event.card?.id;
}

async function applyTaskEvent(ctrl: LiveBoard, event: EventMessage): Promise<void> {
  const taskId = taskIdOf(event);
  if (event.event === 'task.deleted' && event.data.permanent && taskId) {
    ctrl.store.set((s) => removeTask(s, taskId));
  } else {
    const card = await cardOf(ctrl, event);
    if (event.boardId !== ctrl.state.boardId) return;
    if (card === 'gone' && taskId) ctrl.store.set((s) => removeTask(s, taskId));
    // An archived card leaves the board; the archive panel lists it.
    else if (card && card !== 'gone' && card.archivedAt) ctrl.store.set((s) => removeTask(s, card.id));
    else if (card && card !== 'gone') ctrl.store.set((s) => placeTask(s, card));
  }
  // Another instance over a shared database is `external` too, but its change is not a file's.
  const onDisk = 'external' in event.data && event.data.external === true && !('peer' in event.data && event.data.peer);
  if (taskId) for (const listener of cardChangeListeners) listener(taskId, event.event, onDisk);
  ctrl.scheduleFilter(50);
}

/**
 * Some of a card's read model is derived from other cards: `openBlockers` from its blockers (which
 * may sit on another board), `children` from its sub-cards, `related` and `duplicates` from the
 * cards that name it. Those change with no event of their own, so when a card changes, the cards of
 * this board it names are read again: the ones it blocks, its parent (and the parent it had before,
 * which the board's copy still says), and the cards it relates to or duplicates. The event's read
 * model names them, so nothing is scanned.
 */
function linkedCardIds(event: EventMessage, before: TaskView | undefined): Set<string> {
  const card = event.card as Partial<TaskView> | undefined;
  const ids = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string' && value) ids.add(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') ids.add(item);
  };
  add(card?.blocks);
  add(card?.parent);
  add(before?.parent);
  add(card?.relatesTo);
  add(before?.relatesTo);
  add(card?.duplicateOf);
  add(before?.duplicateOf);
  if (card?.id) ids.delete(card.id);
  return ids;
}

function refreshLinkedCards(ctrl: LiveBoard, ids: Set<string>): void {
  const boardId = ctrl.state.boardId;
  if (!boardId) return;
  for (const id of ids) {
    if (!ctrl.state.tasks[id]) continue;
    void ctrl.api.getTask(boardId, id).then(
      (fresh) => {
        if (ctrl.state.boardId !== boardId) return;
        ctrl.store.set((s) => (s.tasks[id] ? refreshTask(s, fresh) : {}));
        // An open drawer of that card re-reads it, so it holds the card's new version.
        for (const listener of cardChangeListeners) listener(id, 'dependency.changed', false);
      },
      () => undefined,
    );
  }
}

/** Bring the UI state up to date with one change, in revision order. */
export async function applyEvent(ctrl: LiveBoard, event: EventMessage): Promise<void> {
  const onThisBoard = event.boardId === ctrl.state.boardId;
  const [family] = event.event.split('.');
  switch (family) {
    case 'task':
    case 'comment':
    case 'attachment':
    case 'log':
    case 'form': {
      const taskId = taskIdOf(event);
      const before = onThisBoard && taskId ? ctrl.state.tasks[taskId] : undefined;
      if (onThisBoard) await applyTaskEvent(ctrl, event);
      if (family === 'task') refreshLinkedCards(ctrl, linkedCardIds(event, before));
      if (['task.created', 'task.deleted', 'task.moved', 'task.archived', 'task.restored'].includes(event.event))
        ctrl.refreshBoardsSoon();
      if (event.event === 'task.archived' || event.event === 'task.restored') notifyArchiveListeners();
      return;
    }
    case 'column':
      if (onThisBoard) await ctrl.refreshBoard();
      return;
    case 'board':
      if (event.event.startsWith('board.log') || event.event === 'board.action.triggered') return;
      if (onThisBoard) await ctrl.refreshBoard();
      else await ctrl.refreshBoards();
      return;
    case 'label':
      await ctrl.refreshLabels();
      // Renaming or deleting a label rewrites the cards that carry it.
      if (event.event !== 'label.updated') await ctrl.refreshTasks();
      return;
    case 'settings': {
      const settings = event.event === 'settings.updated' ? event.data.settings : undefined;
      if (settings && typeof settings === 'object') ctrl.store.set({ settings });
      else await ctrl.refreshSettings();
      return;
    }
    case 'view':
      await refreshViews(ctrl);
      return;
    case 'storage':
      await ctrl.load(ctrl.state.boardId ?? undefined);
      return;
  }
}
