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
  const cardId = event.card?.id ?? (typeof data.taskId === 'string' ? data.taskId : undefined);
  const boards = new Set<string>();
  if (event.boardId !== null) boards.add(event.boardId);
  // A card sent to another board leaves one board and joins the other.
  for (const key of ['fromBoard', 'toBoard']) if (typeof data[key] === 'string') boards.add(data[key] as string);
  return { cardId, boardIds: [...boards], everyBoard: event.boardId === null };
}
