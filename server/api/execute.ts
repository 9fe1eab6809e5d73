import { NotFoundError, ValidationError } from '../core/errors';
import { isValidSlugId } from '../core/ids';
import type { Workspace } from '../service/workspace';
import { NO_CONTENT, RawResponse, SerializedAnswer, type RequestContext, type RouteDef } from './route';
import { checkAgentName } from '../core/claims';
import { runAsAgent } from '../service/requestAgent';
import { parseMetaQuery, parseQuery, validateBody } from './validation';
import { checkIfMatch } from './versions';
import { catchUpWithPeers } from '../service/globalEvents';
import { authorize, type RequestAuth } from '../auth/gate';
import { currentIdentityProvider } from '../service/currentIdentity';
import type { Credential } from '../auth/identity';
import type { PageInfo } from '../core/listPaging';
import type { UploadedFile } from '../service/attachments';
import { collectWarnings } from '../service/warnings';
import { StaleRowError } from '../storage/cardStore';
import type { RunControl } from '../core/progress';

/** One call of a route, however it arrived (HTTP or the webview bridge). */
export interface RouteCall {
  params: Record<string, string>;
  rawQuery: Record<string, unknown>;
  body: unknown;
  /** The bearer credential the request carried, if any. */
  credential: Credential | null;
  /** The `If-Match` header: the change applies only while the resource still has this ETag. */
  ifMatch?: string;
  /** Who the caller is, when the host already decided it (HTTP does, before reading the body). */
  auth?: RequestAuth;
  /** The files of a multipart/form-data body (routes with `multipart`), instead of a JSON body. */
  files?: UploadedFile[];
  /** The `X-Kanban-Agent` header: the caller is this agent, not a person. */
  agent?: string | string[];
  /** Follow and cancel a long operation (import, bulk edit, migration); see core/progress.ts. */
  run?: RunControl;
}

export type RouteOutcome =
  /** `warnings`: what the change did that the caller should hear about (HTTP: `Warning` headers). */
  | { status: number; data: unknown; etag?: string; warnings?: string[] }
  | { status: number; raw: RawResponse }
  /** `page`: for a list, the total and the next cursor, which HTTP sends as headers. */
  | { status: number; serialized: SerializedAnswer; page?: PageInfo };

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
  const agent = agentOf(call.agent);
  if (route.body && !(route.multipart && call.files)) validateBody(route.body, call.body ?? {});
  const ctx: RequestContext = {
    ws,
    params: call.params,
    query: parseQuery(route.query, call.rawQuery, route.metaQuery === true),
    metaQuery: route.metaQuery ? parseMetaQuery(call.rawQuery) : [],
    body: call.body ?? {},
    files: route.multipart ? call.files : undefined,
    boardId: resolveBoard(ws, route, call.params),
    actor: auth.identity?.subject ?? 'anonymous',
    auth,
    agent,
    run: call.run ?? {},
  };
  // A read changes nothing, so it raises no warnings: it skips collecting them (an async context per
  // request), and needs no agent for the claim guard either.
  const { value: result, warnings } =
    route.method === 'get'
      ? { value: await route.handle(ctx), warnings: [] }
      : await collectWarnings(() => runAsAgent(agent, () => handleWithPrecondition(ws, route, ctx, call.ifMatch)));
  if (result === NO_CONTENT) return { status: 204, data: null };
  if (result instanceof RawResponse) return { status: 200, raw: result };
  if (result instanceof SerializedAnswer)
    return { status: 200, serialized: result, ...(result.page ? { page: result.page } : {}) };
  return {
    status: route.success ?? 200,
    data: result === undefined ? null : result,
    etag: currentVersion(route, ctx),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The agent a call names; a header repeated (or joined by a proxy) is no valid name either. */
function agentOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  return checkAgentName(Array.isArray(header) ? header.join(', ') : header, 'X-Kanban-Agent');
}

/** Run the handler (see handleChecked), again when another instance won a race for the same card row. */
async function handleWithPrecondition(
  ws: Workspace,
  route: RouteDef,
  ctx: RequestContext,
  ifMatch: string | undefined,
): Promise<unknown> {
  // Uploads are consumed by the first try, so they are not tried again.
  if (route.method === 'get' || route.multipart) return handleChecked(ws, route, ctx, ifMatch);
  for (let attempt = 1; ; attempt++) {
    try {
      return await handleChecked(ws, route, ctx, ifMatch);
    } catch (error) {
      // Another instance wrote the card first and the index now holds its version: apply the
      // change again on top (with If-Match, the check now answers 412), as for shared config.
      if (!(error instanceof StaleRowError) || attempt >= PEER_CONFLICT_ATTEMPTS) throw error;
      await afterLostRound(attempt);
    }
  }
}

/**
 * Instances racing on one card: each lost round means another one's change went through, so the
 * rounds are bounded by the writes queued elsewhere, not by luck. Ten comments queued on each of two
 * processes once lost eight rounds in a row on a busy machine (a 409 for an append that commutes),
 * hence more rounds than a burst of writes is long.
 */
const PEER_CONFLICT_ATTEMPTS = 32;

/**
 * A random pause, growing with the lost rounds (at most 64 ms), so two instances that retry in
 * lockstep stop colliding and the loser gets its turn.
 */
function afterLostRound(attempt: number): Promise<void> {
  const ceilingMs = 2 ** Math.min(attempt, 6);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceilingMs));
}

/**
 * Run the handler; with `If-Match` on a change, only while the resource still has that version.
 * The check and the change run as one mutation, so no other write can slip in between.
 */
async function handleChecked(
  ws: Workspace,
  route: RouteDef,
  ctx: RequestContext,
  ifMatch: string | undefined,
): Promise<unknown> {
  const version = route.version;
  if (!version || ifMatch === undefined || route.method === 'get') return route.handle(ctx);
  // Over a shared database the version may have changed on another instance since the last poll.
  await catchUpWithPeers(ws);
  return ws.mutate(async () => {
    checkIfMatch(ifMatch, version(ctx), route.tag === 'Tasks' ? `card "${ctx.params.id}"` : route.tag.toLowerCase());
    return route.handle(ctx);
  });
}

/** The resource's version after the call, for the answer's ETag; none once it is gone. */
function currentVersion(route: RouteDef, ctx: RequestContext): string | undefined {
  try {
    return route.version?.(ctx);
  } catch {
    return undefined;
  }
}
