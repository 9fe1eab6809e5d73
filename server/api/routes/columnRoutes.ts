import {
  createColumn,
  deleteColumn,
  listColumns,
  reorderColumns,
  setMinimizedColumns,
  updateColumn,
} from '../../service/columns';
import { ValidationError } from '../../core/errors';
import { checkSlugId } from '../../service/validate';
import { defineRoutes, route, type QueryParam, type RequestContext } from '../route';
import { ColumnBody, ColumnIdsBody, ColumnUpdateBody } from '../../core/shapes/requests/boards';
import { columnIdListSchema, columnListSchema, columnViewSchema, deletedSchema } from '../responseSchemas';

const boardIdQuery: QueryParam = {
  name: 'boardId',
  type: 'string',
  description: 'board to act on; the default board when omitted',
};

/** Column routes act on `?boardId=` when given (the form reorder and minimized are called with), else the twin's board. */
function board(ctx: RequestContext): string {
  const fromQuery = ctx.query.boardId as string | undefined;
  if (fromQuery === undefined) return ctx.boardId;
  if (!ctx.ws.config.boards.some((b) => b.id === fromQuery))
    throw new ValidationError(`board "${fromQuery}" does not exist`);
  return fromQuery;
}

/** A malformed column id is a bad request (400), not a column that happens to be missing (404). */
function columnId(ctx: RequestContext): string {
  return checkSlugId(ctx.params.columnId, 'column id');
}

export const columnRoutes = defineRoutes([
  {
    method: 'get',
    path: '/columns',
    tag: 'Columns',
    summary: 'Ordered columns',
    twin: true,
    query: [boardIdQuery],
    unknownBoardStatus: 400,
    response: columnListSchema,
    handle: (ctx) => listColumns(ctx.ws, board(ctx)),
  },
  route({
    method: 'post',
    path: '/columns',
    tag: 'Columns',
    summary: 'Add a column at the end',
    twin: true,
    query: [boardIdQuery],
    body: ColumnBody,
    success: 201,
    response: columnViewSchema,
    handle: (ctx) => createColumn(ctx.ws, board(ctx), ctx.body),
  }),
  route({
    method: 'put',
    path: '/columns/reorder',
    tag: 'Columns',
    summary: 'Reorder columns',
    twin: true,
    query: [boardIdQuery],
    body: ColumnIdsBody,
    response: columnListSchema,
    handle: (ctx) => reorderColumns(ctx.ws, board(ctx), ctx.body.columnIds),
  }),
  route({
    method: 'put',
    path: '/columns/minimized',
    tag: 'Columns',
    summary: 'Set the minimized columns',
    twin: true,
    query: [boardIdQuery],
    body: ColumnIdsBody,
    response: columnIdListSchema,
    handle: (ctx) => setMinimizedColumns(ctx.ws, board(ctx), ctx.body.columnIds),
  }),
  route({
    method: 'put',
    path: '/columns/{columnId}',
    tag: 'Columns',
    summary: 'Rename or recolor a column',
    twin: true,
    query: [boardIdQuery],
    body: ColumnUpdateBody,
    errors: [404],
    response: columnViewSchema,
    handle: (ctx) => updateColumn(ctx.ws, board(ctx), columnId(ctx), ctx.body),
  }),
  {
    method: 'delete',
    path: '/columns/{columnId}',
    tag: 'Columns',
    summary: 'Delete an empty column',
    twin: true,
    query: [boardIdQuery],
    errors: [404],
    response: deletedSchema,
    handle: (ctx) => deleteColumn(ctx.ws, board(ctx), columnId(ctx)),
  },
]);
