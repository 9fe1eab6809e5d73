import type { JsonSchema, RouteDef } from './route';
import { requiredRole } from '../auth/roles';
import { BEARER_SCHEME, TAG_DESCRIPTIONS, documentInfo } from './openapiInfo';
import { componentNameOf } from './schemaParts';
import { eventWebhooks } from './eventWebhooks';

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
  401: 'authentication required (only when auth is on): no credential, an unknown one, or the identity provider is unavailable',
  403: 'forbidden for this role, a refused Host header, or a write from a web page of a foreign Origin (see --allow-origin)',
  404: 'board, task, comment, attachment, action or webhook not found',
  409: 'the file on disk changed since the service read it, or does not parse (the message names the file and the line); or, on a board whose wipPolicy is block, the column is at its WIP limit (the message names the column and its limit); or the card is claimed by another agent (the message names it and when its lease ends): nothing was written',
  412: 'If-Match names a version that is no longer current: read again and reapply',
  413: 'request body too large',
  415: 'the body is not UTF-8 JSON (another charset or content encoding)',
  501: 'attachment provider exposes no local file and cannot stream',
  503: 'the database of the card storage (MySQL) cannot be reached: nothing was changed; retry once it is back',
  507: 'disk full: the change could not be written',
};

/**
 * Answers a route gives whatever it does, listed here once so a new route cannot forget them: a
 * write from a foreign browser Origin is refused (403), a full disk is 507 and a database that is away
 * 503; every write but those that say `noConflict` reads .kanban.json or a card file first, and either
 * may be broken or changed on disk (FileConflictError, 409); with auth on, a
 * route that is not public needs a credential (401) and a role (403); an unknown board is 404.
 */
function impliedErrors(route: RouteDef, path: string): number[] {
  // 403: every route refuses a Host header that names another site (DNS rebinding).
  const errors = route.method === 'get' ? [403] : [403, ...(route.noConflict ? [] : [409]), 503, 507];
  if (route.body) errors.push(415);
  if (requiredRole(route) !== 'public') errors.push(401, 403);
  if (path.includes('{boardId}') && route.unknownBoardStatus !== 400) errors.push(404);
  return errors;
}

/** `security` of an operation: public routes need nothing, every other one the bearer token once auth is on. */
function securityOf(route: RouteDef) {
  const role = requiredRole(route);
  return role === 'public'
    ? { security: [], description: 'Public: answers without a credential, even when auth is on.' }
    : { security: [{ bearerAuth: [] }], description: `Needs the ${role} role when auth is on.` };
}

/**
 * A route's response schema as the document shows it: every schema named in schemaParts becomes
 * a `components.schemas` entry (added on first use) and a `$ref` to it.
 */
function withRefs(schema: unknown, components: Record<string, unknown>, isComponentRoot = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withRefs(item, components));
  if (schema === null || typeof schema !== 'object') return schema;
  const name = componentNameOf(schema);
  if (name && !isComponentRoot) {
    if (!(name in components)) {
      components[name] = {}; // claimed first, so a schema that contains itself ends
      components[name] = withRefs(schema, components, true);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  const wrapped = wrappedComponent(schema);
  if (wrapped)
    return { ...(withRefs(wrapped.named, components) as object), ...(withRefs(wrapped.rest, components) as object) };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withRefs(value, components)]));
}

/**
 * A named shape wrapped as `{allOf: [shape], ...keywords}` to add keywords (a field's `default`):
 * OpenAPI 3.1 allows them beside a `$ref`, so the document refers to the shape directly.
 */
function wrappedComponent(schema: object): { named: object; rest: object } | undefined {
  const { allOf, ...rest } = schema as { allOf?: unknown };
  if (!Array.isArray(allOf) || allOf.length !== 1 || !componentNameOf(allOf[0])) return undefined;
  return { named: allOf[0] as object, rest };
}

const ETAG_HEADER = {
  description: 'version of the resource; send it as If-Match to change only this version',
  schema: { type: 'string' },
};
const PAGING_HEADERS = {
  Link: { description: 'the next page, as <url>; rel="next"; absent on the last page', schema: { type: 'string' } },
  'X-Total-Count': {
    description: 'number of items that match, over all pages',
    schema: { type: 'integer', minimum: 0 },
  },
};

const WARNING_HEADER = {
  description:
    'present when the change went ahead but took a column over its WIP limit (board wipPolicy warn): 299 - "column <name> is over its WIP limit (<count>/<limit>)"',
  schema: { type: 'string' },
};

function successHeaders(route: RouteDef) {
  const headers = {
    ...(route.warns ? { Warning: WARNING_HEADER } : {}),
    ...(route.version ? { ETag: ETAG_HEADER } : {}),
    ...(route.query?.some((q) => q.name === 'limit') ? PAGING_HEADERS : {}),
  };
  return Object.keys(headers).length ? { headers } : {};
}

/** A file answer: its declared formats (JSON ones with their schema), else any bytes. */
function fileResponse(route: RouteDef, components: Record<string, unknown>) {
  if (!route.files)
    return { description: 'the file', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } };
  const content = Object.fromEntries(
    Object.entries(route.files).map(([type, schema]) => [type, { schema: withRefs(schema, components) }]),
  );
  return { description: 'the file, in the format asked for', content };
}

