import { promises as fs } from 'node:fs';
import type { JsonSchema, QueryParam, RouteDef } from '../api/route';
import { allRoutes } from '../api/routes';
import { GLOBAL_OPTIONS, helpFor, list, str, type Command, type OptionSpec } from './command';
import { json } from './output';
import { UsageError } from './usage';

/**
 * `kanban api <operation>`: every route of the table as a command, generated. The name comes from
 * the method and the path (`PUT /tasks/{id}/comments/{commentId}` is `put-task-comment`), path
 * parameters are positional arguments, and flags come from the route's query parameters and the
 * properties of its body schema, with their descriptions. A new route appears here with no code.
 */
export interface Operation {
  name: string;
  route: RouteDef;
  /** Path parameters in order, `boardId` included (taken from --board when given). */
  params: string[];
  command: Command;
}

type FlagSource =
  | { kind: 'query'; param: QueryParam }
  | { kind: 'body'; property: string; schema: JsonSchema; negated?: boolean }
  | { kind: 'meta' }
  | { kind: 'body-json' }
  | { kind: 'if-match' };

const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[._\s]+/g, '-')
    .toLowerCase();

/** `get` + the path's words, a word naming one item (followed by its id) made singular. */
export function operationName(route: RouteDef): string {
  const segments = route.path.split('/').filter(Boolean);
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (segment.startsWith('{')) return;
    const itemFollows = segments[i + 1]?.startsWith('{');
    words.push(itemFollows && segment.endsWith('s') ? segment.slice(0, -1) : segment);
  });
  return kebab([route.method, ...words].join('-'));
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

function describe(schema: JsonSchema, fallback: string): string {
  const parts = [typeof schema.description === 'string' ? schema.description : fallback];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.join(', ')}`);
  return parts.join('; ');
}

function buildFlags(route: RouteDef): Map<string, { spec: OptionSpec; source: FlagSource }> {
  const flags = new Map<string, { spec: OptionSpec; source: FlagSource }>();
  const add = (name: string, spec: OptionSpec, source: FlagSource) => {
    if (name in GLOBAL_OPTIONS || flags.has(name)) return; // still reachable through --data
    flags.set(name, { spec, source });
  };
  for (const param of route.query ?? []) {
    const description = `${param.description}${param.enum ? `; one of ${param.enum.join(', ')}` : ''}${param.required ? ' (required)' : ''}`;
    add(
      kebab(param.name),
      param.type === 'boolean'
        ? { type: 'boolean', description }
        : { type: 'string', value: `<${param.type === 'integer' ? 'n' : 'value'}>`, description },
      { kind: 'query', param },
    );
  }
  if (route.metaQuery)
    add(
      'meta',
      { type: 'string', multiple: true, value: '<field=value>', description: 'metadata filter (meta.<field>=value)' },
      { kind: 'meta' },
    );
  const body = route.body;
  if (body) {
    const required = new Set(Array.isArray(body.required) ? (body.required as string[]) : []);
    for (const [property, schema] of Object.entries((body.properties ?? {}) as Record<string, JsonSchema>)) {
      const types = typesOf(schema);
      const note = required.has(property) ? ' (required)' : '';
      const name = kebab(property);
      if (types.includes('boolean')) {
        add(
          name,
          { type: 'boolean', description: describe(schema, property) + note },
          { kind: 'body', property, schema },
        );
        add(
          `no-${name}`,
          { type: 'boolean', description: `set ${property} to false` },
          { kind: 'body', property, schema, negated: true },
        );
      } else if (types[0] === 'string' || types[0] === 'integer' || types[0] === 'number') {
        add(
          name,
          {
            type: 'string',
            value: types[0] === 'string' ? '<text>' : '<n>',
            description: describe(schema, property) + note,
          },
          { kind: 'body', property, schema },
        );
        if (types.includes('null'))
          add(
            `no-${name}`,
            { type: 'boolean', description: `set ${property} to null` },
            { kind: 'body', property, schema, negated: true },
          );
      } else if (types[0] === 'array' && typesOf((schema.items ?? {}) as JsonSchema)[0] === 'string') {
        add(
          name,
          {
            type: 'string',
            multiple: true,
            value: '<a,b>',
            description: `${describe(schema, property)}; comma-separated${note}`,
          },
          { kind: 'body', property, schema },
        );
      } else {
        add(
          name,
          { type: 'string', value: '<json>', description: `${describe(schema, property)} (JSON)${note}` },
          { kind: 'body', property, schema },
        );
      }
    }
    // Named as curl's -d/--data: a body field may itself be called "body" (create a card).
    add(
      'data',
      {
        type: 'string',
        value: '<json|@file|->',
        description: 'the whole request body as JSON (from a file with @file, stdin with -); flags override its fields',
      },
      { kind: 'body-json' },
    );
  }
  if (route.version && route.method !== 'get')
    add(
      'if-match',
      { type: 'string', value: '<etag>', description: 'change only if the resource still has this ETag (else 412)' },
      { kind: 'if-match' },
    );
  return flags;
}

function pathParams(route: RouteDef): string[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

function parseJson(text: string, what: string, help: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} is not valid JSON: ${(error as Error).message}`, help);
  }
}

async function readBodyArgument(value: string, help: string): Promise<unknown> {
  if (value === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return parseJson(Buffer.concat(chunks).toString('utf8'), 'the body on stdin', help);
  }
  if (value.startsWith('@')) {
    const text = await fs.readFile(value.slice(1), 'utf8').catch((error: Error) => {
      throw new UsageError(`cannot read ${value.slice(1)}: ${error.message}`, help);
    });
    return parseJson(text, value.slice(1), help);
  }
  return parseJson(value, '--data', help);
}

