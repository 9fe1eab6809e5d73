import { checkAgentName } from '../../core/claims';
import { ValidationError } from '../../core/errors';
import { claimTask, releaseTask } from '../../service/claimActions';
import { pickTask } from '../../service/pick';
import { clearSession, reportProgress } from '../../service/sessions';
import { NO_CONTENT, defineRoutes, route, type RequestContext } from '../route';
import { ClaimBody, PickBody, SessionReportBody } from '../../core/shapes/requests/agents';
import { taskSchema } from '../responseSchemas';

/**
 * The agent a claim or pick is for: `agent` in the body, else the X-Kanban-Agent header. Both may be
 * sent, but must agree: a request that names two agents is a mistake, not a choice.
 */
function agentFor(ctx: RequestContext<{ agent?: string }>, forWhat = ''): string {
  const named = ctx.body.agent;
  if (named !== undefined) checkAgentName(named, 'agent');
  if (named !== undefined && ctx.agent !== null && named !== ctx.agent) {
    throw new ValidationError(
      `agent "${named}" in the body is not the agent of the X-Kanban-Agent header ("${ctx.agent}"); send one name`,
    );
  }
  const agent = named ?? ctx.agent;
  if (agent === null)
    throw new ValidationError(
      `${forWhat}name the agent: the X-Kanban-Agent header or agent in the body (kanban --agent <name>, or env KANBAN_AGENT)`,
    );
  return agent;
}

/** `board` in a pick body, which must agree with a board in the path. */
function pickBoard(ctx: RequestContext<PickBody>): string {
  const named = ctx.body.board;
  if (named === undefined) return ctx.boardId;
  if (ctx.params.boardId !== undefined && named !== ctx.params.boardId)
    throw new ValidationError(`board "${named}" in the body is not the board of the path ("${ctx.params.boardId}")`);
  if (!ctx.ws.config.boards.some((b) => b.id === named)) throw new ValidationError(`board "${named}" does not exist`);
  return named;
}

async function pick(ctx: RequestContext<PickBody>) {
  const { status, labels, assignee, priority, moveTo, ttlSeconds } = ctx.body;
  const picked = await pickTask(ctx.ws, pickBoard(ctx), {
    agent: agentFor(ctx),
    status,
    labels,
    assignee,
    priority,
    moveTo,
    ttlSeconds,
  });
  return picked ?? NO_CONTENT;
}

async function report(ctx: RequestContext<SessionReportBody>) {
  const { state, note, url, ttlSeconds } = ctx.body;
  const agent = agentFor(ctx, 'only an agent reports progress, and an agent must name itself; ');
  return reportProgress(ctx.ws, ctx.boardId, ctx.params.id, { agent, state, note, url, ttlSeconds }, ctx.actor);
}

export const claimRoutes = defineRoutes([
  route({
    method: 'post',
    path: '/tasks/pick',
    tag: 'Agents',
    twin: true,
    body: PickBody,
    errors: [409],
    warns: true,
    summary:
      'Claim the best ready card: not blocked, archived, deleted or claimed; priority, then due date, then board order (emits task.claimed)',
    noContent: 'nothing is pickable: no ready, unclaimed card matches',
    response: taskSchema,
    handle: pick,
  }),
  route({
    method: 'post',
    path: '/tasks/{id}/claim',
    tag: 'Agents',
    twin: true,
    body: ClaimBody,
    errors: [404, 409],
    summary: 'Claim a card for an agent, or renew its own claim (emits task.claimed); 409 while another agent holds it',
    response: taskSchema,
    handle: (ctx) => claimTask(ctx.ws, ctx.boardId, ctx.params.id, agentFor(ctx), ctx.body.ttlSeconds),
  }),
  {
    method: 'delete',
    path: '/tasks/{id}/claim',
    tag: 'Agents',
    twin: true,
    errors: [404, 409],
    query: [
      { name: 'force', type: 'boolean', description: "an agent releases another agent's claim (logged on the card)" },
    ],
    summary: "Release a card's claim (emits task.released): the holder or a person; another agent only with force=true",
    response: taskSchema,
    handle: (ctx) =>
      releaseTask(ctx.ws, ctx.boardId, ctx.params.id, {
        agent: ctx.agent,
        actor: ctx.actor,
        force: ctx.query.force === true,
      }),
  },
  route({
    method: 'put',
    path: '/tasks/{id}/session',
    tag: 'Agents',
    twin: true,
    body: SessionReportBody,
    errors: [404, 409],
    summary:
      'An agent reports its progress on a card (emits task.session): renews its claim, or releases it on complete; 409 while another agent holds it',
    response: taskSchema,
    handle: report,
  }),
  {
    method: 'delete',
    path: '/tasks/{id}/session',
    tag: 'Agents',
    twin: true,
    errors: [404, 409],
    summary: "Clear a card's agent session (emits task.session): a person, or the agent that reported it",
    response: taskSchema,
    handle: (ctx) => clearSession(ctx.ws, ctx.boardId, ctx.params.id, ctx.agent, ctx.actor),
  },
]);