function successResponse(route: RouteDef, components: Record<string, unknown>) {
  const success = route.success ?? 200;
  if (success === 204) return { description: 'done; no body' };
  if (route.returns === 'the file bytes') return fileResponse(route, components);
  const data = route.response ? withRefs(route.response, components) : {};
  return {
    description: route.returns ?? route.summary,
    ...successHeaders(route),
    content: {
      'application/json': {
        schema: { type: 'object', properties: { ok: { const: true }, data }, required: ['ok', 'data'] },
      },
    },
  };
}

/**
 * Every JSON answer of a GET carries an ETag (the resource's version, the kept list's, or Express's
 * of the bytes), and a matching If-None-Match gets 304: files are sent without one.
 */
function answersNotModified(route: RouteDef): boolean {
  return route.method === 'get' && route.returns !== 'the file bytes' && (route.success ?? 200) !== 204;
}

/**
 * `meta.<field>=value` is a family of query parameters, not one name: OpenAPI has no parameter
 * pattern, so it is described in the operation and in an extension a client generator can read.
 */
const META_QUERY = {
  in: 'query',
  namePattern: '^meta\\.[^.]+(\\.[^.]+)*$',
  example: 'meta.sprint=s12',
  description:
    'Metadata filters: any query parameter named `meta.<field>` (e.g. `meta.sprint=s12`; a dot path such as `meta.links.jira=ABC-1` reaches nested values) keeps the cards whose metadata field holds that value; repeat for several fields.',
  schema: { type: 'string' },
};

/** Stable camelCase id from the method and path: `getTasksById`, `postBoardsByBoardIdTasksByIdTransfer`. */
export function operationIdOf(route: RouteDef, path: string): string {
  return `${route.method}${path.replace(/\{(\w+)\}/g, 'By-$1').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
}

/** A body may be left out exactly when it has no required field: the server then reads it as `{}`. */
function bodyIsRequired(schema: JsonSchema): boolean {
  return Array.isArray(schema.required) && schema.required.length > 0;
}

function operationFor(route: RouteDef, path: string, components: Record<string, unknown>) {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description:
      m[1] === 'id' && path.includes('/tasks/')
        ? 'card id; a unique prefix or substring of it also matches'
        : undefined,
  }));
  const queryParams = (route.query ?? []).map((q) => ({
    name: q.name,
    in: 'query',
    required: q.required ?? false,
    description: q.description,
    schema: { type: q.type, ...(q.enum ? { enum: q.enum } : {}) },
  }));
  if (answersNotModified(route)) {
    queryParams.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'the ETag of your last read; while it is current the answer is 304 without a body',
      schema: { type: 'string' },
    });
  }
  if (route.version && route.method !== 'get') {
    queryParams.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'the ETag of your last read; the change applies only while it is current (else 412)',
      schema: { type: 'string' },
    });
  }
  const responses: Record<string, unknown> = { [String(route.success ?? 200)]: successResponse(route, components) };
  if (route.noContent) responses['204'] = { description: route.noContent };
  if (answersNotModified(route))
    responses['304'] = { description: 'not modified: If-None-Match names the current ETag; no body' };
  const errors = [400, ...(route.body ? [413] : []), ...(route.errors ?? []), ...impliedErrors(route, path)];
  for (const status of [...new Set(errors)].sort((a, b) => a - b)) {
    responses[String(status)] = {
      description: ERROR_TEXT[status] ?? 'error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const { security, description: access } = securityOf(route);
  const description = route.metaQuery ? `${access}\n\n${META_QUERY.description}` : access;
  return {
    summary: route.summary,
    description,
    tags: [route.tag],
    operationId: operationIdOf(route, path),
    security,
    parameters: [...pathParams, ...queryParams],
    ...(route.metaQuery ? { 'x-query-parameter-patterns': [META_QUERY] } : {}),
    ...(route.body ? { requestBody: { required: bodyIsRequired(route.body), content: requestContent(route) } } : {}),
    responses,
  };
}

/** JSON always; routes that take files also take them as multipart/form-data file parts. */
function requestContent(route: RouteDef): Record<string, unknown> {
  const json = { 'application/json': { schema: route.body } };
  if (!route.multipart) return json;
  const fileParts = {
    type: 'object',
    description:
      'One or more file parts (any field name); the file name comes from each part, as `curl -F file=@notes.txt` sends it.',
    additionalProperties: { type: 'string', contentMediaType: 'application/octet-stream' },
  };
  return { ...json, 'multipart/form-data': { schema: fileParts } };
}

/** The OpenAPI 3.1 document, generated from the same table that mounts and validates the routes. */
export function buildOpenApi(routes: RouteDef[]) {
  const schemas: Record<string, unknown> = { Error: envelopeError };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const path of mountedPaths(route)) {
      paths[path] ??= {};
      paths[path][route.method] = operationFor(route, path, schemas);
    }
  }
  const tags = [...new Set(routes.map((route) => route.tag))].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? '',
  }));
  return {
    openapi: '3.1.0',
    info: documentInfo(routes),
    servers: [{ url: '/api', description: 'this server' }],
    tags,
    paths,
    webhooks: eventWebhooks(),
    components: { schemas, securitySchemes: { bearerAuth: BEARER_SCHEME } },
  };
}
