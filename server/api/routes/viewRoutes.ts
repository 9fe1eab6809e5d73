import { ValidationError } from '../../core/errors';
import { NOT_FILTER_KEYS, VIEW_LAYOUTS, filterAsQuery, type SavedView } from '../../core/savedViews';
import { createView, deleteView, findView, listViews, updateView } from '../../service/savedViews';
import { defineRoutes, route, type QueryParam } from '../route';
import { viewBodies } from '../../core/shapes/requests/views';
import { parseQuery } from '../validation';
import { listQuery } from './taskRoutes';
import { fields, list, named, nullable, text } from '../schemaParts';

/** The list route's filters, which are what a view's `filter` may hold (plus `meta.<path>`). */
const filterParams: QueryParam[] = listQuery.filter((p) => !NOT_FILTER_KEYS.includes(p.name));

/**
 * A filter is checked by the list route's own parser, so a view can never hold what a list
 * request would refuse; unknown keys are named all at once so one answer fixes them all.
 */
export function checkViewFilter(filter: SavedView['filter'] | undefined): void {
  if (filter === undefined) return;
  const known = new Set(filterParams.map((p) => p.name));
  const unknown = Object.keys(filter).filter((key) => !known.has(key) && !key.startsWith('meta.'));
  if (unknown.length) {
    throw new ValidationError(
      `body.filter has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; a filter takes the list route's parameters: ${[...known].join(', ')}, meta.<field>`,
    );
  }
  try {
    parseQuery(filterParams, filterAsQuery(filter), true);
  } catch (error) {
    if (error instanceof ValidationError)
      throw new ValidationError(`body.filter: ${error.message.replace(/^query parameter /, '')}`);
    throw error;
  }
}

const viewBody = viewBodies(filterParams.map((p) => p.name));

const savedViewSchema = named(
  'SavedView',
  fields(
    {
      id: text('view id'),
      name: text('display name'),
      board: text('board id'),
      layout: { type: 'string', enum: [...VIEW_LAYOUTS], description: 'board, table or graph' },
      filter: { type: 'object', additionalProperties: true, description: 'list-route query parameters' },
      sort: text('list-route sort value; "" for the board order'),
      groupBy: nullable('string', 'lane grouping, or null'),
    },
    'a saved view, shared through .kanban.json',
  ),
);

const boardQuery: QueryParam = { name: 'board', type: 'string', description: 'only the views of this board' };

/** Saved views live in `.kanban.json` like labels and columns: writes need the admin role once auth is on. */
export const viewRoutes = defineRoutes([
  {
    method: 'get',
    path: '/views',
    tag: 'Views',
    summary: 'Saved views, of every board or of one',
    query: [boardQuery],
    errors: [404],
    response: list(savedViewSchema),
    handle: ({ ws, query }) => listViews(ws, query.board as string | undefined),
  },
  route({
    method: 'post',
    path: '/views',
    tag: 'Views',
    summary: 'Save a view (name, board, layout, filter, sort, groupBy)',
    body: viewBody.create,
    success: 201,
    errors: [409],
    response: savedViewSchema,
    handle: ({ ws, body }) => {
      checkViewFilter(body.filter);
      return createView(ws, body);
    },
  }),
  {
    method: 'get',
    path: '/views/{id}',
    tag: 'Views',
    summary: 'One saved view',
    errors: [404],
    response: savedViewSchema,
    handle: ({ ws, params }) => findView(ws, params.id),
  },
  route({
    method: 'put',
    path: '/views/{id}',
    tag: 'Views',
    summary: 'Change a view (omitted fields unchanged)',
    body: viewBody.update,
    errors: [404, 409],
    response: savedViewSchema,
    handle: ({ ws, params, body }) => {
      checkViewFilter(body.filter);
      return updateView(ws, params.id, body);
    },
  }),
  {
    method: 'delete',
    path: '/views/{id}',
    tag: 'Views',
    summary: 'Delete a view',
    errors: [404, 409],
    response: savedViewSchema,
    handle: ({ ws, params }) => deleteView(ws, params.id),
  },
]);
