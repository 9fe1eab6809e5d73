import { ValidationError } from './errors';
import type { Card, CardClaim } from './model';
import { PRIORITIES } from './shapes/vocabulary';

export type { CardClaim };

/**
 * Agents and their claims on cards: the rules that need no I/O. An agent is a named program working
 * on the board (X-Kanban-Agent, `kanban --agent`); a claim is its lease on one card, which expires
 * by itself so a crashed agent never holds a card for good.
 */

/** What an agent name may hold: enough for `claude@host:1234` or `ci/build-7`, nothing a header or a file name mangles. */
export const AGENT_NAME = /^[A-Za-z0-9._@:/-]{1,64}$/;
export const AGENT_NAME_RULE = '1 to 64 characters of A-Z, a-z, 0-9 and . _ @ : / -';

export function checkAgentName(name: string, where: string): string {
  if (!AGENT_NAME.test(name)) {
    const shown = name.length > 80 ? `${name.slice(0, 80)}...` : name;
    throw new ValidationError(`${where} ${JSON.stringify(shown)} is not a valid agent name: use ${AGENT_NAME_RULE}`);
  }
  return name;
}

export const DEFAULT_CLAIM_SECONDS = 900;
export const MAX_CLAIM_SECONDS = 86_400;

/** A claim as stored: the card it holds, on which board. */
export interface StoredClaim extends CardClaim {
  boardId: string;
  cardId: string;
  /** The lease length of the last claim or renewal: a progress report renews for as long. */
  ttlSeconds?: number;
}

export function claimKey(boardId: string, cardId: string): string {
  return `${boardId}/${cardId}`;
}

export function isLive(claim: CardClaim, now = Date.now()): boolean {
  return Date.parse(claim.until) > now;
}

/** A new claim, or the holder's renewal (which keeps `since`). */
export function leaseFor(
  boardId: string,
  cardId: string,
  agent: string,
  ttlSeconds: number,
  held: StoredClaim | null,
  now = Date.now(),
): StoredClaim {
  const since = held && held.agent === agent && isLive(held, now) ? held.since : new Date(now).toISOString();
  return { boardId, cardId, agent, since, until: new Date(now + ttlSeconds * 1000).toISOString(), ttlSeconds };
}

/** The read model's part of a stored claim, in its key order. */
export function viewOfClaim(claim: CardClaim): CardClaim {
  return { agent: claim.agent, since: claim.since, until: claim.until };
}

/** A card's priority as a rank (critical is 0); an unknown one (a hand edit) ranks past every real one. */
export const priorityRank = (card: Card) => {
  const rank = PRIORITIES.indexOf(card.priority);
  return rank === -1 ? PRIORITIES.length : rank;
};

/**
 * The order `pick` offers cards in: priority (critical first), then due date (earliest first, none
 * last), then board order, which `boardOrder` gives (column, then place in the column).
 */
export function comparePickOrder(a: Card, b: Card, boardOrder: (card: Card) => number): number {
  const byPriority = priorityRank(a) - priorityRank(b);
  if (byPriority !== 0) return byPriority;
  if (a.dueDate !== b.dueDate) {
    if (a.dueDate === undefined) return 1;
    if (b.dueDate === undefined) return -1;
    return a.dueDate < b.dueDate ? -1 : 1;
  }
  return boardOrder(a) - boardOrder(b);
}
