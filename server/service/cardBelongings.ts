import type { Card } from '../core/model';
import { cardLog } from './logs';
import type { Workspace } from './workspace';
import { dropClaimOf, moveClaimOf } from './claimRules';

/**
 * What belongs to a card outside its own record: attachment payloads, its log, per-actor
 * state and an agent's claim. Permanent delete removes them; transfer carries them to the other board.
 */
export async function removeCardBelongings(ws: Workspace, card: Card): Promise<void> {
  await ws.attachments.removeAll(card);
  await ws.logs.clear(cardLog(card));
  await ws.cardStates.forget(card);
  await dropClaimOf(ws, card);
}

export async function relocateCardBelongings(ws: Workspace, from: Card, to: Card): Promise<void> {
  await ws.attachments.move(from, to, from.attachments);
  await moveClaimOf(ws, from, to);
  await ws.logs.move(cardLog(from), cardLog(to));
}
