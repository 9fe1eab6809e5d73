import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema, RouteDef } from '../api/route';
import { callApi, enc, onBoard, queryString, routeKey, textResult, type ToolDef } from './tool';
import { toolNameOf } from './toolNames';

/**
 * One tool per route of the table: its input is the path parameters, the query parameters and the
 * body schema that validates the REST body, flattened into one object; its output schema is the
 * route's response schema. Nothing here names a route, so a new route is a new tool.
 */

const PARAM_TEXT: Record<string, string> = {
  id: 'id (a unique prefix of a card id works)',
  board: 'board id',
};

export const BOARD_ARG: JsonSchema = { type: 'string', description: 'board id; the default board when omitted' };

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

/**
 * The schema without its descriptions: an agent reads the answer itself, and every tools/list
 * sends every output schema, so their prose would cost tokens in each session for nothing.
 */
function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (typeof schema !== 'object' || schema === null) return schema;
  // Only prose goes: a field named "description" under `properties` is a schema, not a string.
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDescriptions(value)]),
  );
}

/** MCP wants an object at the top of an output schema: other answers are wrapped as `{data}`. */
function outputOf(route: RouteDef): { schema?: JsonSchema; wrap: boolean } {
  if (!route.response) return { wrap: false };
  const response = withoutDescriptions(route.response) as JsonSchema;
  if (response.type === 'object') return { schema: response, wrap: false };
  return { schema: { type: 'object', properties: { data: response }, required: ['data'] }, wrap: true };
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
  if (route.metaQuery) properties.meta = { type: 'object', additionalProperties: { type: 'string' }, description: 'metadata filters {field: value}' };

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

  const output = outputOf(route);
  return {
    name: toolNameOf(route),
    description: route.summary,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    ...(output.schema ? { outputSchema: output.schema } : {}),
    annotations: annotationsOf(route.method, route.path),
    routes: [routeKey(route)],
    async run({ client }, args) {
      let path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => enc(args[argOf(name)]));
      if (route.twin) path = onBoard(args.board, path);
      const params: Record<string, unknown> = Object.fromEntries(query.map((q) => [q.name, args[q.name]]));
      for (const [field, value] of Object.entries((args.meta as Record<string, string> | undefined) ?? {})) params[`meta.${field}`] = value;
      const sent = !body ? undefined : flat ? Object.fromEntries(bodyFields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]])) : (args.body ?? {});
      const { data } = await callApi(client, { method: route.method, path: path + queryString(params), body: sent });
      if (data === null && route.success === 204) return textResult('done');
      const result = textResult(data);
      if (output.schema) result.structuredContent = (output.wrap ? { data } : data) as Record<string, unknown>;
      return result;
    },
  };
}
