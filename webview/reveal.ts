/**
 * Long columns draw only the cards in view (ColumnCards), so a card that keys, a new card or a link
 * lead to may not be in the page yet. Code that wants such a card asks its column to scroll to it
 * through this DOM event; the column draws it and, when asked, focuses it.
 */
export const REVEAL_EVENT = 'kanban-reveal-card';

export interface RevealRequest {
  id: string;
  focus: boolean;
}

/**
 * The card's element when drawn; otherwise asks its column to draw it (and answers null). In
 * swimlanes a column is one list per lane: each is asked, and the one holding the card answers.
 */
export function revealCard(status: string | undefined, id: string, focus: boolean): HTMLElement | null {
  const drawn = document.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(id)}"]`);
  if (drawn || !status) return drawn;
  for (const list of document.querySelectorAll<HTMLElement>(`[data-column-cards="${CSS.escape(status)}"]`)) {
    list.dispatchEvent(new CustomEvent<RevealRequest>(REVEAL_EVENT, { detail: { id, focus } }));
  }
  return null;
}
