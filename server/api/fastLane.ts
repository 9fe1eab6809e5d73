import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Workspace } from '../service/workspace';
import { bearerCredential } from '../auth/gate';
import { executeRoute } from './execute';
import { isAllowedHost } from './hostGuard';
import { mountedPaths } from './openapi';
import type { RouteDef } from './route';
import { EXPOSED_HEADERS, encodingFor, pageHeaders } from './answerHeaders';
import { parse as parseQueryString } from 'node:querystring';
import type { SerializedAnswer } from './route';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Pattern {
  regex: RegExp;
  names: string[];
  route: RouteDef;
}

/** `/tasks/{id}` as a regular expression over the whole path, with its parameter names. */
function compile(route: RouteDef, openApiPath: string): Pattern {
  const names: string[] = [];
  const source = `/api${openApiPath}`
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { regex: new RegExp(`^${source}$`), names, route };
}

/** A plain GET: no body, no conditional header, which the Express path handles. */
function isPlainGet(req: IncomingMessage): boolean {
  if (req.method !== 'GET' || req.url === undefined) return false;
  const h = req.headers;
  return (
    h['content-length'] === undefined &&
    h['transfer-encoding'] === undefined &&
    h['if-none-match'] === undefined &&
    h['if-modified-since'] === undefined
  );
}

/**
 * The hottest reads (`GET /api/tasks/{id}` and the lists and searches of `GET /api/tasks`) served straight on `node:http`, without Express's
 * routing, middleware chain and response helpers, which cost several times the work of the answer
 * itself (the target: a get within 2x of a bare `node:http` server answering the same bytes). It
 * runs the same route through `executeRoute` (auth, board, handler, ETag), applies the same Host
 * check and CORS headers, and sends the same bytes. Anything unusual (a query, a body, a
 * conditional request, an error, a refused Host) goes to Express, which answers it as before.
 *
 * A route is matched against every GET route in the table's order, as Express matches them, so
 * a literal path such as `/tasks/active` still reaches its own route.
 */
export function fastLane(ws: Workspace, routes: RouteDef[], allowedHosts: string[], express: Handler): Handler {
  const patterns = routes
    .filter((route) => route.method === 'get')
    .flatMap((route) => mountedPaths(route).map((p) => compile(route, p)));
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req, res) => {
    if (!isPlainGet(req) || !isAllowedHost(req.headers.host, allowed)) return express(req, res);
    const cut = req.url!.indexOf('?');
    const url = cut < 0 ? req.url! : req.url!.slice(0, cut);
    let match: RegExpExecArray | null = null;
    let pattern: Pattern | undefined;
    for (const candidate of patterns) {
      match = candidate.regex.exec(url);
      if (match) {
        pattern = candidate;
        break;
      }
    }
    if (!pattern?.route.fastLane || !match) return express(req, res);
    const params: Record<string, string> = {};
    try {
      pattern.names.forEach((name, i) => (params[name] = decodeURIComponent(match![i + 1])));
    } catch {
      return express(req, res); // a malformed escape: Express names the problem
    }
    // An error or an unusual answer is made again by Express, in its usual shape (a GET changes nothing).
    // Parsed as Express's 'simple' query parser does (node:querystring), so validation sees the same.
    const rawQuery = cut < 0 ? {} : parseQueryString(req.url!.slice(cut + 1));
    answer(ws, pattern.route, params, rawQuery, req, res).catch(() => {
      if (!res.headersSent) express(req, res);
    });
  };
}

/** Only routes answered as kept bytes take this lane; anything else is made again by Express. */
async function answer(
  ws: Workspace,
  route: RouteDef,
  params: Record<string, string>,
  rawQuery: Record<string, unknown>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const outcome = await executeRoute(ws, route, {
    params,
    rawQuery,
    body: undefined,
    credential: bearerCredential(req.headers.authorization),
    agent: req.headers['x-kanban-agent'],
  });
  if (outcome.status !== 200 || !('serialized' in outcome)) throw new Error('not a kept answer');
  return sendSerialized(req, res, outcome.serialized);
}

function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(',') };
}

/** A kept list answer, with the headers and encoding Express's path gives it (api/app.ts). */
async function sendSerialized(req: IncomingMessage, res: ServerResponse, answer: SerializedAnswer): Promise<void> {
  const { gzip: compress, etag } = encodingFor(answer, req.headers['accept-encoding']);
  const body = compress ? await answer.gzipped!() : answer.body;
  const headers = corsHeaders();
  if (answer.page) Object.assign(headers, pageHeaders(req.url!, answer.page));
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers.Vary = 'Accept-Encoding';
  headers['Cache-Control'] = 'no-cache';
  headers.ETag = etag;
  if (compress) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers);
  res.end(body);
}
