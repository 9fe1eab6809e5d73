import type { Card } from '../core/model';
import { BoundedMemo } from '../core/boundedMemo';
import { withoutListDefaults } from '../core/shapes/listDefaults';
import type { WorkspaceState } from './workspaceState';
import { CARDS_KEPT, cardFields, filePathJsonOf, stateAndLinksJson, type JsonBytes } from './views';

/**
 * A compact list entry (see core/shapes/listDefaults): the card-only part without its defaults,
 * kept per card object as the full part is, so a compact list costs what a full one does.
 */
const compactFieldsJson = new BoundedMemo<Card, { text: string; bytes: number }>(CARDS_KEPT);

function compactFieldsJsonOf(card: Card): { text: string; bytes: number } {
  let held = compactFieldsJson.get(card);
  if (held === undefined) {
    const text = JSON.stringify(withoutListDefaults(cardFields(card))).slice(0, -1);
    held = { text, bytes: Buffer.byteLength(text) };
    compactFieldsJson.set(card, held);
  }
  return held;
}

/**
 * The compact form of per-read parts, by their full text: nearly every card of a board has one of
 * a handful (no links, no claim, not opened), so this stays small and a read costs a lookup per card.
 */
const compactPerRead = new Map<string, string>();
const COMPACT_PER_READ_KEPT = 1024;

function compactPerReadOf(full: string): string {
  let held = compactPerRead.get(full);
  if (held === undefined) {
    const text = JSON.stringify(withoutListDefaults(JSON.parse(`{${full.slice(1)}}`) as object)).slice(1, -1);
    held = text === '' ? '' : `,${text}`;
    if (compactPerRead.size >= COMPACT_PER_READ_KEPT) compactPerRead.clear();
    compactPerRead.set(full, held);
  }
  return held;
}

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
  const rest = compactPerReadOf(stateAndLinksJson(ws, card, actor));
  out.push(`,"position":${position}${rest}${filePathJsonOf(ws, card)}}`);
}
