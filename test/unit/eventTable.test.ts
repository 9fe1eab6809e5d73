import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { EVENT_TABLE } from '../../server/core/eventPayloads';
import { EVENT_NAMES, isValidSubscription } from '../../server/core/events';

interface PayloadSchema {
  properties?: Record<string, unknown>;
  required?: string[];
  anyOf?: PayloadSchema[];
  $ref?: string;
}

/** The `data` column of the docs: each field, `?` when optional, variants joined by "or". */
function documentedFields(schema: PayloadSchema): string {
  if (schema.anyOf) return schema.anyOf.map(documentedFields).join(' or ');
  if (schema.$ref) return `the ${schema.$ref.split('/').pop()} read model's fields`;
  const required = new Set(schema.required ?? []);
  const keys = Object.keys(schema.properties ?? {}).filter((key) => key !== 'external' && key !== 'peer');
  if (!keys.length) return 'none';
  return keys.map((key) => `\`${key}${required.has(key) ? '' : '?'}\``).join(', ');
}

function marksOrigin(schema: PayloadSchema): boolean {
  return (schema.anyOf ?? [schema]).some((variant) => variant.properties?.peer !== undefined);
}

/** Event, card and data columns of the table in docs/api.md, in its order. */
function docsRows(): string[][] {
  const text = readFileSync(path.join(__dirname, '../../docs/api.md'), 'utf8');
  const section = text.slice(text.indexOf('### Events and their data'));
  return section
    .split('\n')
    .filter((line) => /^\| `[a-z.]+` \|/.test(line))
    .map((line) => line.split(' | ').slice(0, 3))
    .map(([event, card, data]) => [event.replace(/^\| /, ''), card, data]);
}

describe('unit: the event table', () => {
  it('when the event names are listed, then they are the keys of the table, in its order', () => {
    assert.deepEqual([...EVENT_NAMES], Object.keys(EVENT_TABLE));
    assert.ok(EVENT_NAMES.every((name) => isValidSubscription(name)));
  });

  it('when docs/api.md lists the events, then it names exactly the events of the table, each with its card flag and data fields', () => {
    const expected = Object.entries(EVENT_TABLE).map(([name, spec]) => {
      const schema = spec.data as PayloadSchema;
      const origin = marksOrigin(schema) ? ' (+ origin)' : '';
      return [`\`${name}\``, spec.card ? 'yes' : 'no', documentedFields(schema) + origin];
    });
    assert.deepEqual(docsRows(), expected);
  });
});
