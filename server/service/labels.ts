import type { Static } from '@sinclair/typebox';
import { NotFoundError, ValidationError } from '../core/errors';
import type { LabelUsageListSchema } from '../core/shapes/board';
import type { Card, LabelDefinition } from '../core/model';
import { saveCards } from './tasks';
import { checkColor, checkLabelName } from './validate';
import type { Workspace } from './workspace';
import type { LabelBody } from '../core/shapes/requests/workspace';

export function getLabels(ws: Workspace): Record<string, LabelDefinition> {
  return ws.config.labels;
}

/** One label as cards use it: defined in .kanban.json or not, and how many cards carry it. */
export type LabelUsage = Static<typeof LabelUsageListSchema>[number];

/**
 * Every label defined or carried by a card (any board, deleted and archived cards included, as a
 * rename or delete rewrites those too): the definitions first in their order, then the labels
 * cards use without a definition, by name. A card carries a label once, so counts are cards.
 */
export function labelUsage(ws: Workspace): LabelUsage[] {
  const counts = new Map<string, number>();
  for (const card of ws.index.allCards())
    for (const name of new Set(card.labels)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const defined = Object.entries(ws.config.labels).map(([name, def]) => ({
    name,
    defined: true,
    color: def.color,
    group: def.group ?? null,
    cards: counts.get(name) ?? 0,
  }));
  const undefinedNames = [...counts.keys()].filter((name) => !isDefined(ws, name)).sort();
  return [
    ...defined,
    ...undefinedNames.map((name) => ({ name, defined: false, color: null, group: null, cards: counts.get(name) ?? 0 })),
  ];
}

export async function putLabel(ws: Workspace, name: string, input: LabelBody) {
  return ws.mutate(async () => {
    checkLabelName(name);
    const definition: LabelDefinition = { color: checkColor(input.color) };
    if (input.group !== undefined && input.group.trim() !== '') definition.group = input.group;
    const config = await ws.updateConfig((draft) => {
      draft.labels = withLabel(draft.labels, name, definition);
    });
    ws.emit('label.updated', null, { name, definition });
    return config.labels;
  });
}

/**
 * The label map with `name` set, in place when it exists. Built from entries so that any name,
 * `__proto__` included, becomes a plain key instead of touching the object's prototype.
 */
function withLabel(
  labels: Record<string, LabelDefinition>,
  name: string,
  definition: LabelDefinition,
): Record<string, LabelDefinition> {
  const entries = Object.entries(labels);
  const at = entries.findIndex(([key]) => key === name);
  if (at >= 0) entries[at] = [name, definition];
  else entries.push([name, definition]);
  return Object.fromEntries(entries);
}

function isDefined(ws: Workspace, name: string): boolean {
  return Object.hasOwn(ws.config.labels, name);
}

function cardsWithLabel(ws: Workspace, name: string): Card[] {
  return ws.index.allCards().filter((card) => card.labels.includes(name));
}

function requireKnownLabel(ws: Workspace, name: string, users: Card[]): void {
  if (!isDefined(ws, name) && users.length === 0) {
    throw new NotFoundError(`label "${name}" is neither defined nor used on any card`);
  }
}

/** Rewrite every card that carries `name`, with `replace` giving its new label list. */
async function rewriteCards(ws: Workspace, cards: Card[], replace: (labels: string[]) => string[]): Promise<void> {
  const now = new Date().toISOString();
  await saveCards(
    ws,
    cards.map((card) => ({ card: { ...card, labels: replace(card.labels), modified: now }, previous: card })),
  );
}

export async function renameLabel(ws: Workspace, name: string, newName: string) {
  return ws.mutate(async () => {
    checkLabelName(newName);
    const users = cardsWithLabel(ws, name);
    requireKnownLabel(ws, name, users);
    if (newName === name) return ws.config.labels;
    if (isDefined(ws, newName))
      throw new ValidationError(`label "${newName}" already exists; delete it first or pick another name`);
    await rewriteCards(ws, users, (labels) => [...new Set(labels.map((l) => (l === name ? newName : l)))]);
    const config = await ws.updateConfig((draft) => {
      // Rebuild the map so the renamed label keeps its place in the order.
      draft.labels = Object.fromEntries(Object.entries(draft.labels).map(([k, v]) => [k === name ? newName : k, v]));
    });
    ws.emit('label.renamed', null, { name, newName, cards: users.map((c) => c.id) });
    return config.labels;
  });
}

export async function deleteLabel(ws: Workspace, name: string) {
  return ws.mutate(async () => {
    const users = cardsWithLabel(ws, name);
    requireKnownLabel(ws, name, users);
    await rewriteCards(ws, users, (labels) => labels.filter((l) => l !== name));
    const config = await ws.updateConfig((draft) => {
      draft.labels = Object.fromEntries(Object.entries(draft.labels).filter(([key]) => key !== name));
    });
    ws.emit('label.deleted', null, { name, cards: users.map((c) => c.id) });
    return config.labels;
  });
}
