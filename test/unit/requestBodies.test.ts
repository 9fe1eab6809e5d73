import { strict as assert } from 'node:assert';
import { Kind } from '@sinclair/typebox';
import { allRoutes } from '../../server/api/routes';
import { validateBody } from '../../server/api/validation';
import { MoveBody, TaskUpdateBody } from '../../server/core/shapes/requests/tasks';
import { ColumnBody } from '../../server/core/shapes/requests/boards';

describe('request bodies', () => {
  it('when a route takes a JSON body, then its schema is a shared request shape, not one written inline', () => {
    const inline = allRoutes
      .filter((route) => route.body && !(Kind in route.body))
      .map((route) => `${route.method} ${route.path}`);
    assert.deepEqual(inline, []);
  });

  it('when a body carries a field its schema does not list, then it is refused naming the field', () => {
    assert.throws(() => validateBody(TaskUpdateBody, { priorty: 'high' }), /priorty/);
    assert.throws(() => validateBody(MoveBody, { status: 'done', colour: 'red' }), /colour/);
  });

  it('when a nullable field is sent as null or a free-form field with any keys, then it is accepted', () => {
    validateBody(TaskUpdateBody, { assignee: null, dueDate: null, blockedBy: null, metadata: { any: { deep: 1 } } });
    validateBody(ColumnBody, { id: 'doing', name: 'Doing', wipLimit: null });
  });

  it('when a bound of the schema is crossed, then the body is refused', () => {
    assert.throws(() => validateBody(ColumnBody, { id: 'doing', name: 'Doing', wipLimit: 0 }), /wipLimit/);
    assert.throws(() => validateBody(MoveBody, { status: 'done', position: -1 }), /position/);
    assert.throws(() => validateBody(TaskUpdateBody, { priority: 'urgent' }), /priority/);
  });
});
