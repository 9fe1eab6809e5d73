import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import cors from 'cors';
import type { Workspace } from '../service/workspace';
import { errorHandler, sendError } from './errors';
import { hostGuard } from './hostGuard';
import { DEFAULT_BODY_LIMIT, type RouteDef, type SerializedAnswer } from './route';
import { executeRoute } from './execute';
import { bearerCredential } from '../auth/gate';
import { authorizeBeforeBody, authorizedAs } from './authBeforeBody';
import { OriginPolicy, originGuard } from './originGuard';
import { allRoutes } from './routes';
import { staticUi } from './staticUi';
import { docsRouter } from './docs';
import { mountedPaths } from './openapi';
import { limitInBytes, multipartBody, uploadedFiles } from './multipart';
import { EXPOSED_HEADERS, encodingFor, pageHeaders } from './answerHeaders';

export interface AppOptions {
  /** Host names besides local ones that requests may address (the bound host, proxies). */
  allowedHosts?: string[];
  /** Web origins besides the server's own that may change the board (`--allow-origin`). */
  allowedOrigins?: string[];
  /** Folder of the built board UI; defaults to dist/webview of this package. */
  uiDir?: string;
  /**
   * The MCP endpoint, mounted at /mcp behind the same Host and Origin checks as /api. Given by the
   * host (server.ts) because the MCP server sits above this layer and is no route of the table.
   */
  mcp?: RequestHandler;
}

function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

function handlerFor(ws: Workspace, route: RouteDef) {
  return async (req: Request, res: Response) => {
    try {
      const call = {
        run: { signal: cancelledWhenClosed(res) },
        params: req.params as Record<string, string>,
        rawQuery: req.query as Record<string, unknown>,
        body: req.body,
        credential: bearerCredential(req.headers.authorization),
        ifMatch: req.headers['if-match'],
        agent: req.headers['x-kanban-agent'],
        auth: authorizedAs(res),
        files: uploadedFiles(res),
      };
      const outcome = await executeRoute(ws, route, call);
      if ('raw' in outcome) return await outcome.raw.send(res);
      if ('page' in outcome && outcome.page) res.set(pageHeaders(req.originalUrl, outcome.page));
      if ('serialized' in outcome) return await sendSerialized(req, res, outcome.serialized);
      if (outcome.etag) res.set('ETag', outcome.etag);
      if (outcome.warnings) res.set('Warning', outcome.warnings.map(warningHeaderValue));
      if (outcome.status === 204) res.status(204).end();
      else res.status(outcome.status).json({ ok: true, data: outcome.data });
    } catch (error) {
      sendError(res, error);
    }
  };
}

/**
 * A client that closes the request before its answer gave up on it: a long operation that checks
 * the signal (import, bulk edit, migration) stops and undoes its writes, as an MCP cancel does.
 */
function cancelledWhenClosed(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * RFC 7234 warn-code 299 ("miscellaneous persistent warning"), agent "-", and the text quoted. A
 * header carries only printable ASCII, so anything else in the text (a column name in another
 * script) becomes "?"; the full text is in the event and the UI.
 */
export function warningHeaderValue(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, (c) => `\\${c}`);
  return `299 - "${ascii}"`;
}

/**
 * A kept answer: its bytes (gzip-compressed when the client accepts it: a 10,000-card list is
 * 7 MB as JSON, under 1 MB compressed), or 304 when the client already holds them.
 */
async function sendSerialized(req: Request, res: Response, answer: SerializedAnswer): Promise<void> {
  const { gzip: compress, etag } = encodingFor(answer, req.headers['accept-encoding']);
  res.set('Content-Type', 'application/json; charset=utf-8');
  res.vary('Accept-Encoding');
  // Caches may keep it but must ask again each time (a 304 when unchanged): lists change often.
  res.set('Cache-Control', 'no-cache');
  res.set('ETag', etag);
  if (matchesEtag(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  if (!compress || !answer.gzipped) {
    res.status(200).send(answer.body);
    return;
  }
  const body = await answer.gzipped();
  res.set('Content-Encoding', 'gzip');
  res.status(200).send(body);
}

/**
 * If-None-Match as an origin server evaluates it (RFC 9110 13.1.2, weak comparison). Express's
 * req.fresh also gives up on `Cache-Control: no-cache`, which fetch() adds to every conditional
 * request; that directive is for caches on the way, not for the origin.
 */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export function createApp(ws: Workspace, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(hostGuard(options.allowedHosts ?? []));
  // Pages of a list announce their total and the next page in headers a foreign page must be let read.
  app.use(cors({ exposedHeaders: EXPOSED_HEADERS }));
  // After CORS, so a page that is refused can read why.
  app.use(originGuard(new OriginPolicy(options.allowedOrigins ?? [], ws)));
  if (options.mcp) app.use('/mcp', options.mcp);
  const api = express.Router();
  for (const route of allRoutes) {
    const authorizeFirst = authorizeBeforeBody(ws, route);
    const limit = route.bodyLimit ?? DEFAULT_BODY_LIMIT;
    // Parse any content type as JSON: `curl -d` sends form encoding by default.
    const parseJson = express.json({ limit, type: () => true });
    const jsonUnlessFiles = (req: Request, res: Response, next: NextFunction) =>
      uploadedFiles(res) ? next() : parseJson(req, res, next);
    const parseBody = route.multipart ? [multipartBody(limitInBytes(limit)), jsonUnlessFiles] : [parseJson];
    for (const path of mountedPaths(route))
      api[route.method](expressPath(path), authorizeFirst, ...parseBody, handlerFor(ws, route));
  }
  api.use(docsRouter(allRoutes));
  api.use((req: Request, res: Response) => {
    res.status(404).json({ ok: false, error: `no API route ${req.method} ${req.path}; see /api/docs` });
  });
  app.use('/api', api);
  app.use(staticUi(options.uiDir));
  app.use(errorHandler);
  return app;
}

export type { NextFunction };
