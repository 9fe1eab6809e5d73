import { NotFoundError } from '../core/errors';
import type { Card } from '../core/model';
import { resolveCard } from './taskQueries';
import type { Workspace } from './workspace';
import type { ReadBody } from '../core/shapes/requests/cardNotes';

/** Card actions as a key -> title map, whichever form the card stores. */
export function actionsOf(card: Card): Record<string, string> {
  if (!card.actions) return {};
  if (Array.isArray(card.actions)) return Object.fromEntries(card.actions.map((key) => [key, key]));
  return card.actions;
}

export function triggerCardAction(ws: Workspace, boardId: string, idish: string, action: string): void {
  const card = resolveCard(ws, boardId, idish);
  const actions = actionsOf(card);
  // Own keys only: `constructor` or `toString` are inherited by every object, not offered actions.
  const title = Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (title === undefined) {
    const offered = Object.keys(actions);
    throw new NotFoundError(
      `card "${card.id}" does not offer action "${action}"${offered.length ? ` (it offers: ${offered.join(', ')})` : ''}`,
    );
  }
  ws.emit('card.action.triggered', boardId, { action, title, boardId, taskId: card.id }, card);
}

export async function openCard(ws: Workspace, boardId: string, idish: string, actor: string) {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    ws.activeTask = { boardId, id: card.id };
    return ws.cardStates.markOpen(card, actor);
  });
}

export async function readCard(
  ws: Workspace,
  boardId: string,
  idish: string,
  actor: string,
  readThrough?: ReadBody['readThrough'],
) {
  return ws.mutate(async () => ws.cardStates.markRead(resolveCard(ws, boardId, idish), actor, readThrough));
}
