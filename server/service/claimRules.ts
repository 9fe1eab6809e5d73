import { isLive, type StoredClaim } from '../core/claims';
import { ClaimedError } from '../core/errors';
import type { Card } from '../core/model';
import type { StoredSession } from '../core/sessions';
import { claimedMessage } from './claims';
import { currentAgent } from './requestAgent';
import type { WorkspaceState } from './workspaceState';

/**
 * The card write guard: while a card has a live claim, a write from another agent is refused with
 * 409 naming the holder. People (no agent header) and the holder write as usual. The store is asked,
 * not the copy in memory, so a claim taken a moment ago in another process counts.
 */
export async function refuseOtherAgentsClaims(ws: WorkspaceState, cards: readonly Card[]): Promise<void> {
  const agent = currentAgent();
  if (agent === null || cards.length === 0) return;
  const claims = await Promise.all(cards.map((card) => ws.claims.store.get(card.boardId, card.id)));
  const now = Date.now();
  const other = claims.find((claim) => claim !== null && claim.agent !== agent && isLive(claim, now));
  if (other) throw new ClaimedError(`${claimedMessage(other)}; only that agent (or a person) may change it until then`);
}

/**
 * A card deleted for good takes its claim with it. The store is read first: most cards have no
 * claim, and their delete then never makes the claims folder or takes its lock.
 */
export async function dropClaimOf(ws: WorkspaceState, card: Pick<Card, 'boardId' | 'id'>): Promise<void> {
  const hasSession = ws.claims.sessionOf(card.boardId, card.id) !== null;
  if (!hasSession && !(await ws.claims.store.get(card.boardId, card.id))) return;
  await ws.claims.store.exclusive(async (claims) => {
    await claims.remove(card.boardId, card.id);
    await claims.removeSession(card.boardId, card.id);
  });
  ws.claims.forget(card.boardId, card.id);
  ws.claims.forgetSession(card.boardId, card.id);
}

/** A card transferred to another board keeps its claim and its agent session there (both are keyed by board and card). */
export async function moveClaimOf(
  ws: WorkspaceState,
  from: Pick<Card, 'boardId' | 'id'>,
  to: Pick<Card, 'boardId' | 'id'>,
): Promise<void> {
  const hasSession = ws.claims.sessionOf(from.boardId, from.id) !== null;
  if (!hasSession && !(await ws.claims.store.get(from.boardId, from.id))) return;
  const moved = await ws.claims.store.exclusive(async (claims) => {
    const held = await claims.get(from.boardId, from.id);
    const session = await claims.getSession(from.boardId, from.id);
    const next: StoredClaim | null = held && { ...held, boardId: to.boardId, cardId: to.id };
    const nextSession: StoredSession | null = session && { ...session, boardId: to.boardId, cardId: to.id };
    if (next) await claims.put(next);
    if (nextSession) await claims.putSession(nextSession);
    await claims.remove(from.boardId, from.id);
    await claims.removeSession(from.boardId, from.id);
    return { claim: next, session: nextSession };
  });
  ws.claims.forget(from.boardId, from.id);
  ws.claims.forgetSession(from.boardId, from.id);
  if (moved.claim) ws.claims.remember(moved.claim);
  if (moved.session) ws.claims.rememberSession(moved.session);
}
