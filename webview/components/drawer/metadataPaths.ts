/**
 * Card metadata seen as key paths: `{links: {jira: "ABC-1"}}` is the row `links.jira` = `ABC-1`, so
 * nested values are edited one at a time instead of as raw JSON. Lists stay one value (JSON).
 * A key that itself holds a dot cannot be told from a path; such keys are rare in frontmatter.
 */
type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf of the metadata as [path, value], in the frontmatter's order. An empty map is a leaf. */
export function flattenMetadata(metadata: Json, prefix = ''): Array<[string, unknown]> {
  const rows: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(metadata)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isPlainObject(value) && Object.keys(value).length > 0) rows.push(...flattenMetadata(value, path));
    else rows.push([path, value]);
  }
  return rows;
}

function splitPath(path: string): string[] {
  return path.split('.').map((part) => part.trim());
}

/** A copy of the metadata with the value at `path` set, creating the maps on the way. */
export function setAtPath(metadata: Json, path: string, value: unknown): Json {
  const [head, ...rest] = splitPath(path);
  if (rest.length === 0) return { ...metadata, [head]: value };
  const inner = isPlainObject(metadata[head]) ? (metadata[head] as Json) : {};
  return { ...metadata, [head]: setAtPath(inner, rest.join('.'), value) };
}

/** A copy of the metadata without the value at `path`; a map left empty by the removal goes too. */
export function removeAtPath(metadata: Json, path: string): Json {
  const [head, ...rest] = splitPath(path);
  if (!(head in metadata)) return metadata;
  const copy = { ...metadata };
  if (rest.length === 0 || !isPlainObject(copy[head])) {
    delete copy[head];
    return copy;
  }
  const inner = removeAtPath(copy[head] as Json, rest.join('.'));
  if (Object.keys(inner).length === 0) delete copy[head];
  else copy[head] = inner;
  return copy;
}

/** Why a new path cannot be used (it is taken, sits under a plain value, or has an empty part), or null. */
export function pathProblem(metadata: Json, path: string): string | null {
  const parts = splitPath(path);
  if (parts.some((part) => part === '')) return `“${path}” has an empty part: write keys like links.jira.`;
  const taken = flattenMetadata(metadata).map(([p]) => p);
  if (taken.includes(path)) return `“${path}” is already a key: edit its value above.`;
  for (const existing of taken) {
    if (path.startsWith(`${existing}.`)) return `“${existing}” holds a value, so it cannot hold “${path}”.`;
    if (existing.startsWith(`${path}.`)) return `“${path}” already holds keys (${existing}).`;
  }
  return null;
}
