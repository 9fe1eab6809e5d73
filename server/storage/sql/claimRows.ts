import type { StoredClaim } from '../../core/claims';
import type { StoredSession } from '../../core/sessions';
import type { SessionState } from '../../core/shapes/vocabulary';
import type { SqlValue } from './sqlDatabase';

/** `kanban_claims`: one row per claimed card, expired ones too until someone removes them. */
export const CLAIM_COLUMNS = 'board_id, card_id, agent, since, until, ttl_seconds';
/** `kanban_agent_sessions`: one row per card an agent reported on. */
export const SESSION_COLUMNS = 'board_id, card_id, agent, state, note, url, updated_at, lease_seconds';

export interface ClaimRow {
  board_id: string;
  card_id: string;
  agent: string;
  since: string;
  until: string;
  ttl_seconds: number | string | null;
}

export interface SessionRow {
  board_id: string;
  card_id: string;
  agent: string;
  state: string;
  note: string | null;
  url: string | null;
  updated_at: string;
  lease_seconds: number | string;
}

/**
 * Keys in the order the service builds them (core/claims.ts leaseFor, service/sessions.ts): the
 * copy in memory compares sessions as JSON, so a row read back must not differ by key order.
 */
export function claimFromRow(row: ClaimRow): StoredClaim {
  const claim: StoredClaim = {
    boardId: row.board_id,
    cardId: row.card_id,
    agent: row.agent,
    since: row.since,
    until: row.until,
  };
  if (row.ttl_seconds !== null) claim.ttlSeconds = Number(row.ttl_seconds);
  return claim;
}

export function claimToRow(claim: StoredClaim): SqlValue[] {
  return [claim.boardId, claim.cardId, claim.agent, claim.since, claim.until, claim.ttlSeconds ?? null];
}

export function sessionFromRow(row: SessionRow): StoredSession {
  return {
    boardId: row.board_id,
    cardId: row.card_id,
    agent: row.agent,
    state: row.state as SessionState,
    note: row.note,
    url: row.url,
    updatedAt: row.updated_at,
    leaseSeconds: Number(row.lease_seconds),
  };
}

export function sessionToRow(session: StoredSession): SqlValue[] {
  return [
    session.boardId,
    session.cardId,
    session.agent,
    session.state,
    session.note,
    session.url,
    session.updatedAt,
    session.leaseSeconds,
  ];
}
