/**
 * `JSON.stringify` with every object's keys in one fixed order, so two copies of a value built in
 * different orders (written here, or read back from a database row) give the same text: what ETags
 * are hashed from.
 *
 * The order is the one `JSON.stringify(value, (k, v) => Object.fromEntries(sortedEntries(v)))`
 * produced before (and so every ETag a client or another instance holds stays valid): keys that are
 * array indices first, by number (an object rebuilt by `Object.fromEntries` puts them there), then
 * the others sorted by UTF-16 code units. Written out by hand because a replacer function takes
 * V8 off its fast serializer and rebuilds every nested object: at 100,000 cards, where nearly every
 * GET is a card's first and so hashes it, that was a fifth of a GET's time.
 */
export function canonicalJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item) ?? 'null').join(',')}]`;
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return canonicalJson(withToJson.toJSON());
  const record = value as Record<string, unknown>;
  let text = '';
  for (const key of orderedKeys(record)) {
    const member = canonicalJson(record[key]);
    if (member === undefined) continue; // undefined, functions and symbols are left out, as JSON.stringify does
    text += `${text ? ',' : ''}${JSON.stringify(key)}:${member}`;
  }
  return `{${text}}`;
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) <= MAX_ARRAY_INDEX;
}

function orderedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record).sort();
  if (!keys.some(isArrayIndex)) return keys;
  const indices = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isArrayIndex(key))];
}
