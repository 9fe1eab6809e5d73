import type { JsonSchema } from '../api/route';
import { ClaimBody, PickBody, SessionReportBody } from '../core/shapes/requests/agents';
import { taskSchema } from '../api/responseSchemas';
import { summaryOf, withoutEmpty } from './cardText';
import { brief, ID, input, tool } from './everydayTools';
import { boardContext } from './boardContextText';
import { BOARD_CONTEXT, CARD_SUMMARY, outline, PICKED_CARD } from './outputSchemas';
import { titleOf } from './toolNames';
import { annotationsOf, BOARD_ARG } from './routeTools';
import { callApi, enc, onBoard, structuredResult, type ToolDef } from './tool';

/**
 * Agents at work: pick the next card, claim one, let it go. The agent is `agent` in the arguments,
 * else the MCP server's own (`kanban mcp --agent`, env KANBAN_AGENT), which every call sends, so
 * another agent's claim also refuses this agent's changes to that card.
 */

type Args = Record<string, unknown>;

const pickFields = PickBody.properties as Record<string, JsonSchema>;
const claimFields = ClaimBody.properties as Record<string, JsonSchema>;
/** Your agent name; the server instructions say its default (`--agent`, else the client's name and a connection suffix). */
const AGENT: JsonSchema = brief(pickFields.agent);
/** Shorter words for the REST fields, for every `tools/list` (the enums and bounds still validate). */
const PICK_TEXT: Record<string, string | undefined> = {
  board: undefined,
  status: "column to pick from; default: the board's pickFrom",
  labels: 'cards with all of these',
  assignee: undefined,
  priority: undefined,
  moveTo: 'column to move it to',
  ttlSeconds: 'lease, default 900',
};
const pickInput = Object.fromEntries(
  Object.entries(pickFields)
    .filter(([name]) => name !== 'agent')
    .map(([name, schema]) => [name, brief(schema, PICK_TEXT[name])]),
);

/** `agent` of the arguments as the call's X-Kanban-Agent (over the server's own), never beside it in a body. */
const asAgent = (args: Args) => (typeof args.agent === 'string' ? { agent: args.agent } : {});

const reportFields = SessionReportBody.properties as Record<string, JsonSchema>;
const cardFields = taskSchema.properties as Record<string, JsonSchema>;

/** What report_progress answers, as structured output: the card, its claim and its session. */
const REPORT_OUTPUT = outline(
  {
    type: 'object',
    properties: { id: cardFields.id, title: cardFields.title, status: cardFields.status, session: cardFields.session },
    required: ['id', 'title', 'status', 'session'],
  },
  1,
);

function reportProgressTool(): ToolDef {
  return {
    name: 'report_progress',
    title: titleOf('report_progress'),
    description: 'Say where you are on a card (renews your claim)',
    routes: ['put /tasks/{id}/session'],
    inputSchema: input(
      {
        id: ID,
        state: brief(reportFields.state, 'complete releases the claim'),
        note: brief(reportFields.note, 'what you do or need'),
        url: brief(reportFields.url, 'a PR, a CI run'),
        agent: AGENT,
        board: BOARD_ARG,
      },
      ['id', 'state'],
    ),
    outputSchema: REPORT_OUTPUT,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    async run({ client }, args) {
      const { id, board, agent: _agent, ...body } = args;
      const { data } = await callApi(client, {
        method: 'put',
        path: `${onBoard(board, '/tasks')}/${enc(id)}/session`,
        body,
        ...asAgent(args),
      });
      const card = data as Args;
      const out = {
        id: card.id,
        boardId: card.boardId,
        title: card.title,
        status: card.status,
        claim: card.claim,
        session: card.session,
      };
      return structuredResult(out, out);
    },
  };
}

/**
 * The context as Markdown text, not the route's JSON: the agent reads it once per task, and the text
 * is a fraction of the size. The JSON is the structured content, for clients that read that instead.
 */
function boardContextTool(): ToolDef {
  return {
    name: 'get_board_context',
    title: 'Board context',
    outputSchema: BOARD_CONTEXT,
    description: 'The board now: in progress, awaiting input, blocked, next to pick',
    routes: ['get /context'],
    inputSchema: input({ board: BOARD_ARG }),
    annotations: annotationsOf('get', '/context'),
    run: async ({ client }, args) => {
      const { data, text } = await boardContext(client, args.board);
      return structuredResult(text, data as unknown as Record<string, unknown>);
    },
  };
}

/** The card with its claim, and its text: the agent starts work on it next. */
const claimed = (card: unknown) =>
  withoutEmpty({ ...summaryOf(card as Args, ['boardId']), content: (card as Args).content });

export function agentTools(): ToolDef[] {
  return [
    tool(
      'pick_card',
      'Claim the best ready card and answer it (picked: null if none)',
      ['post /tasks/pick'],
      input({ ...pickInput, agent: AGENT }),
      { schema: PICKED_CARD },
      async ({ client }, args) => {
        const { agent: _agent, ...body } = args;
        const { data } = await callApi(client, { method: 'post', path: '/tasks/pick', body, ...asAgent(args) });
        return data === null ? { picked: null, reason: 'no ready, unclaimed card matches' } : { picked: claimed(data) };
      },
    ),
    tool(
      'claim_card',
      'Claim a card or renew your claim; refused while another agent holds it',
      ['post /tasks/{id}/claim'],
      input(
        { id: ID, agent: AGENT, ttlSeconds: brief(claimFields.ttlSeconds, 'lease, default 900'), board: BOARD_ARG },
        ['id'],
      ),
      { schema: CARD_SUMMARY },
      async ({ client }, args) => {
        const body = args.ttlSeconds === undefined ? {} : { ttlSeconds: args.ttlSeconds };
        return claimed(
          (
            await callApi(client, {
              method: 'post',
              path: `${onBoard(args.board, '/tasks')}/${enc(args.id)}/claim`,
              body,
              ...asAgent(args),
            })
          ).data,
        );
      },
    ),
    tool(
      'release_card',
      "Release your claim on a card; force releases another agent's",
      ['delete /tasks/{id}/claim'],
      input({ id: ID, agent: AGENT, force: { type: 'boolean' }, board: BOARD_ARG }, ['id']),
      { schema: CARD_SUMMARY },
      async ({ client }, args) => {
        const path = `${onBoard(args.board, '/tasks')}/${enc(args.id)}/claim${args.force === true ? '?force=true' : ''}`;
        return summaryOf((await callApi(client, { method: 'delete', path, ...asAgent(args) })).data as Args, [
          'boardId',
        ]);
      },
    ),
    reportProgressTool(),
    boardContextTool(),
  ];
}
