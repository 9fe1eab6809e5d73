import { boardContext } from '../../service/boardContext';
import { defineRoutes } from '../route';
import { boardContextResponseSchema } from '../responseSchemas';

export const contextRoutes = defineRoutes([
  {
    method: 'get',
    path: '/context',
    tag: 'Agents',
    twin: true,
    summary:
      'The board for an agent about to work: cards in progress (claims, sessions), awaiting input, blocked, and the next five pick would hand out',
    response: boardContextResponseSchema,
    handle: (ctx) => boardContext(ctx.ws, ctx.boardId),
  },
]);
