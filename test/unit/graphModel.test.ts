import { strict as assert } from 'node:assert';
import { DAGRE_LIMIT, layoutGraph } from '../../webview/graph/graphLayout';
import { componentsOf, connectedGraph, isReadyCard, narrowGraph } from '../../webview/graph/graphModel';
import { nestUnderParents } from '../../webview/state/tableRows';
import type { TaskView } from '../../webview/types';

function task(id: string, fields: Partial<TaskView> = {}): TaskView {
  return { id, title: id, status: 'todo', blockedBy: [], parent: null, openBlockers: 0, ...fields } as TaskView;
}

function tasksOf(...list: TaskView[]): Record<string, TaskView> {
  return Object.fromEntries(list.map((t) => [t.id, t]));
}

describe('graph view model: linked cards, filter, readiness, layout', () => {
  const tasks = tasksOf(
    task('a'),
    task('b', { blockedBy: ['a', 'elsewhere'], openBlockers: 1 }),
    task('p'),
    task('s', { parent: 'p', title: 'Write the notes' }),
    task('loose'),
    task('gone', { status: 'deleted', blockedBy: ['a'] }),
  );
  const ids = Object.keys(tasks);

  it('when cards link by blockedBy or parent, then only linked cards are nodes, and links to cards not shown are left out', () => {
    const graph = connectedGraph(ids, tasks);
    assert.deepEqual(graph.nodes, ['a', 'b', 'p', 's']);
    assert.deepEqual(graph.edges, [
      { from: 'a', to: 'b', kind: 'blocks' },
      { from: 'p', to: 's', kind: 'parent' },
    ]);
  });

  it('when the filter matches a title, then that card and its neighbours stay', () => {
    const graph = narrowGraph(connectedGraph(ids, tasks), tasks, 'NOTES');
    assert.deepEqual(graph.nodes, ['p', 's']);
    assert.equal(graph.edges.length, 1);
  });

  it('when a card has an open blocker or sits in the last column, then it is not ready', () => {
    assert.equal(isReadyCard(tasks.a, 'done'), true);
    assert.equal(isReadyCard(tasks.b, 'done'), false);
    assert.equal(isReadyCard(task('x', { status: 'done' }), 'done'), false);
  });

  it('when the data holds a cycle, then the groups and the layout still finish and place every card once', () => {
    const odd = tasksOf(
      task('x', { blockedBy: ['z'] }),
      task('y', { blockedBy: ['x'] }),
      task('z', { blockedBy: ['y'], parent: 'z' }),
    );
    const graph = connectedGraph(['x', 'y', 'z'], odd);
    assert.deepEqual(componentsOf(graph), [['x', 'y', 'z']]);
    const layout = layoutGraph(graph);
    assert.deepEqual(layout.nodes.map((n) => n.id).sort(), ['x', 'y', 'z']);
    assert.equal(layout.edges.length, 3);
  });

  it('when the graph is too big for dagre and holds a cycle, then the plain layout still places every card once, each after what it waits for', () => {
    const list = Array.from({ length: DAGRE_LIMIT + 50 }, (_, i) =>
      task(`c${i}`, { blockedBy: [i === 0 ? `c${DAGRE_LIMIT + 49}` : `c${i - 1}`] }),
    );
    const many = tasksOf(...list);
    const layout = layoutGraph(connectedGraph(Object.keys(many), many));
    assert.equal(new Set(layout.nodes.map((n) => n.id)).size, list.length);
    const x = new Map(layout.nodes.map((n) => [n.id, n.x]));
    assert.ok((x.get('c1') as number) < (x.get('c2') as number));
    assert.equal(layout.edges.length, list.length);
  });

  it('when groups are not linked, then they are laid out apart without overlapping', () => {
    const layout = layoutGraph(connectedGraph(ids, tasks));
    const boxes = layout.nodes.map((n) => ({ ...n, right: n.x + 190, bottom: n.y + 44 }));
    for (const one of boxes)
      for (const other of boxes) {
        if (one === other) continue;
        const overlap = one.x < other.right && other.x < one.right && one.y < other.bottom && other.y < one.bottom;
        assert.equal(overlap, false, `${one.id} overlaps ${other.id}`);
      }
  });

  it('when sub-cards are grouped under their parent in the table, then each follows its parent, and a cycle still lists every card once', () => {
    const rows = nestUnderParents(['s', 'a', 'p'], tasks);
    assert.deepEqual(rows, [
      { id: 'a', depth: 0 },
      { id: 'p', depth: 0 },
      { id: 's', depth: 1 },
    ]);
    const cycle = tasksOf(task('m', { parent: 'n' }), task('n', { parent: 'm' }));
    assert.deepEqual(
      nestUnderParents(['m', 'n'], cycle).map((r) => r.id),
      ['m', 'n'],
    );
  });
});
