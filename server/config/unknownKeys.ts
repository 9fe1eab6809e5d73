import { typoDistance } from '../core/typoMatch';
import { kanbanConfigSchema } from './configSchema';

/**
 * Keys of `.kanban.json` that the configuration schema does not know, each said with its JSON path
 * and the known key it is closest to: a misspelled `wipLimt` is otherwise kept and ignored without
 * a word. The file is never refused for them.
 *
 * The walk follows the schema (configSchema.ts), so it knows exactly what the service knows. An
 * object the schema leaves open (no `properties`: a plugin's `options`, a form's JSON Schema and
 * data, a view's filter) is not looked into: its keys belong to someone else. At the top level only
 * a key close to a known one is named, as other tools may keep their own sections there (they are
 * kept on every write); `$schema` is the editors' pointer to the schema itself.
 */

type Schema = Record<string, unknown>;

const TOP_LEVEL_ALLOWED = new Set(['$schema']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The known key nearest to `key` (case aside), when it is near enough to be the one meant. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const typed = key.toLowerCase();
  // One edit per three letters, at least two: `wipLimt`, `defualtStatus`, `colour` -> `color`.
  const budget = Math.max(2, Math.floor(typed.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = typoDistance(typed, candidate.toLowerCase(), budget);
    if (distance <= budget && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** The branch of an `anyOf` that fits the value (an array or an object), else none. */
function branchFor(schema: Schema, value: unknown): Schema | undefined {
  const options = schema.anyOf as Schema[] | undefined;
  if (!options) return schema;
  return options.find((option) => (Array.isArray(value) ? option.type === 'array' : option.type === 'object'));
}

function walk(value: unknown, schema: Schema | undefined, at: string, out: string[]): void {
  const fitting = schema && branchFor(schema, value);
  if (!fitting) return;
  if (Array.isArray(value)) {
    const items = fitting.items as Schema | undefined;
    value.forEach((item, i) => walk(item, items, `${at}[${i}]`, out));
    return;
  }
  if (!isObject(value)) return;
  const properties = fitting.properties as Record<string, Schema> | undefined;
  const additional = isObject(fitting.additionalProperties) ? (fitting.additionalProperties as Schema) : undefined;
  for (const [key, child] of Object.entries(value)) {
    const path = `${at}.${key}`;
    if (properties && Object.hasOwn(properties, key)) walk(child, properties[key], path, out);
    else if (additional) walk(child, additional, path, out);
    else if (properties) reportUnknown(key, path, Object.keys(properties), at === '$', out);
  }
}

function reportUnknown(key: string, path: string, known: string[], topLevel: boolean, out: string[]): void {
  if (topLevel && TOP_LEVEL_ALLOWED.has(key)) return;
  const near = closestKey(key, known);
  if (near) out.push(`.kanban.json: unknown key ${path} (did you mean "${near}"?)`);
  else if (!topLevel) out.push(`.kanban.json: unknown key ${path} (known keys here: ${known.join(', ')})`);
}

/** Warnings for the unknown keys of a parsed `.kanban.json` document, in file order. */
export function unknownConfigKeys(doc: unknown): string[] {
  const out: string[] = [];
  walk(doc, kanbanConfigSchema(), '$', out);
  return out;
}

/** The same for the text of the file; text that does not parse has no keys to warn about here. */
export function unknownConfigKeysIn(text: string | null): string[] {
  if (text === null) return [];
  try {
    return unknownConfigKeys(JSON.parse(text));
  } catch {
    return [];
  }
}
