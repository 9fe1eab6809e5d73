import { strict as assert } from 'node:assert';
import { laneFields, laneKeyOf, lanesOf, parseGroupBy, type Grouping } from '../../webview/state/lanes';
import type { Labels, TaskView } from '../../webview/types';

const LABELS: Labels = {
  bug: { color: '#f00', group: 'type' },
  feature: { color: '#00f', group: 'type' },
  backend: { color: '#fa0' },
};

function card(fields: Partial<TaskView>): TaskView {
  return {
    id: 'c',
    title: 'C',
    status: 'todo',
    priority: 'medium',
    assignee: null,
    labels: [],
    metadata: {},
    ...fields,
  } as TaskView;
}

describe('Swimlanes: lanes and the fields a lane sets', () => {
  it('when a groupBy value is malformed, then there are no lanes', () => {
    assert.equal(parseGroupBy('labelGroup:'), null);
    assert.equal(parseGroupBy('metadata:  '), null);
    assert.equal(parseGroupBy('status'), null);
    assert.deepEqual(parseGroupBy('metadata:links.jira'), { kind: 'metadata', path: 'links.jira' });
  });

  it('when grouped by a label group, then every label of the group is a lane and a card without one is in the last', () => {
    const grouping: Grouping = { kind: 'labelGroup', group: 'type' };
    const cards = [card({ labels: ['backend', 'feature'] }), card({ labels: ['backend'] })];
    assert.deepEqual(
      lanesOf(grouping, cards, LABELS).map((l) => l.name),
      ['bug', 'feature', 'No type label'],
    );
    assert.equal(laneKeyOf(grouping, cards[0], LABELS), 'feature');
    assert.deepEqual(laneFields(grouping, cards[0], 'bug', LABELS), { labels: ['backend', 'bug'] });
    assert.deepEqual(laneFields(grouping, cards[0], '', LABELS), { labels: ['backend'] });
  });

  it('when grouped by a nested metadata key, then values keep their JSON type and the other keys stay', () => {
    const grouping: Grouping = { kind: 'metadata', path: 'links.jira' };
    const cards = [
      card({ metadata: { links: { jira: 'KB-1' }, estimate: 3 } }),
      card({ metadata: { links: { jira: 7 } } }),
    ];
    assert.deepEqual(
      lanesOf(grouping, cards, LABELS).map((l) => [l.key, l.name]),
      [
        ['7', '7'],
        ['"KB-1"', 'KB-1'],
        ['', 'No links.jira'],
      ],
    );
    assert.deepEqual(laneFields(grouping, cards[0], '7', LABELS), { metadata: { links: { jira: 7 }, estimate: 3 } });
    assert.deepEqual(laneFields(grouping, cards[0], '', LABELS), { metadata: { estimate: 3 } });
  });

  it('when grouped by assignee or priority, then the no-assignee lane clears it and every priority has a lane', () => {
    assert.deepEqual(laneFields({ kind: 'assignee' }, card({ assignee: 'Ada' }), '', LABELS), { assignee: null });
    assert.deepEqual(
      lanesOf({ kind: 'priority' }, [card({})], LABELS).map((l) => l.key),
      ['critical', 'high', 'medium', 'low'],
    );
  });
});
