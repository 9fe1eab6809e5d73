import type { BoardConfig, Card } from '../../server/core/model';
import { DELETED_STATUS } from '../../server/core/shapes/vocabulary';

/** Today as `YYYY-MM-DD` in the user's own time zone: a card due today is not overdue yet. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The board's cards assigned to `person` that are overdue: due before today and not done. Done
 * means in the board's last column (where finished work goes); deleted cards are nobody's worry.
 */
export function overdueCardsOf(board: BoardConfig, cards: Iterable<Card>, person: string, today: string): Card[] {
  const who = person.trim().toLowerCase();
  if (!who) return [];
  const done = board.columns.at(-1)?.id;
  const overdue: Card[] = [];
  for (const card of cards) {
    if (card.status === done || card.status === DELETED_STATUS) continue;
    if (!card.dueDate || card.dueDate.slice(0, 10) >= today) continue;
    if (card.assignee?.trim().toLowerCase() !== who) continue;
    overdue.push(card);
  }
  return overdue.sort((a, b) => (a.dueDate ?? '').localeCompare(b.dueDate ?? ''));
}
