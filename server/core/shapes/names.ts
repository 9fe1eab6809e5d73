/**
 * Component names of the shapes the API documents. A named schema becomes one entry of the OpenAPI
 * document's `components.schemas` and a `$ref` wherever it is used. The object itself is the key
 * (not a keyword inside it), so the schema stays plain JSON that ajv and the MCP tools take as is.
 */

const names = new Map<object, string>();

/** Registers a schema under a component name and returns it unchanged. */
export function named<T extends object>(name: string, schema: T): T {
  // Two schemas under one name would make the document's $ref point at the wrong one.
  if ([...names.values()].includes(name)) throw new Error(`response schema name "${name}" is used twice`);
  names.set(schema, name);
  return schema;
}

/** The component name of a schema, when it is one of the named ones. */
export function componentNameOf(schema: unknown): string | undefined {
  return typeof schema === 'object' && schema !== null ? names.get(schema) : undefined;
}
