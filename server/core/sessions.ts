/**
 * An agent's session on a card: what the agent last said it is doing there (`kanban report`),
 * shown on the card so a person sees at a glance which agent is working, waiting for an answer,
 * stuck, or done. A report renews the agent's claim; the session outlives the claim and reads
 * `stale` once the agent has been silent longer than the lease it renewed.
 */

import type { Static } from '@sinclair/typebox';
import type { AgentSessionSchema } from './shapes/cardParts';

/** A session as the read model shows it. */
export type CardSession = Static<typeof AgentSessionSchema>;

/** A session as stored: the card it is on, and the lease length that makes it stale. */
export interface StoredSession extends Omit<CardSession, 'stale'> {
  boardId: string;
  cardId: string;
  leaseSeconds: number;
}

/**
 * When the session turns stale (ms since the epoch). A `complete` session never does: the agent
 * said it is done, so its silence afterwards is expected, not a sign that it stopped.
 */
export function staleAtMs(session: StoredSession): number {
  if (session.state === 'complete') return Infinity;
  return Date.parse(session.updatedAt) + session.leaseSeconds * 1000;
}

/** The read model's part of a stored session, in its key order. */
export function viewOfSession(session: StoredSession, now = Date.now()): CardSession {
  const { agent, state, note, url, updatedAt } = session;
  return { agent, state, note, url, updatedAt, stale: now >= staleAtMs(session) };
}
