import { DEFAULT_CLAIM_SECONDS, isLive, leaseFor, type StoredClaim } from '../core/claims';
import { ClaimedError } from '../core/errors';
import type { Card, TaskView } from '../core/model';
import type { StoredSession } from '../core/sessions';
import { announceClaim } from './claimActions';
import { claimedMessage } from './claims';
import { addTaskLog } from './logs';
import { resolveCard } from './taskQueries';
import { taskView } from './views';
import type { Workspace } from './workspace';
import type { SessionReportBody } from '../core/shapes/requests/agents';

/**
 * Agents report their progress on a card (`PUT /tasks/{id}/session`): the session shows on the card,
 * each report renews the agent's claim (taking it when free), and `complete` gives the claim back.
 * Decided under the claim store's lock, as claims are; each change of state goes to the card's log,
 * which is tracked, so the history travels with the repository while the session itself never does.
 */

/** A session report as its route checks it, with the agent settled (body or header). */
export type ProgressReport = Omit<SessionReportBody, 'agent'> & { agent: string };

export async function reportProgress(
  ws: Workspace,
  boardId: string,
  idish: string,
  report: ProgressReport,
  actor: string,
): Promise<TaskView> {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    const outcome = await ws.claims.store.exclusive(async (claims) => {
      const held = await claims.get(card.boardId, card.id);
      const live = held !== null && isLive(held);
      if (live && held.agent !== report.agent)
        throw new ClaimedError(`${claimedMessage(held)}; only that agent may report on it`);
      const mine = live ? held : null;
      const leaseSeconds = report.ttlSeconds ?? mine?.ttlSeconds ?? DEFAULT_CLAIM_SECONDS;
      let claim: StoredClaim | null = null;
      if (report.state === 'complete') await claims.remove(card.boardId, card.id);
      else await claims.put((claim = leaseFor(card.boardId, card.id, report.agent, leaseSeconds, held)));
      const before = await claims.getSession(card.boardId, card.id);
      const session: StoredSession = {
        boardId: card.boardId,
        cardId: card.id,
        agent: report.agent,
        state: report.state,
        note: report.note ?? null,
        url: report.url ?? null,
        updatedAt: new Date().toISOString(),
        leaseSeconds,
      };
      await claims.putSession(session);
      return { claim, released: report.state === 'complete' ? mine : null, renewed: mine !== null, before, session };
    });
    if (outcome.claim) announceClaim(ws, card, outcome.claim, outcome.renewed);
    if (outcome.released) {
      ws.claims.forget(card.boardId, card.id);
      ws.emit(
        'task.released',
        card.boardId,
        { taskId: card.id, agent: outcome.released.agent, by: report.agent, forced: false },
        card,
      );
    }
    ws.claims.rememberSession(outcome.session);
    const { before, session } = outcome;
    if (before?.state !== session.state || before.agent !== session.agent) {
      const text = `Agent ${session.agent}: ${session.state}${session.note ? ` - ${session.note}` : ''}`;
      await addTaskLog(
        ws,
        card,
        {
          text,
          source: 'kanban',
          object: { session: { agent: session.agent, state: session.state, note: session.note, url: session.url } },
        },
        actor,
      );
    }
    return announceSession(ws, card);
  });
}

/** A person (or the session's own agent) clears a card's session; another agent's is a 409. */
export async function clearSession(
  ws: Workspace,
  boardId: string,
  idish: string,
  agent: string | null,
  actor: string,
): Promise<TaskView> {
  return ws.mutate(async () => {
    const card = resolveCard(ws, boardId, idish);
    const cleared = await ws.claims.store.exclusive(async (claims) => {
      const held = await claims.getSession(card.boardId, card.id);
      if (!held) return null;
      if (agent !== null && held.agent !== agent)
        throw new ClaimedError(
          `card "${card.id}" shows the session of agent ${held.agent}; only that agent or a person may clear it`,
        );
      await claims.removeSession(card.boardId, card.id);
      return held;
    });
    ws.claims.forgetSession(card.boardId, card.id);
    if (!cleared) return taskView(ws, card, { withComments: true });
    await addTaskLog(
      ws,
      card,
      {
        text: `Session of agent ${cleared.agent} (${cleared.state}) cleared by ${agent ?? actor}`,
        source: 'kanban',
        object: { sessionCleared: cleared.agent, by: agent ?? actor },
      },
      actor,
    );
    return announceSession(ws, card);
  });
}

function announceSession(ws: Workspace, card: Card): TaskView {
  const now = ws.index.get(card.boardId, card.id) ?? card;
  ws.emit('task.session', now.boardId, { taskId: now.id, session: ws.claims.sessionOf(now.boardId, now.id) }, now);
  return taskView(ws, now, { withComments: true });
}
