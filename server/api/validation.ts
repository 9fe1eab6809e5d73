import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ValidationError } from '../core/errors';
import type { JsonSchema, QueryParam } from './route';

const ajv = new Ajv({ allErrors: false, strict: false });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** The allowed values as a sentence says them: `"only"` alone, or `one of a, b, c` (never "one of only"). */
export function choiceOf(values: readonly unknown[]): string {
  return values.length === 1 ? `"${String(values[0])}"` : `one of ${values.join(', ')}`;
}

/** A person-readable sentence for the first schema violation (the MCP tools' arguments use it too). */
export function explain(error: ErrorObject, where: string): string {
  const at = `${where}${error.instancePath.replace(/\//g, '.')}`;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at} has an unknown or read-only field "${p.additionalProperty}"`;
    case 'required':
      return `${at} is missing the required field "${p.missingProperty}"`;
    case 'type':
      return `${at} must be ${p.type === 'integer' ? 'a whole number' : `of type ${String(p.type).replace(',', ' or ')}`}`;
    case 'enum':
      return `${at} must be ${choiceOf(p.allowedValues as unknown[])}`;
    case 'minimum':
      return `${at} must be ${p.comparison} ${p.limit}`;
    case 'anyOf':
    case 'oneOf':
      return `${at} does not have an accepted shape (${error.parentSchema?.description ?? 'see /api/docs'})`;
    default:
      return `${at} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Deepest nesting of arrays and objects accepted in a body. Card files keep metadata and form data
 * as YAML, which refuses to read more than 100 levels back, and deep trees overflow the stack of
 * the recursive code that copies, writes and searches them: both must be stopped at the door.
 */
export const MAX_BODY_DEPTH = 64;

/** Nesting depth of a parsed JSON value, measured without recursion (the value may be hostile). */
export function nestingDepth(value: unknown, stopAbove = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > stopAbove) return deepest;
    for (const child of Object.values(current)) stack.push([child, level]);
  }
  return deepest;
}

export function validateBody(schema: JsonSchema, body: unknown): void {
  if (nestingDepth(body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    throw new ValidationError(`body is nested more than ${MAX_BODY_DEPTH} levels deep; flatten the data`);
  }
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  if (!validate(body)) {
    const errors = validate.errors ?? [];
    // For anyOf/oneOf ajv reports the branches first; the summary error is the useful one.
    const chosen =
      errors.find((e) => e.keyword === 'additionalProperties' || e.keyword === 'required') ?? errors[errors.length - 1];
    throw new ValidationError(chosen ? explain(chosen, 'body') : 'body is invalid');
  }
}

const TRUE_WORDS = new Set(['true', '1', 'yes', '']);
const FALSE_WORDS = new Set(['false', '0', 'no']);

/**
 * A parameter the route does not know is refused rather than ignored: a misspelt filter would
 * otherwise answer the whole list as if it had matched.
 */
function refuseUnknown(params: QueryParam[], raw: Record<string, unknown>, acceptsMeta: boolean): void {
  const known = new Set(params.map((p) => p.name));
  for (const name of Object.keys(raw)) {
    if (known.has(name) || (acceptsMeta && name.startsWith('meta.'))) continue;
    const accepted = [...known, ...(acceptsMeta ? ['meta.<field>'] : [])];
    const shown = name.length > 60 ? `${name.slice(0, 60)}...` : name;
    const list = accepted.length ? `: ${accepted.join(', ')}` : ' none';
    throw new ValidationError(`unknown query parameter ${JSON.stringify(shown)}; this route accepts${list}`);
  }
}

/** Parse the declared query parameters (and `meta.<field>` ones when `acceptsMeta`); any other is a 400. */
export function parseQuery(
  params: QueryParam[] | undefined,
  raw: Record<string, unknown>,
  acceptsMeta = false,
): Record<string, unknown> {
  refuseUnknown(params ?? [], raw, acceptsMeta);
  const out: Record<string, unknown> = {};
  for (const param of params ?? []) {
    const value = raw[param.name];
    if (value === undefined) {
      if (param.required) throw new ValidationError(`query parameter "${param.name}" is required`);
      continue;
    }
    if (typeof value !== 'string')
      throw new ValidationError(`query parameter "${param.name}" must be given once, as plain text`);
    if (param.type === 'boolean') {
      const word = value.toLowerCase();
      if (!TRUE_WORDS.has(word) && !FALSE_WORDS.has(word))
        throw new ValidationError(`query parameter "${param.name}" must be true or false`);
      out[param.name] = TRUE_WORDS.has(word);
    } else if (param.type === 'integer') {
      const n = Number(value);
      const inRange =
        (param.minimum === undefined || n >= param.minimum) && (param.maximum === undefined || n <= param.maximum);
      if (!/^\d+$/.test(value) || !inRange) {
        const range =
          param.minimum !== undefined && param.maximum !== undefined
            ? ` from ${param.minimum} to ${param.maximum}`
            : '';
        throw new ValidationError(`query parameter "${param.name}" must be a whole number${range}`);
      }
      out[param.name] = n;
    } else {
      if (param.enum && !param.enum.includes(value))
        throw new ValidationError(`query parameter "${param.name}" must be ${choiceOf(param.enum)}`);
      out[param.name] = value;
    }
  }
  return out;
}

/** `meta.<field>=value` parameters, each possibly repeated. */
export function parseMetaQuery(raw: Record<string, unknown>): { field: string; value: string }[] {
  const filters: { field: string; value: string }[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (!key.startsWith('meta.')) continue;
    const field = key.slice(5);
    if (field === '' || field.split('.').some((part) => part === ''))
      throw new ValidationError(`query parameter "${key}" needs a field name, such as meta.sprint`);
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== 'string') throw new ValidationError(`query parameter "${key}" must be plain text`);
      filters.push({ field, value: v });
    }
  }
  return filters;
}
