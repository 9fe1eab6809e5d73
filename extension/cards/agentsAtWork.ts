import type { StoredClaim } from '../../server/core/claims';
import type { Card } from '../../server/core/model';
import { DELETED_STATUS } from '../../server/core/shapes/vocabulary';
import type { CardSession } from '../../server/core/sessions';

/** One card an agent is on, as the status bar's list shows it. */
export interface AgentCard {
  card: Card;
  agent: string;
  /** The session's state, or `claimed` when the agent holds the card without reporting. */
  state: CardSession['state'] | 'claimed';
  note: string | null;
  /** When the claim runs out, or null when only a session is left. */
  until: string | null;
  stale: boolean;
}

export interface AgentsAtWork {
  /** Agents holding at least one live claim: the ones at work now. */
  agents: string[];
  /** Cards waiting for a person's answer. */
  awaiting: AgentCard[];
  /** Every card worth a look, the ones that need a person first. */
  cards: AgentCard[];
}

type SessionOnCard = CardSession & { boardId: string; cardId: string };

/** What needs a person comes first: a question, then a failure, then work in progress. */
const RANK: Record<AgentCard['state'], number> = { awaitingInput: 0, error: 1, active: 2, claimed: 2, complete: 3 };

/**
 * The agents at work in a workspace: who holds claims, and the cards that are claimed or whose
 * agent waits for input or failed. A finished session without a claim is history, not work: it is
 * left out, as are cards deleted since.
 */
export function agentsAtWork(
  claims: StoredClaim[],
  sessions: SessionOnCard[],
  cardOf: (boardId: string, cardId: string) => Card | undefined,
): AgentsAtWork {
  const byCard = new Map<string, AgentCard>();
  const key = (boardId: string, cardId: string) => `${boardId}/${cardId}`;
  for (const claim of claims) {
    const card = cardOf(claim.boardId, claim.cardId);
    if (card && card.status !== DELETED_STATUS)
      byCard.set(key(claim.boardId, claim.cardId), {
        card,
        agent: claim.agent,
        state: 'claimed',
        note: null,
        until: claim.until,
        stale: false,
      });
  }
  for (const session of sessions) {
    const held = byCard.get(key(session.boardId, session.cardId));
    const needsPerson = session.state === 'awaitingInput' || session.state === 'error';
    if (!held && !needsPerson) continue;
    const card = held?.card ?? cardOf(session.boardId, session.cardId);
    if (!card || card.status === DELETED_STATUS) continue;
    byCard.set(key(session.boardId, session.cardId), {
      card,
      agent: session.agent,
      state: session.state,
      note: session.note,
      until: held?.until ?? null,
      stale: session.stale,
    });
  }
  const cards = [...byCard.values()].sort((a, b) => RANK[a.state] - RANK[b.state] || a.agent.localeCompare(b.agent));
  return {
    agents: [...new Set(claims.map((claim) => claim.agent))].sort(),
    awaiting: cards.filter((c) => c.state === 'awaitingInput'),
    cards,
  };
}

/** "12m left", "1h 5m left", or "expired": how long a claim has. */
export function timeLeft(until: string, now = Date.now()): string {
  const minutes = Math.ceil((Date.parse(until) - now) / 60_000);
  if (minutes <= 0) return 'expired';
  return minutes < 60 ? `${minutes}m left` : `${Math.floor(minutes / 60)}h ${minutes % 60}m left`;
}