function bodyValue(raw: string, schema: JsonSchema, flagName: string, help: string): unknown {
  const type = typesOf(schema)[0];
  if (type === 'integer' || type === 'number') {
    const number = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) {
      throw new UsageError(
        `--${flagName} must be ${type === 'integer' ? 'a whole number' : 'a number'}, not "${raw}"`,
        help,
      );
    }
    return number;
  }
  if (type === 'string') return raw;
  return parseJson(raw, `--${flagName}`, help);
}

function operationCommand(route: RouteDef, name: string): Operation {
  const flags = buildFlags(route);
  const params = pathParams(route);
  const options = Object.fromEntries([...flags].map(([flagName, { spec }]) => [flagName, spec]));
  const details = [
    `${route.method.toUpperCase()} /api${route.path}${route.twin ? ` (with --board: /api/boards/{boardId}${route.path})` : ''}`,
    ...(params.includes('boardId') ? ['the board is the first argument, or --board'] : []),
    ...(route.returns ? [`answers: ${route.returns}`] : []),
  ];
  const command: Command = {
    name: `api ${name}`,
    summary: route.summary,
    args: params.map((p) => `<${p}>`).join(' ') || undefined,
    details,
    options,
    positionals: [0, params.length],
    writes: route.method !== 'get',
    async run(ctx, parsed) {
      const help = helpFor(command);
      const values = [...parsed.positionals];
      // A board operation takes its board from --board when the board argument is left out.
      const boardFromFlag =
        params.includes('boardId') && ctx.options.board !== undefined && values.length === params.length - 1;
      const resolved: Record<string, string> = {};
      for (const param of params) {
        if (param === 'boardId' && boardFromFlag) resolved[param] = ctx.options.board as string;
        else if (values.length) resolved[param] = values.shift() as string;
        else throw new UsageError(`${name} needs ${params.map((p) => `<${p}>`).join(' ')}`, help);
      }
      let apiPath = route.path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(resolved[p]));
      if (route.twin && ctx.options.board !== undefined) apiPath = ctx.boardPath(apiPath);
      const query: Record<string, string | string[]> = {};
      let body: Record<string, unknown> | undefined;
      let ifMatch: string | undefined;
      const bodyFlag = str(parsed, 'data');
      if (route.body)
        body =
          bodyFlag !== undefined && flags.get('data')?.source.kind === 'body-json'
            ? ((await readBodyArgument(bodyFlag, help)) as Record<string, unknown>)
            : {};
      for (const [flagName, { source }] of flags) {
        const value = parsed.values[flagName];
        if (value === undefined) continue;
        if (source.kind === 'query') query[source.param.name] = String(value === true ? 'true' : value);
        else if (source.kind === 'meta') {
          for (const pair of list(parsed, flagName)) {
            const at = pair.indexOf('=');
            if (at <= 0) throw new UsageError(`--meta takes field=value, not "${pair}"`, help);
            query[`meta.${pair.slice(0, at)}`] = pair.slice(at + 1);
          }
        } else if (source.kind === 'if-match') ifMatch = String(value);
        else if (source.kind === 'body' && body) {
          const types = typesOf(source.schema);
          if (source.negated) body[source.property] = types.includes('boolean') ? false : null;
          else if (types.includes('boolean')) body[source.property] = true;
          else if (types[0] === 'array' && typesOf((source.schema.items ?? {}) as JsonSchema)[0] === 'string') {
            body[source.property] = list(parsed, flagName)
              .flatMap((v) => v.split(','))
              .map((v) => v.trim())
              .filter(Boolean);
          } else body[source.property] = bodyValue(String(value), source.schema, flagName, help);
        }
      }
      for (const param of route.query ?? []) {
        if (param.required && query[param.name] === undefined)
          throw new UsageError(`${name} needs --${kebab(param.name)}`, help);
      }
      if (route.body && bodyFlag === undefined) {
        for (const required of (route.body.required ?? []) as string[]) {
          if (body?.[required] === undefined) throw new UsageError(`${name} needs --${kebab(required)}`, help);
        }
      }
      const answer = await ctx.call(route.method, apiPath, { query, body, ifMatch });
      if (ctx.json) ctx.printJson(answer);
      else if (answer.status === 204) ctx.output.out('done');
      else ctx.output.out(json(answer.data));
    },
  };
  return { name, route, params, command };
}

let cached: Operation[] | null = null;

/** Every route as an operation, named uniquely (a clash would get the full path in its name). */
export function operations(): Operation[] {
  if (cached) return cached;
  const seen = new Set<string>();
  cached = allRoutes.map((route) => {
    let name = operationName(route);
    if (seen.has(name)) name = kebab(`${route.method}-${route.path.replace(/[{}]/g, '')}`);
    seen.add(name);
    return operationCommand(route, name);
  });
  return cached;
}

export function apiHelp(): string {
  const ops = operations();
  const width = Math.max(...ops.map((o) => o.name.length));
  const byTag = new Map<string, Operation[]>();
  for (const op of ops) byTag.set(op.route.tag, [...(byTag.get(op.route.tag) ?? []), op]);
  const lines = [
    'usage: kanban api <operation> [arguments] [flags]',
    '',
    'Every REST operation, generated from the route table. `kanban api <operation> --help` shows its flags.',
  ];
  for (const [tag, group] of byTag) {
    lines.push('', `${tag}:`);
    for (const op of group) lines.push(`  ${op.name.padEnd(width)}  ${op.route.summary}`);
  }
  return lines.join('\n');
}
