import { ValidationError } from '../core/errors';
import { filterAsQuery } from '../core/savedViews';
import { findView } from '../service/savedViews';
import type { QueryParam, RequestContext } from './route';
import { parseMetaQuery, parseQuery } from './validation';

/**
 * `view=<id>` on the list route: the view's filter and sort, under the request's own parameters
 * (a parameter given in the request wins over the view's). Over the unscoped `/tasks` the view's
 * board is listed, so `kanban list --view x` works without naming the board; a board named in the
 * path must be the view's.
 */
export function withSavedView(ctx: RequestContext, listParams: QueryParam[]): RequestContext {
  const id = ctx.query.view as string | undefined;
  if (id === undefined) return ctx;
  if (!ctx.ws.config.views.some((v) => v.id === id))
    throw new ValidationError(`view "${id}" does not exist; GET /api/views lists them`);
  const view = findView(ctx.ws, id);
  if (view.board !== ctx.boardId && ctx.params.boardId !== undefined) {
    throw new ValidationError(
      `view "${id}" shows board "${view.board}", not "${ctx.boardId}"; use /api/boards/${view.board}/tasks?view=${id}`,
    );
  }
  const raw = { ...filterAsQuery(view.filter), ...(view.sort ? { sort: view.sort } : {}) };
  let fromView: Record<string, unknown>;
  try {
    fromView = parseQuery(listParams, raw, true);
  } catch (error) {
    // Only a hand edit of .kanban.json gets here: the API checks a filter when it is saved.
    if (error instanceof ValidationError) throw new ValidationError(`view "${id}" in .kanban.json: ${error.message}`);
    throw error;
  }
  const given = new Set(ctx.metaQuery.map((m) => m.field));
  const metaFromView = parseMetaQuery(raw).filter((m) => !given.has(m.field));
  return {
    ...ctx,
    boardId: view.board,
    query: { ...fromView, ...ctx.query },
    metaQuery: [...metaFromView, ...ctx.metaQuery],
  };
}
