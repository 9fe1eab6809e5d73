import { NotFoundError, ValidationError } from '../core/errors';
import { isValidSlugId } from '../core/ids';
import type { Workspace } from '../service/workspace';
import { RawResponse, SerializedAnswer, type RequestContext, type RouteDef } from './route';
import { parseMetaQuery, parseQuery, validateBody } from './validation';
import { authorize, type RequestAuth } from '../auth/gate';
import { currentIdentityProvider } from '../auth/currentProvider';
import type { Credential } from '../auth/identity';

/** One call of a route, however it arrived (HTTP or the webview bridge). */
export interface RouteCall {
  params: Record<string, string>;
  rawQuery: Record<string, unknown>;
  body: unknown;
  /** The bearer credential the request carried, if any. */
  credential: Credential | null;
  /** Who the caller is, when the host already decided it (HTTP does, before reading the body). */
  auth?: RequestAuth;
}

export type RouteOutcome = { status: number; data: unknown } | { status: number; raw: RawResponse } | { status: number; serialized: SerializedAnswer };

function resolveBoard(ws: Workspace, route: RouteDef, params: Record<string, string>): string {
  const boardId = params.boardId;
  if (boardId === undefined) return ws.defaultBoardId;
  if (!isValidSlugId(boardId)) throw new ValidationError(`board id "${boardId}" is invalid: use a-z, 0-9, '-' or '_'`);
  if (!ws.config.boards.some((b) => b.id === boardId)) {
    const message = `board "${boardId}" does not exist`;
    throw route.unknownBoardStatus === 400 ? new ValidationError(message) : new NotFoundError(message);
  }
  return boardId;
}

/** Validate a call against its route's schemas and run the handler. Throws typed errors. */
export async function executeRoute(ws: Workspace, route: RouteDef, call: RouteCall): Promise<RouteOutcome> {
  // Who is calling comes first: an unauthenticated caller learns nothing from validation messages.
  const auth = call.auth ?? (await authorize(currentIdentityProvider(ws), route, call.credential, ws.authHealth));
  if (route.body) validateBody(route.body, call.body ?? {});
  const ctx: RequestContext = {
    ws,
    params: call.params,
    query: parseQuery(route.query, call.rawQuery),
    metaQuery: route.metaQuery ? parseMetaQuery(call.rawQuery) : [],
    body: call.body ?? {},
    boardId: resolveBoard(ws, route, call.params),
    actor: auth.identity?.subject ?? 'anonymous',
    auth,
  };
  const result = await route.handle(ctx);
  if (result instanceof RawResponse) return { status: 200, raw: result };
  if (result instanceof SerializedAnswer) return { status: 200, serialized: result };
  return { status: route.success ?? 200, data: result === undefined ? null : result };
}
