import type { Card } from '../core/model';
import { withoutListDefaults } from '../core/shapes/listDefaults';
import type { WorkspaceState } from './workspaceState';
import { cardFields, filePathJsonOf, keptFieldsJson, type JsonBytes } from './views';
import { stateAndLinksJson } from './perReadJson';

/**
 * A compact list entry (see core/shapes/listDefaults): the card-only part without its defaults,
 * kept per card object as the full part is, so a compact list costs what a full one does.
 */
const compactFieldsJsonOf = keptFieldsJson((card) => withoutListDefaults(cardFields(card)));

/** As pushTaskViewJson, without the fields that hold their empty default. */
export function pushCompactTaskViewJson(
  out: JsonBytes,
  ws: WorkspaceState,
  card: Card,
  position: number,
  actor: string,
): void {
  const fields = compactFieldsJsonOf(card);
  out.push(fields.text, fields.bytes);
  out.push(`,"position":${position}${stateAndLinksJson(ws, card, actor, 'compact')}${filePathJsonOf(ws, card)}}`);
}
