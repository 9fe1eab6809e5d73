import Ajv, { type ValidateFunction } from 'ajv';
import type { Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { JsonSchema, RouteDef } from '../api/route';
import { explain } from '../api/validation';
import { ToolError, type ToolDef } from './tool';
import { buildTools } from './tools';

/**
 * The tools built once per process: their definitions, their `tools/list` entries and their
 * argument validators. A server instance (one per connection on stdio, one per request over HTTP)
 * only picks from it, so a connection costs no schema compilation.
 */
export interface ToolCatalog {
  /** Every tool, in the order `tools/list` shows them. */
  tools: readonly ToolDef[];
  /** A tool by its name or by a name it had before a rename. */
  find(name: string): ToolDef | undefined;
  /** The `tools/list` entry of a tool. */
  listed(tool: ToolDef): Tool;
  /** Throws a ToolError naming the first argument problem, so a missing id is named before any call. */
  checkArguments(tool: ToolDef, args: Record<string, unknown>): void;
  /** What in a success's structured content breaks the tool's output schema; undefined when nothing does. */
  outputProblem(tool: ToolDef, structured: unknown): string | undefined;
}

const ajv = new Ajv({ allErrors: false, strict: false });

/**
 * The hints a client cannot already infer: a hint at its MCP default (readOnlyHint false,
 * idempotentHint false) says nothing, and MCP gives a read-only tool's destructive and idempotent
 * hints no meaning. destructiveHint stays on every tool that writes: its default is true.
 */
export function listedAnnotations(hints: ToolAnnotations): ToolAnnotations {
  if (hints.readOnlyHint === true) return { readOnlyHint: true };
  return {
    destructiveHint: hints.destructiveHint ?? true,
    ...(hints.idempotentHint === true ? { idempotentHint: true } : {}),
    ...(hints.openWorldHint !== undefined ? { openWorldHint: hints.openWorldHint } : {}),
  };
}

/** Bounds the server checks and names in its refusal; a client gains little from reading them first. */
const UNLISTED_BOUNDS = new Set(['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems']);

/**
 * A schema as listed to a model: without numeric bounds, and without `additionalProperties: true`,
 * which is JSON Schema's default (the REST document states it for typed clients; here it would
 * only cost tokens).
 */
export function withoutBounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutBounds);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(UNLISTED_BOUNDS.has(key) && typeof value === 'number'))
      .filter(([key, value]) => !(key === 'additionalProperties' && value === true))
      .map(([key, value]) => [key, withoutBounds(value)]),
  );
}

/**
 * The input schema as listed: without the top level's `additionalProperties: false`, which every
 * tool has, and without numeric bounds. The server still checks arguments against the whole
 * schema, so an unknown field or an out-of-range value is refused with its name all the same.
 */
function listedInput(schema: JsonSchema): JsonSchema {
  const { additionalProperties, ...rest } = withoutBounds(schema) as JsonSchema;
  return additionalProperties === false ? rest : { ...rest, additionalProperties };
}

/**
 * Every tool takes `workspace` (workspaceArgument.ts): the host picks the board's folder with it and
 * strips it before the tool runs. No description: the server instructions explain it once, since
 * every tool listed would repeat it.
 */
export const WORKSPACE_ARG = 'workspace';

function withWorkspace(schema: JsonSchema): JsonSchema {
  return { ...schema, properties: { ...(schema.properties as object), [WORKSPACE_ARG]: { type: 'string' } } };
}

function entryOf(tool: ToolDef): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: listedInput(withWorkspace(tool.inputSchema)) as Tool['inputSchema'],
    outputSchema: (tool.outputSchema && withoutBounds(tool.outputSchema)) as Tool['outputSchema'],
    annotations: listedAnnotations(tool.annotations),
  };
}

export function buildToolCatalog(routes: RouteDef[]): ToolCatalog {
  const tools = buildTools(routes);
  const byName = new Map<string, ToolDef>();
  for (const tool of tools) byName.set(tool.name, tool);
  // A former name never shadows a current one.
  for (const tool of tools)
    for (const former of tool.formerNames ?? []) if (!byName.has(former)) byName.set(former, tool);
  const entries = new Map(tools.map((t) => [t, entryOf(t)]));
  const validators = new Map<ToolDef, ValidateFunction>(
    tools.map((t) => [t, ajv.compile(withWorkspace(t.inputSchema))]),
  );
  // Output schemas are compiled at a tool's first success, not at start-up: most sessions call a few tools.
  const outputValidators = new Map<ToolDef, ValidateFunction>();
  return {
    tools,
    find: (name) => byName.get(name),
    listed: (tool) => entries.get(tool) as Tool,
    checkArguments(tool, args) {
      const validate = validators.get(tool) as ValidateFunction;
      if (validate(args)) return;
      const error = validate.errors?.[0];
      const extra = (error?.params as { additionalProperty?: string } | undefined)?.additionalProperty;
      if (!error) throw new ToolError('arguments are invalid');
      // REST says "unknown or read-only"; a tool's arguments have no read-only fields.
      throw new ToolError(
        extra
          ? `arguments${error.instancePath.replace(/\//g, '.')} has an unknown field "${extra}"`
          : explain(error, 'arguments'),
      );
    },
    outputProblem(tool, structured) {
      let validate = outputValidators.get(tool);
      if (!validate) outputValidators.set(tool, (validate = ajv.compile(tool.outputSchema)));
      return validate(structured) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'structuredContent' });
    },
  };
}
