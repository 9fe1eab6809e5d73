/**
 * What the board says of agents at work on a card: the claim's time left, the session's badge, the
 * words a screen reader hears. Pure display rules over the read model (`claim`, `session`); the
 * server decides who holds what.
 */
import type { CardClaim, CardSession, TaskView } from './types';

const MINUTE = 60_000;

/** Milliseconds left on a claim at `now`; 0 once it ran out. */
export function msLeft(claim: CardClaim, now: number): number {
  const until = Date.parse(claim.until);
  return Number.isNaN(until) ? 0 : Math.max(0, until - now);
}

/**
 * "12m left", "1h 05m left": minutes rounded up, as a countdown reads (a fresh 15-minute claim says
 * "15m left", its last minute "1m left"); at 0 the claim is gone, so there is no "0m".
 */
export function timeLeftText(ms: number): string {
  const minutes = Math.ceil(ms / MINUTE);
  if (minutes < 60) return `${minutes}m left`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m left`;
}

/** The same, as words for a screen reader. */
export function timeLeftWords(ms: number): string {
  const minutes = Math.ceil(ms / MINUTE);
  return `${minutes} minute${minutes === 1 ? '' : 's'} left`;
}

/**
 * How long until `timeLeftText` reads one minute less (or, in the last minute, until the claim runs
 * out): a timer set for it redraws exactly when the text changes, and no sooner.
 */
export function msUntilNextChange(ms: number): number {
  if (ms <= 0) return Infinity;
  const intoMinute = ms % MINUTE;
  return intoMinute === 0 ? MINUTE : intoMinute;
}

/** The agent shown on a card: the holder of a claim with `left` ms to run, else the one that last reported. */
export function agentOf(task: Pick<TaskView, 'claim' | 'session'>, left: number): string | null {
  return (left > 0 ? task.claim?.agent : undefined) ?? task.session?.agent ?? null;
}

export interface SessionBadge {
  kind: 'awaiting' | 'error';
  text: string;
}

/** Only the states a person must act on get a badge; `active` and `complete` read from the agent line. */
export function sessionBadge(session: CardSession | null): SessionBadge | null {
  if (session?.state === 'awaitingInput') return { kind: 'awaiting', text: 'Needs input' };
  if (session?.state === 'error') return { kind: 'error', text: 'Agent error' };
  return null;
}

export const SESSION_STATE_NAMES: Record<CardSession['state'], string> = {
  active: 'Working',
  awaitingInput: 'Needs input',
  error: 'Agent error',
  complete: 'Done',
};

/**
 * What a card's accessible name adds about its agent ("claimed by agent a1, 12 minutes left, needs
 * input"): a focused card is read by its name alone, so the chips' text must be in it too.
 */
export function agentSummary(task: Pick<TaskView, 'claim' | 'session'>, left: number): string {
  const parts: string[] = [];
  if (task.claim && left > 0) parts.push(`claimed by agent ${task.claim.agent}, ${timeLeftWords(left)}`);
  else if (task.session) parts.push(`agent ${task.session.agent}${task.session.state === 'complete' ? ' done' : ''}`);
  const badge = sessionBadge(task.session);
  if (badge) parts.push(badge.text.toLowerCase());
  if (task.session?.stale) parts.push('agent session stale');
  return parts.join(', ');
}

/**
 * A session's link, when it is one a page may open: http or https only, so a `javascript:` or
 * `data:` URL an agent sent is shown as text and never followed.
 */
export function safeLink(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
