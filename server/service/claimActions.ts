import { DEFAULT_CLAIM_SECONDS, isLive, leaseFor, type StoredClaim } from '../core/claims';
import { ClaimedError } from '../core/errors';
import type { Card, TaskView } from '../core/model';
import { claimedMessage } from './claims';
import { addTaskLog } from './logs';
import { resolveCard } from './taskQueries';
import { taskView } from './views';
import type { Workspace } from './workspace';

/**
 * Claim and release one card. Each runs in the mutation queue (one event per change, in order with
 * this process's card writes) and decides under the claim store's lock (in order with every other
 * process's claims).
 */

/** Claim a card for `agent`, or renew the agent's own claim; 409 while another agent's claim runs. */
export async function claimTask(
  ws: Workspace,
  boardId: string,
  idish: string,
  agent: string,
  ttlSeconds = DEFAULT_CLAIM_SECONDS,
): Promise<TaskView> {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    const { claim, renewed } = await ws.claims.store.exclusive(async (claims) => {
      const held = await claims.get(card.boardId, card.id);
      if (held && isLive(held) && held.agent !== agent)
        throw new ClaimedError(`${claimedMessage(held)}; wait for it to end, or release it with force`);
      const lease = leaseFor(card.boardId, card.id, agent, ttlSeconds, held);
      await claims.put(lease);
      return { claim: lease, renewed: held !== null && isLive(held) };
    });
    announceClaim(ws, card, claim, renewed);
    return taskView(ws, card, { withComments: true });
  });
}

export function announceClaim(ws: Workspace, card: Card, claim: StoredClaim, renewed: boolean): void {
  ws.claims.remember(claim);
  ws.emit(
    'task.claimed',
    card.boardId,
    { taskId: card.id, agent: claim.agent, since: claim.since, until: claim.until, renewed },
    card,
  );
}

export interface ReleaseRequest {
  /** Who releases: an agent, or null for a person. */
  agent: string | null;
  /** Who the person is, for the card's log (the authenticated subject, or "anonymous"). */
  actor: string;
  /** Let an agent release another agent's claim (logged on the card). */
  force?: boolean;
}

/**
 * Release a card's claim: the holder and people may; another agent only with `force`, which the
 * card's log records (as it does a person releasing an agent's claim). No live claim: nothing to do.
 */
export async function releaseTask(
  ws: Workspace,
  boardId: string,
  idish: string,
  request: ReleaseRequest,
): Promise<TaskView> {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    const released = await ws.claims.store.exclusive(async (claims) => {
      const held = await claims.get(card.boardId, card.id);
      if (!held) return null;
      if (!isLive(held)) {
        await claims.remove(card.boardId, card.id);
        return null;
      }
      if (request.agent !== null && held.agent !== request.agent && !request.force) {
        throw new ClaimedError(
          `${claimedMessage(held)}; only that agent or a person may release it (add force=true to take it anyway, which the card's log records)`,
        );
      }
      await claims.remove(card.boardId, card.id);
      return held;
    });
    ws.claims.forget(card.boardId, card.id);
    if (!released) return taskView(ws, card, { withComments: true });
    const by = request.agent ?? request.actor;
    const forced = request.agent !== null && request.agent !== released.agent;
    // Someone else ended the holder's lease: the card's log says who, so the holder can find out why.
    if (request.agent !== released.agent) {
      const how = forced ? `by agent ${by}, with force` : `by person ${by}`;
      await addTaskLog(
        ws,
        card,
        {
          text: `Claim of agent ${released.agent} (until ${released.until}) released ${how}`,
          source: 'kanban',
          object: { claim: released, releasedBy: by, forced },
        },
        request.actor,
      );
    }
    const now = ws.index.get(card.boardId, card.id) ?? card;
    ws.emit('task.released', now.boardId, { taskId: now.id, agent: released.agent, by, forced }, now);
    return taskView(ws, now, { withComments: true });
  });
}
