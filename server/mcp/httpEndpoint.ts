import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { createMcpHandler, type AuthInfo, type McpRequestContext } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { authorizedAs, authorizeBeforeBody } from '../api/authBeforeBody';
import { Dispatcher } from '../api/dispatch';
import { sendErrorBeforeBody } from '../api/earlyRefusal';
import { limitInBytes } from '../api/multipart';
import { DEFAULT_BODY_LIMIT, type RouteDef } from '../api/route';
import { bearerCredential } from '../auth/gate';
import { CallerApiClient } from '../client/callerApiClient';
import { log } from '../core/log';
import type { Workspace } from '../service/workspace';
import { mcpHttpCaller, type McpHttpCaller } from './httpCaller';
import { buildMcpServer } from './mcpServer';
import { OwnWorkspaceOnly } from './workspaceArgument';
import { followResourceChanges } from './subscriptions';
import type { EventListener } from '../core/events';

/**
 * What /mcp asks of a caller before anything else: the right to read the board, as for any read of
 * /api. No route of the table (it is not in OpenAPI); it exists so the same gate decides 401/403.
 */
const MCP_ACCESS: RouteDef = {
  method: 'post',
  path: '/mcp',
  summary: 'The MCP endpoint',
  tag: 'MCP',
  role: 'viewer',
  handle: () => undefined,
};

/** The SDK hands the factory only what it was given as `authInfo`: the caller rides there. */
interface CallerAuthInfo extends AuthInfo {
  extra: { caller: McpHttpCaller };
}

const callerOf = (ctx: McpRequestContext): McpHttpCaller => (ctx.authInfo as CallerAuthInfo).extra.caller;

/**
 * MCP over Streamable HTTP at /mcp of the server (`kanban serve`, the VS Code extension's API
 * server): the SDK's entry point answers 2026-07-28 (stateless, `server/discover`) and 2025-11-25
 * (`initialize`), with a fresh server instance per request over the server's own workspace. Each
 * instance's tools call the route table in-process with the caller's token, so auth, roles, claims
 * and events are those of /api. Host and Origin are checked by the app before this runs.
 */
export function mcpHttpEndpoint(ws: Workspace): RequestHandler {
  const dispatcher = new Dispatcher(ws);
  const ownWorkspace = new OwnWorkspaceOnly(ws.root);
  const report = (line: string) => log.warn(`kanban mcp: ${line}`);
  const handler = createMcpHandler(
    (ctx) => {
      const { token, ...selection } = callerOf(ctx);
      const server = buildMcpServer({
        client: new CallerApiClient(ws, dispatcher, token),
        log: report,
        workspaces: ownWorkspace,
        ...selection,
      });
      // A 2025-11-25 request is served statelessly, so only 2026-07-28 clients can follow resources here.
      if (ctx.era === 'modern') server.registerCapabilities({ resources: { subscribe: true } });
      return server;
    },
    { onerror: (error) => report(error.message), maxRequestBodySize: limitInBytes(DEFAULT_BODY_LIMIT) },
  );
  // One feed per process: per-request instances cannot hold a subscription, the handler's
  // `subscriptions/listen` streams (2026-07-28) can. Every change of a card or board is published;
  // the handler passes on those a stream asked for. It lives as long as the workspace.
  const events = { target: ws.root, listenEvents: async (listener: EventListener) => ws.live.on(listener) };
  followResourceChanges(
    events,
    (uri) => handler.notify.resourceUpdated(uri),
    report,
    async () => ws.config.boards.map((b) => b.id),
  ).catch((error: Error) => report(`cannot follow the board's changes: ${error.message}`));
  const serve = toNodeHandler(handler, {
    onerror: (error) => report(error.message),
    maxRequestBodySize: limitInBytes(DEFAULT_BODY_LIMIT),
  });

  // Who calls, and which tools, are decided from the headers and the query: a refused caller's body is never read.
  const decideCaller = (req: Request, res: Response, next: NextFunction) => {
    try {
      const token = bearerCredential(req.headers.authorization)?.token;
      const caller = mcpHttpCaller(req, authorizedAs(res), token);
      const authInfo: CallerAuthInfo = {
        token: token ?? '',
        clientId: 'kanban-mcp-http',
        scopes: [],
        extra: { caller },
      };
      (req as Request & { auth?: AuthInfo }).auth = authInfo;
      next();
    } catch (error) {
      sendErrorBeforeBody(res, error);
    }
  };
  // The /api limit, answered with /api's 413; other media types go to the SDK unread, which refuses them (415).
  const parseJson = express.json({ limit: DEFAULT_BODY_LIMIT });
  const router = express.Router();
  router.all(
    '/',
    authorizeBeforeBody(ws, MCP_ACCESS),
    decideCaller,
    parseJson,
    (req: Request, res: Response) => void serve(req, res, req.body),
  );
  return router;
}
