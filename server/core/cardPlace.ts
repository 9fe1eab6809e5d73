import type { Card } from './model';
import { ARCHIVED_STATUS } from './shapes/vocabulary';

/**
 * Where a card sits: its status column, or the archive when it is archived. The index, the list
 * queries and the Markdown folders all go by this, so an archived card never counts in a column.
 */
export function placeOf(card: Pick<Card, 'status' | 'archivedAt'>): string {
  return card.archivedAt ? ARCHIVED_STATUS : card.status;
}

export function isArchived(card: Pick<Card, 'archivedAt'>): boolean {
  return Boolean(card.archivedAt);
}
