import { claimKey } from '../core/claims';
import { log } from '../core/log';
import type { WorkspaceState } from './workspaceState';

/**
 * How claims changed elsewhere become events here: another process's claims and sessions (a
 * folder watch, a database's poll) and leases that ran out.
 */

/**
 * Bring the copy in memory up to the store after another process changed it, with a
 * `task.claimed` or `task.released` for each card on this workspace's boards whose claim changed.
 * `origin` marks the events of a change another instance made and announced (see followDatabaseClaims).
 */
export async function followStoredClaims(
  ws: WorkspaceState,
  origin: { external?: true; peer?: true } = {},
): Promise<void> {
  const { claimed, released } = ws.claims.replaceAll(await ws.claims.store.list());
  for (const session of ws.claims.replaceSessions(await ws.claims.store.listSessions())) {
    const card = ws.index.get(session.boardId, session.cardId);
    if (card)
      ws.emit(
        'task.session',
        card.boardId,
        { taskId: card.id, session: ws.claims.sessionOf(card.boardId, card.id), ...origin },
        card,
      );
  }
  for (const claim of claimed) {
    const card = ws.index.get(claim.boardId, claim.cardId);
    if (card)
      ws.emit(
        'task.claimed',
        card.boardId,
        { taskId: card.id, agent: claim.agent, since: claim.since, until: claim.until, ...origin },
        card,
      );
  }
  for (const claim of released) {
    const card = ws.index.get(claim.boardId, claim.cardId);
    if (card) ws.emit('task.released', card.boardId, { taskId: card.id, agent: claim.agent, ...origin }, card);
  }
}

/**
 * A database store reports other processes' changes itself (it has no folder to watch): follow
 * them from the start, watcher or not, as the cards are. Their events are marked `peer`: the
 * instance that made the change announced it, and over a shared database it is already in the
 * global event log and the webhook queue, which must not take it twice.
 */
export function followDatabaseClaims(ws: WorkspaceState): void {
  ws.claims.followStore(() => {
    ws.mutate(() => followStoredClaims(ws, { external: true, peer: true })).catch((error) =>
      log.warn('kanban: reading the claims failed:', error),
    );
  });
}

/** A `task.released` (with `expired: true`) for each claim whose lease ran out since the last call, a `task.session` for each session that turned stale. */
export async function announceExpiredClaims(ws: WorkspaceState): Promise<void> {
  for (const claim of ws.claims.takeExpired()) {
    const card = ws.index.get(claim.boardId, claim.cardId);
    if (
      !card ||
      !(await firstToAnnounce(ws, `released ${claimKey(claim.boardId, claim.cardId)} ${claim.agent} ${claim.until}`))
    )
      continue;
    ws.emit('task.released', card.boardId, { taskId: card.id, agent: claim.agent, expired: true }, card);
  }
  for (const session of ws.claims.takeTurnedStale()) {
    const card = ws.index.get(session.boardId, session.cardId);
    if (
      !card ||
      !(await firstToAnnounce(
        ws,
        `stale ${claimKey(session.boardId, session.cardId)} ${session.agent} ${session.updatedAt}`,
      ))
    )
      continue;
    ws.emit(
      'task.session',
      card.boardId,
      { taskId: card.id, session: ws.claims.sessionOf(card.boardId, card.id) },
      card,
    );
  }
}

/**
 * Over a shared database every instance sees a lease run out at the same moment, and each
 * instance's events go to the one global log and webhook queue: only the first to record the lapse
 * announces it. A process with clients of its own (files, a SQLite file not shared) always does.
 */
async function firstToAnnounce(ws: WorkspaceState, lapse: string): Promise<boolean> {
  const store = ws.claims.store;
  if (!ws.shared || !store.announceOnce) return true;
  try {
    return await store.announceOnce(lapse);
  } catch (error) {
    // Heard twice beats not heard at all.
    log.warn(
      `kanban: could not check whether another instance announced a lapse (${(error as Error).message}); announcing it here`,
    );
    return true;
  }
}
