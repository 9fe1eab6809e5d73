import { visibleIdsOf } from './dnd/cardDrag';
import type { FocusTarget } from './keptFocus';
import { revealCard } from './reveal';
import type { BoardController } from './state/controller';

/** The places focus goes back to after a board action (see keptFocus.ts). */

/** A card, drawn (and scrolled to) first when its long column has not drawn it. */
export function cardTarget(ctrl: BoardController, id: string): FocusTarget {
  return () => revealCard(ctrl.state.tasks[id]?.status, id, true);
}

/** The column's "Add a card" button: the column's own place in the tab order. */
export function columnTarget(status: string): FocusTarget {
  return () => document.querySelector<HTMLElement>(`[data-add-card="${CSS.escape(status)}"]`);
}

/**
 * Where focus goes when a card leaves its column (deleted): the next card, else the one before,
 * else the column. Worked out now, while the card is still in its place.
 */
export function afterRemovalTarget(ctrl: BoardController, id: string): FocusTarget {
  const status = ctrl.state.tasks[id]?.status;
  if (!status) return () => null;
  const ids = visibleIdsOf(ctrl, status);
  const at = ids.indexOf(id);
  const neighbour = ids[at + 1] ?? (at > 0 ? ids[at - 1] : undefined);
  return neighbour ? cardTarget(ctrl, neighbour) : columnTarget(status);
}

/** A newly shown board: its first card, else the board switcher (null until the board is drawn). */
export function shownBoardTarget(ctrl: BoardController, boardId: string): FocusTarget {
  return () => {
    if (ctrl.state.boardId !== boardId || !ctrl.state.loaded) return null;
    return (
      document.querySelector<HTMLElement>('[data-card-id]') ??
      document.querySelector<HTMLElement>('[data-testid="board-switcher"]')
    );
  };
}
