import { strict as assert } from 'node:assert';
import { LIST_DEFAULTS, withListDefaults, withoutListDefaults } from '../../server/core/shapes/listDefaults';

describe('list defaults: what compact=true leaves out and the page puts back', () => {
  const full = {
    id: 'a-2026-01-01',
    title: 'A',
    assignee: null,
    labels: [],
    metadata: { team: 'core' },
    actions: {},
    cardState: { unread: false, open: true },
    children: { total: 0, done: 0 },
    claim: null,
  };

  it('when an entry is made compact and filled again, then it equals the entry with every default', () => {
    const compact = withoutListDefaults(full);
    assert.deepEqual(compact, {
      id: 'a-2026-01-01',
      title: 'A',
      metadata: { team: 'core' },
      actions: {},
      cardState: { unread: false, open: true },
    });
    assert.deepEqual(withListDefaults(compact), { ...LIST_DEFAULTS, ...full });
  });

  it('when two entries are filled, then they share no array or object, so changing one card changes no other', () => {
    const [a, b] = [withListDefaults({ id: 'a' }), withListDefaults({ id: 'b' })];
    a.labels.push('bug' as never);
    a.children.total = 3;
    assert.deepEqual(b.labels, []);
    assert.deepEqual(b.children, { total: 0, done: 0 });
    assert.deepEqual(LIST_DEFAULTS.labels, []);
  });
});
