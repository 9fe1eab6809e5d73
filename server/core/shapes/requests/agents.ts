import { Type, type Static } from '@sinclair/typebox';
import { PRIORITIES, SESSION_STATES } from '../vocabulary';
import { AGENT_NAME_RULE, DEFAULT_CLAIM_SECONDS, MAX_CLAIM_SECONDS } from '../../claims';
import { choice, closed, text, textList } from '../parts';

/** Request bodies of the agent routes: claim a card, report a session, pick the next card. */

const agent = () => text(`the agent: ${AGENT_NAME_RULE}; else the X-Kanban-Agent header (if both, they must agree)`);

const ttlSeconds = (
  description = `length of the lease in seconds, default ${DEFAULT_CLAIM_SECONDS} (at most ${MAX_CLAIM_SECONDS}, a day)`,
) => Type.Integer({ minimum: 1, maximum: MAX_CLAIM_SECONDS, description });

export const ClaimBody = closed({ agent: Type.Optional(agent()), ttlSeconds: Type.Optional(ttlSeconds()) });
export type ClaimBody = Static<typeof ClaimBody>;

export const SessionReportBody = closed({
  agent: Type.Optional(agent()),
  state: choice(SESSION_STATES, `where the agent is: ${SESSION_STATES.join(', ')} (complete releases the claim)`),
  note: Type.Optional(text('a line on what the agent is doing or needs (logged on the card with a change of state)')),
  url: Type.Optional(text('a link to follow the work: a pull request, a CI run, a log')),
  ttlSeconds: Type.Optional(
    ttlSeconds(`the lease to renew the claim for; default: the running claim's, else ${DEFAULT_CLAIM_SECONDS}`),
  ),
});
export type SessionReportBody = Static<typeof SessionReportBody>;

export const PickBody = closed({
  agent: Type.Optional(agent()),
  board: Type.Optional(text("board to pick from (default: the path's board, else the default board)")),
  status: Type.Optional(
    text("pick only from this column (default: the board's pickFrom, else every column before its start column)"),
  ),
  labels: Type.Optional(textList('only cards carrying every one of these labels')),
  assignee: Type.Optional(text('only cards assigned to this name (case-insensitive)')),
  priority: Type.Optional(choice(PRIORITIES, 'only cards of this priority')),
  moveTo: Type.Optional(
    text(
      'move the picked card to this column (events and WIP limits as any move); a refused move gives the claim back',
    ),
  ),
  ttlSeconds: Type.Optional(ttlSeconds()),
});
export type PickBody = Static<typeof PickBody>;
