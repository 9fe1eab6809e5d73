import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Workspace } from '../service/workspace';
import { bearerCredential } from '../auth/gate';
import { executeRoute } from './execute';
import { isAllowedHost } from './hostGuard';
import { mountedPaths } from './openapi';
import type { RouteDef } from './route';
import { EXPOSED_HEADERS } from './app';

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

/** A plain GET: no query, no body, no conditional header, which the Express path handles. */
function isPlainGet(req: IncomingMessage): boolean {
  if (req.method !== 'GET' || req.url === undefined || req.url.includes('?')) return false;
  const h = req.headers;
  return h['content-length'] === undefined && h['transfer-encoding'] === undefined && h['if-none-match'] === undefined && h['if-modified-since'] === undefined;
}

/**
 * The hottest read (`GET /api/tasks/{id}`) served straight on `node:http`, without Express's
 * routing, middleware chain and response helpers, which cost several times the work of the answer
 * itself (issue 17: a get within 2x of a bare `node:http` server answering the same bytes). It
 * runs the same route through `executeRoute` (auth, board, handler, ETag), applies the same Host
 * check and CORS headers, and sends the same bytes. Anything unusual (a query, a body, a
 * conditional request, an error, a refused Host) goes to Express, which answers it as before.
 *
 * A route is matched against every GET route in the table's order, as Express matches them, so
 * a literal path such as `/tasks/active` still reaches its own route.
 */
export function fastLane(ws: Workspace, routes: RouteDef[], allowedHosts: string[], express: Handler): Handler {
  const patterns = routes.filter((route) => route.method === 'get').flatMap((route) => mountedPaths(route).map((p) => compile(route, p)));
  const allowed = new Set(allowedHosts.map((h) => h.toLowerCase()));
  return (req, res) => {
    if (!isPlainGet(req) || !isAllowedHost(req.headers.host, allowed)) return express(req, res);
    const url = req.url!;
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
    answer(ws, pattern.route, params, req, res).catch(() => {
      if (!res.headersSent) express(req, res);
    });
  };
}

async function answer(ws: Workspace, route: RouteDef, params: Record<string, string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const outcome = await executeRoute(ws, route, { params, rawQuery: {}, body: undefined, credential: bearerCredential(req.headers.authorization) });
  if (!('data' in outcome) || outcome.status !== 200 || outcome.warnings) throw new Error('not a plain answer');
  const body = Buffer.from(JSON.stringify({ ok: true, data: outcome.data }));
  // The headers Express would send, in its order.
  const headers: Record<string, string> = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(',') };
  if (outcome.etag) headers.ETag = outcome.etag;
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = String(body.length);
  res.writeHead(200, headers);
  res.end(body);
}
