import type { Card } from '../core/model';
import { logFileOf } from './logs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Workspace } from './workspace';
import { dropClaimOf, moveClaimOf } from './claimRules';

/**
 * What belongs to a card outside its own record: attachment payloads, its log file, per-actor
 * state and an agent's claim. Permanent delete removes them; transfer carries them to the other board.
 */
export async function removeCardBelongings(ws: Workspace, card: Card): Promise<void> {
  await ws.attachments.removeAll(card);
  await fs.rm(logFileOf(ws, card), { force: true });
  await ws.cardStates.forget(card);
  await dropClaimOf(ws, card);
}

export async function relocateCardBelongings(ws: Workspace, from: Card, to: Card): Promise<void> {
  await ws.attachments.move(from, to, from.attachments);
  await moveClaimOf(ws, from, to);
  const source = logFileOf(ws, from);
  if (
    await fs.stat(source).then(
      () => true,
      () => false,
    )
  ) {
    const target = logFileOf(ws, to);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source, target);
  }
}
