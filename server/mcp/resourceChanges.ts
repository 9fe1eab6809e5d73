import type { ServiceEvent } from '../core/events';

/**
 * Which resources a change of the service touches: the card it is about (by its whole id) and the
 * boards it happened on. A change without a board (settings, labels) may show on every board.
 */
export interface ResourceChange {
  cardId: string | undefined;
  boardIds: string[];
  everyBoard: boolean;
}

export function resourceChangeOf(event: ServiceEvent): ResourceChange {
  const { data } = event;
  const cardId = event.card?.id ?? ('taskId' in data && typeof data.taskId === 'string' ? data.taskId : undefined);
  const boards = new Set<string>();
  if (event.boardId !== null) boards.add(event.boardId);
  // A card sent to another board leaves one board and joins the other; a view can change boards too.
  if ('fromBoard' in data && typeof data.fromBoard === 'string') boards.add(data.fromBoard);
  if ('toBoard' in data && typeof data.toBoard === 'string') boards.add(data.toBoard);
  return { cardId, boardIds: [...boards], everyBoard: event.boardId === null };
}
