import { strict as assert } from 'node:assert';
import { Type } from '@sinclair/typebox';
import { buildOpenApi } from '../../server/api/openapi';
import { allRoutes } from '../../server/api/routes';
import { named } from '../../server/core/shapes/names';

type Schema = { properties?: Record<string, Schema>; items?: Schema; $ref?: string; description?: string };

function component(name: string): Schema {
  const doc = buildOpenApi(allRoutes) as { components: { schemas: Record<string, Schema> } };
  const schema = doc.components.schemas[name];
  assert.ok(schema, `components.schemas.${name} is missing`);
  return schema;
}

describe('read-model shapes: one schema, named once, referred to everywhere', () => {
  it('when a second schema takes a component name already in use, then it is refused', () => {
    named('ShapesTestOnlyName', Type.Object({}));
    assert.throws(() => named('ShapesTestOnlyName', Type.Object({})), /used twice/);
  });

  it('when a card list entry is documented, then its nested shapes refer to their components', () => {
    const entry = component('TaskListEntry');
    assert.equal(entry.properties?.cardState.$ref, '#/components/schemas/CardState');
  });

  it('when a single card is documented, then comments and task list items are required and filePath is not', () => {
    const task = component('Task') as Schema & { required: string[] };
    assert.ok(task.required.includes('comments') && task.required.includes('checklistItems'));
    assert.ok(!task.required.includes('filePath'));
    assert.equal(task.properties?.comments.items?.$ref, '#/components/schemas/Comment');
  });
});
