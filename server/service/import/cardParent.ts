import type { Card } from '../../core/model';
import type { NewTaskFields } from '../tasks';

/**
 * Where a sub-card names its parent card, for the importers and the Backlog.md export. The card
 * model has no `parent` field in this version, so the parent's id is kept in metadata `parent`;
 * once the field exists, these two functions are the one place to change.
 */

export function withParent(fields: NewTaskFields, parentId: string): NewTaskFields {
  return { ...fields, metadata: { ...fields.metadata, parent: parentId } };
}

export function parentOf(card: Pick<Card, 'metadata'>): string | undefined {
  const parent = card.metadata.parent;
  return typeof parent === 'string' && parent !== '' ? parent : undefined;
}
