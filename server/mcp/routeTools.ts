import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { JsonSchema, RouteDef } from '../api/route';
import { routeOutput } from './outputSchemas';
import { callApi, enc, onBoard, queryString, routeKey, structuredResult, type ToolDef } from './tool';
import { routeToolName, titleOf } from './toolNames';

/**
 * One tool per route of the table: its input is the path parameters, the query parameters and the
 * body schema that validates the REST body, flattened into one object; its output schema is the
 * route's response schema. Nothing here names a route, so a new route is a new tool.
 */

const PARAM_TEXT: Record<string, string> = {
  id: 'id (a unique prefix of a card id works)',
  board: 'board id',
};

/** A board id; the default board when omitted: the server instructions say so once for every tool. */
export const BOARD_ARG: JsonSchema = { type: 'string' };

const argOf = (pathParam: string) => (pathParam === 'boardId' ? 'board' : pathParam);

export function annotationsOf(method: RouteDef['method'], path: string): ToolAnnotations {
  return {
    readOnlyHint: method === 'get',
    destructiveHint: method === 'delete' || path.endsWith('/permanent'),
    idempotentHint: method === 'get' || method === 'put' || method === 'delete',
  };
}

/** A body schema whose fields can sit beside the path and query arguments. */
function flattenable(body: JsonSchema, taken: Record<string, unknown>): boolean {
  const properties = body.properties as Record<string, JsonSchema> | undefined;
  if (body.type !== 'object' || !properties || body.additionalProperties !== false) return false;
  if (body.anyOf || body.oneOf || body.allOf) return false;
  return Object.keys(properties).every((name) => !(name in taken));
}

export function routeTool(route: RouteDef): ToolDef {
  const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of pathParams) {
    const arg = argOf(param);
    properties[arg] = { type: 'string', description: PARAM_TEXT[arg] ?? arg };
    required.push(arg);
  }
  if (route.twin) properties.board = BOARD_ARG;
  // A twin's `board` and a `?boardId=` say the same thing: the tool offers only `board`.
  const query = (route.query ?? []).filter((q) => !(route.twin && q.name === 'boardId'));
  for (const q of query) {
    properties[q.name] = { type: q.type, description: q.description, ...(q.enum ? { enum: q.enum } : {}) };
    if (q.required) required.push(q.name);
  }
  if (route.metaQuery)
    properties.meta = {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'metadata filters {field: value}',
    };

  const body = route.body;
  const flat = body ? flattenable(body, properties) : false;
  const bodyFields = flat && body ? Object.keys(body.properties as object) : [];
  if (body && flat) {
    Object.assign(properties, body.properties);
    required.push(...((body.required as string[] | undefined) ?? []));
  } else if (body) {
    properties.body = body;
    if (Array.isArray(body.required) && body.required.length > 0) required.push('body');
  }

  const output = routeOutput(route);
  const { name, formerNames } = routeToolName(route);
  return {
    name,
    title: titleOf(name),
    ...(formerNames.length ? { formerNames } : {}),
    description: route.summary,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    outputSchema: output.schema,
    annotations: annotationsOf(route.method, route.path),
    routes: [routeKey(route)],
    async run({ client }, args) {
      let path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => enc(args[argOf(name)]));
      if (route.twin) path = onBoard(args.board, path);
      const params: Record<string, unknown> = Object.fromEntries(query.map((q) => [q.name, args[q.name]]));
      for (const [field, value] of Object.entries((args.meta as Record<string, string> | undefined) ?? {}))
        params[`meta.${field}`] = value;
      const sent = !body
        ? undefined
        : flat
          ? Object.fromEntries(bodyFields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]))
          : (args.body ?? {});
      const { data } = await callApi(client, { method: route.method, path: path + queryString(params), body: sent });
      if (!route.response && !route.returns) return structuredResult('done', { done: true });
      return structuredResult(data, (output.wrap ? { data } : data) as Record<string, unknown>);
    },
  };
}
