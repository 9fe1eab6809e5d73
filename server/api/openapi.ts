import type { JsonSchema, RouteDef } from './route';

/** Mounted paths of a route: the path itself and, for twins, the board-scoped form. */
export function mountedPaths(route: RouteDef): string[] {
  return route.twin ? [route.path, `/boards/{boardId}${route.path}`] : [route.path];
}

const envelopeError: JsonSchema = {
  type: 'object',
  properties: { ok: { const: false }, error: { type: 'string', description: 'what went wrong and how to fix it' } },
  required: ['ok', 'error'],
};

const ERROR_TEXT: Record<number, string> = {
  400: 'validation error or rejected operation',
  401: 'authentication required',
  403: 'forbidden for this role, a refused Host header, or a write from a web page of a foreign Origin (see --allow-origin)',
  404: 'board, task, comment, attachment, action or webhook not found',
  409: 'the file on disk changed since the service read it, or does not parse: nothing was written; the message names the file (and the line)',
  412: 'If-Match names a version that is no longer current: read again and reapply',
  413: 'request body too large',
  501: 'attachment provider exposes no local file and cannot stream',
  507: 'disk full: the change could not be written',
};

/**
 * Answers every write can give, whatever the route: a foreign browser Origin is refused (403) and
 * a full disk is 507. Listed here once so a new route cannot forget them.
 */
function impliedErrors(route: RouteDef): number[] {
  return route.method === 'get' ? [] : [403, 507];
}

/** A body may be left out exactly when it has no required field: the server then reads it as `{}`. */
function bodyIsRequired(schema: JsonSchema): boolean {
  return Array.isArray(schema.required) && schema.required.length > 0;
}

function operationFor(route: RouteDef, path: string) {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: m[1] === 'id' && path.includes('/tasks/') ? 'card id; a unique prefix or substring of it also matches' : undefined,
  }));
  const queryParams = (route.query ?? []).map((q) => ({
    name: q.name,
    in: 'query',
    required: q.required ?? false,
    description: q.description,
    schema: { type: q.type, ...(q.enum ? { enum: q.enum } : {}) },
  }));
  if (route.metaQuery) {
    queryParams.push({ name: 'meta.<field>', in: 'query', required: false, description: 'metadata filter; repeat for several fields; dot paths reach nested values', schema: { type: 'string' } });
  }
  if (route.version && route.method !== 'get') {
    queryParams.push({ name: 'If-Match', in: 'header', required: false, description: 'the ETag of your last read; the change applies only while it is current (else 412)', schema: { type: 'string' } });
  }
  const success = route.success ?? 200;
  const responses: Record<string, unknown> = {};
  responses[String(success)] =
    success === 204
      ? { description: 'done; no body' }
      : route.returns === 'the file bytes'
        ? { description: 'the file', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } }
        : {
            description: route.returns ?? route.summary,
            content: { 'application/json': { schema: { type: 'object', properties: { ok: { const: true }, data: route.response ?? {} }, required: ['ok', 'data'] } } },
          };
  const errors = [400, ...(route.body ? [413] : []), ...(route.errors ?? []), ...impliedErrors(route)];
  for (const status of new Set(errors)) {
    responses[String(status)] = { description: ERROR_TEXT[status] ?? 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return {
    summary: route.summary,
    tags: [route.tag],
    operationId: `${route.method}${path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    parameters: [...pathParams, ...queryParams],
    ...(route.body ? { requestBody: { required: bodyIsRequired(route.body), content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the same table that mounts and validates the routes. */
export function buildOpenApi(routes: RouteDef[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const path of mountedPaths(route)) {
      paths[path] ??= {};
      paths[path][route.method] = operationFor(route, path);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Board Management Service',
      version: '1.0.0',
      description:
        'Kanban boards kept as Markdown files in a repository. Every JSON answer is an envelope: {ok:true, data} or {ok:false, error}. ' +
        'Unscoped /tasks and /columns routes act on the default board; each has a /boards/{boardId}/... twin. ' +
        'Concurrency: GET of a task, board, settings or labels answers an ETag; send it back as If-Match on PUT/PATCH/DELETE and a change made meanwhile gives 412 instead of being overwritten. ' +
        'A write to a card file or .kanban.json that changed on disk since the service read it (or no longer parses) is refused with 409 naming the file; the service adopts the file as it is. ' +
        "Writes carrying a browser Origin other than the server's own, a VS Code webview or one allowed (--allow-origin, .kanban.json server.allowedOrigins) are refused with 403. " +
        'Live updates: WebSocket at /ws ({type:"hello", revision} then {type:"event", event, boardId, data, revision} per change).',
    },
    servers: [{ url: '/api' }],
    paths,
    components: { schemas: { Error: envelopeError } },
  };
}
