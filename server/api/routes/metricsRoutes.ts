import { boardMetricsAnswer } from '../../service/metrics';
import { checkSlugId } from '../../service/validate';
import { defineRoutes, SerializedAnswer, type RequestContext } from '../route';
import { flowMetricsResponseSchema } from '../responseSchemas';

/** `/boards/{boardId}/metrics` names its board in the path; `/metrics` may name it with `?board=`. */
function boardOf({ ws, params, query, boardId }: RequestContext): string {
  if (params.boardId !== undefined || query.board === undefined) return boardId;
  return ws.board(checkSlugId(query.board as string, 'board')).id;
}

export const metricsRoutes = defineRoutes([
  {
    method: 'get',
    path: '/metrics',
    tag: 'Boards',
    twin: true,
    summary:
      'Flow metrics over a date range: cycle and lead time per card and as p50/p85/p95, weekly throughput, WIP age per column, daily cumulative flow; durations in ms',
    query: [
      {
        name: 'board',
        type: 'string',
        description: 'board id (default: the default board); a board named in the path wins',
      },
      {
        name: 'from',
        type: 'string',
        description: 'start of the range: ISO 8601 date (its first ms) or time; default 90 days back',
      },
      {
        name: 'to',
        type: 'string',
        description: 'end of the range: ISO 8601 date (its last ms) or time; default: the end of today',
      },
    ],
    errors: [404],
    response: flowMetricsResponseSchema,
    handle: (ctx) => metricsAnswer(ctx),
  },
]);

function metricsAnswer(ctx: RequestContext): SerializedAnswer {
  const board = boardOf(ctx);
  const range = { from: ctx.query.from as string | undefined, to: ctx.query.to as string | undefined };
  const answer = boardMetricsAnswer(ctx.ws, board, range);
  const data = () => (JSON.parse(answer.body.toString('utf8')) as { data: unknown }).data;
  return new SerializedAnswer(answer.body, answer.etag, data, answer.gzipped);
}
