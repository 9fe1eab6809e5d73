import { DELETED_STATUS, type Card } from './model';

/**
 * The folder (and index bucket) that holds archived cards. Reserved as a column id like `deleted`:
 * an archived card keeps its real `status`, so it cannot live in its status folder without showing
 * up in that column.
 */
export const ARCHIVED_STATUS = 'archived';

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

/** Status folders the service keeps for itself: no column may take these ids. */
export const RESERVED_STATUS_IDS: readonly string[] = [DELETED_STATUS, ARCHIVED_STATUS];
