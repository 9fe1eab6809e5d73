import { strict as assert } from 'node:assert';
import { environmentReference } from '../../server/storage/providerOptions';

describe('environmentReference: an option value that names an environment variable', () => {
  it('when a whole value is ${NAME}, then NAME is answered', () => {
    assert.equal(environmentReference('${KANBAN_DB_PASSWORD}'), 'KANBAN_DB_PASSWORD');
    assert.equal(environmentReference('${_x1}'), '_x1');
  });

  it('when the reference is part of a value, not a name, or not a string, then none is answered', () => {
    for (const value of ['pw${HOME}', '${HOME}/x', '${1ABC}', '${A-B}', '$HOME', '', 42, null, undefined])
      assert.equal(environmentReference(value), null, JSON.stringify(value));
  });
});
