import * as yaml from 'js-yaml';

/**
 * The frontmatter as the service writes it, read without the YAML library: block mappings indented
 * by two spaces, `- ` lists of scalars or of such mappings, one-line plain or single-quoted scalars,
 * `[]` and `{}`. A first start at 100,000 cards spent a quarter of its CPU in js-yaml's `loadAll`,
 * mostly copying its option objects per call. Anything outside that shape (comments, anchors,
 * double quotes, block or multi-line scalars, other indentation, tabs, a repeated key) answers
 * undefined and the caller asks js-yaml, so a file this reads gives what js-yaml gives: plain
 * scalars are resolved by js-yaml's own core schema (null, booleans, numbers).
 */
export function plainFrontmatter(fm: string): Record<string, unknown> | undefined {
  if (fm.includes('\t') || fm.includes('\r') || fm.includes('\u2028') || fm.includes('\u2029')) return undefined;
  const lines = fm.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) return undefined;
  const reader = { lines, at: 0 };
  const out = mapping(reader, 0);
  return out !== undefined && reader.at === lines.length ? out : undefined;
}

interface Reader {
  lines: string[];
  at: number;
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const KEY_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * `key: value` (or `key:` alone) at `from`, as KEY_LINE matches it (the line separators its `.`
 * would not match never get here), found by hand: the match arrays cost a first start more.
 */
function keyLine(line: string, from: number): { key: string; value: string | undefined } | null {
  const colon = line.indexOf(':', from);
  if (colon <= from) return null;
  const key = line.slice(from, colon);
  if (!KEY_NAME.test(key)) return null;
  if (colon === line.length - 1) return { key, value: undefined };
  return line.charCodeAt(colon + 1) === 32 ? { key, value: line.slice(colon + 2) } : null;
}
/** Characters a plain scalar may hold here: printable, no control or byte-order marks. */
const PLAIN_CHARS = /^[\x20-\x7e\u00a1-\ud7ff\ue000-\ufefe\uff00-\ufffd\u{10000}-\u{10ffff}]+$/u;
/** First characters that make a YAML indicator (or a space), never a plain scalar's start here. */
const NOT_FIRST = new Set([...'-?:,[]{}#&*!|>\'"%@` ']);
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/;

function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** A block mapping whose keys sit at `indent`; it ends at a line indented less. */
function mapping(r: Reader, indent: number): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let entries = 0;
  while (r.at < r.lines.length) {
    const line = r.lines[r.at];
    const depth = indentOf(line);
    if (depth < indent && entries > 0) break;
    if (depth !== indent) return undefined;
    const match = keyLine(line, indent);
    if (!match) return undefined;
    const key = match.key;
    if (key === '__proto__' || Object.hasOwn(out, key) || typeof resolvePlain(key) !== 'string') return undefined;
    r.at++;
    const value = match.value === undefined ? nested(r, indent) : scalar(match.value);
    if (value === undefined) return undefined;
    out[key] = value;
    entries++;
  }
  return entries > 0 ? out : undefined;
}

/** What follows `key:` on the next lines: a mapping or a list two spaces in, else null. */
function nested(r: Reader, indent: number): unknown {
  const next = r.lines[r.at];
  if (next === undefined || indentOf(next) <= indent) return null;
  if (indentOf(next) !== indent + 2) return undefined;
  return next.startsWith('- ', indent + 2) ? list(r, indent + 2) : mapping(r, indent + 2);
}

/** `- item` lines at `indent`; an item that is a mapping continues two spaces further in. */
function list(r: Reader, indent: number): unknown[] | undefined {
  const out: unknown[] = [];
  while (r.at < r.lines.length) {
    const line = r.lines[r.at];
    const depth = indentOf(line);
    if (depth < indent) break;
    if (depth !== indent || !line.startsWith('- ', indent)) return undefined;
    const item = line.slice(indent + 2);
    let value: unknown;
    if (KEY_LINE.test(item)) {
      // `- key: value`: the mapping's first key stands where the dash's content starts.
      r.lines[r.at] = `${' '.repeat(indent + 2)}${item}`;
      value = mapping(r, indent + 2);
    } else {
      value = scalar(item);
      r.at++;
    }
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

/** A one-line scalar after `key: ` or `- `, or undefined when js-yaml must decide. */
function scalar(text: string): unknown {
  if (text === '[]') return [];
  if (text === '{}') return {};
  const quoted = SINGLE_QUOTED.exec(text);
  if (quoted) return quoted[1].replaceAll("''", "'");
  if (!isPlain(text)) return undefined;
  return resolvePlain(text);
}

function isPlain(text: string): boolean {
  if (text === '' || text.endsWith(' ') || text.endsWith(':')) return false;
  if (NOT_FIRST.has(text[0]) && !(text[0] === '-' && text.length > 1 && text[1] >= '0' && text[1] <= '9')) return false;
  if (text.includes(': ') || text.includes(' #')) return false;
  return PLAIN_CHARS.test(text) && !/[[\]{},]/.test(text);
}

/** A plain scalar's value as js-yaml's core schema reads it (null, true, 12, 1.5, or the text). */
function resolvePlain(text: string): unknown {
  return yaml.CORE_SCHEMA.resolveImplicitScalarTag(text).value;
}
