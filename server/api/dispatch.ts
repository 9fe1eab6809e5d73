import { parse as parseQueryString } from 'node:querystring';
import type { Workspace } from '../service/workspace';
import type { PageInfo } from '../core/listPaging';
import type { RunControl } from '../core/progress';
import { describeError } from './errors';
import { executeRoute } from './execute';
import { mountedPaths } from './openapi';
import type { Method, RouteDef } from './route';
import { allRoutes } from './routes';

export interface DispatchRequest {
  method: string;
  /** Path under /api with an optional query string, e.g. `/boards/default/tasks?q=bug`. */
  path: string;
  body?: unknown;
  /** A token the host holds for this user (VS Code SecretStorage); needed only when auth is on. */
  token?: string;
  /** As the HTTP `If-Match` header: change only the version the client last read (else 412). */
  ifMatch?: string;
  /** As the HTTP `X-Kanban-Agent` header: the caller is this agent (claims, pick), not a person. */
  agent?: string;
  /** Follow and cancel a long operation in this process (see core/progress.ts). */
  run?: RunControl;
  /**
   * The caller carries the answer on as bytes (the webview bridge): an answer the route already
   * holds as JSON bytes (a card list) comes back as those bytes in `json`, not as objects built again.
   */
  asJson?: boolean;
}

export interface DispatchResponse {
  status: number;
  /** The envelope, exactly as HTTP would send it; for a file, data is `{name, contentType, base64}`. */
  body: { ok: true; data: unknown } | { ok: false; error: string } | null;
  /** Only with `asJson`, for an answer held as bytes: the whole envelope as UTF-8 JSON (`body` is null). */
  json?: Uint8Array;
  /** As the HTTP `ETag` header, for routes that name one resource. */
  etag?: string;
  /** For lists: how many cards match, and the cursor of the next page (HTTP: X-Total-Count and Link). */
  page?: PageInfo;
  /** As the HTTP `Warning` headers: the change went ahead, but the caller should hear this (a column over its WIP limit). */
  warnings?: string[];
}

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  names: string[];
}

function compile(routes: RouteDef[]): CompiledRoute[] {
  return routes.flatMap((route) =>
    mountedPaths(route).map((path) => {
      const names: string[] = [];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      return { route, pattern: new RegExp(`^${source}/?$`), names };
    }),
  );
}

/**
 * The route table without HTTP: the VS Code webview sends requests over postMessage and the
 * extension host answers them here, with the same validation, handlers and envelope as Express.
 */
export class Dispatcher {
  private compiled = compile(allRoutes);

  constructor(private readonly ws: Workspace) {}

  async dispatch(request: DispatchRequest): Promise<DispatchResponse> {
    const [pathname, queryString = ''] = request.path.split('?', 2);
    const method = request.method.toLowerCase() as Method;
    try {
      for (const { route, pattern, names } of this.compiled) {
        if (route.method !== method) continue;
        const match = pattern.exec(pathname);
        if (!match) continue;
        const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
        const outcome = await executeRoute(this.ws, route, {
          params,
          rawQuery: parseQueryString(queryString),
          body: request.body,
          credential: request.token ? { token: request.token, source: 'header' as const } : null,
          ifMatch: request.ifMatch,
          agent: request.agent,
          run: request.run,
        });
        if ('raw' in outcome) {
          const file = outcome.raw.bytes ? await outcome.raw.bytes() : null;
          if (!file)
            return { status: 501, body: { ok: false, error: 'this answer cannot be carried over the webview bridge' } };
          return {
            status: 200,
            body: {
              ok: true,
              data: { name: file.name, contentType: file.contentType, base64: file.data.toString('base64') },
            },
          };
        }
        if ('serialized' in outcome) {
          // A versioned resource sent as bytes (a card) still hands the page its version for If-Match.
          const etag = route.version ? { etag: outcome.serialized.etag } : {};
          const asJson = request.asJson ? { body: null, json: outcome.serialized.body } : null;
          return {
            status: 200,
            ...(asJson ?? { body: { ok: true, data: outcome.serialized.data() } }),
            ...etag,
            ...(outcome.page ? { page: outcome.page } : {}),
          };
        }
        return {
          status: outcome.status,
          body: outcome.status === 204 ? null : { ok: true, data: outcome.data },
          ...(outcome.etag ? { etag: outcome.etag } : {}),
          ...(outcome.warnings ? { warnings: outcome.warnings } : {}),
        };
      }
      return { status: 404, body: { ok: false, error: `no API route ${request.method.toUpperCase()} ${pathname}` } };
    } catch (error) {
      const { status, message } = describeError(error);
      return { status, body: { ok: false, error: message } };
    }
  }
}
