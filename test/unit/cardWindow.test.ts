import { strict as assert } from 'node:assert';
import { offsetsOf, wholeWindow, windowOf } from '../../webview/state/cardWindow';
import { placeTask, refreshTask, taskSetFrom } from '../../webview/state/placement';
import { facetsOf } from '../../webview/state/taskFacets';
import type { TaskView } from '../../webview/types';

const ids = Array.from({ length: 1000 }, (_, i) => `card-${i}`);

function card(id: string, status: string, position: number, extra: Partial<TaskView> = {}): TaskView {
  return {
    id,
    status,
    position,
    title: id,
    labels: [],
    metadata: {},
    modified: '2026-01-01T00:00:00Z',
    ...extra,
  } as unknown as TaskView;
}

describe('Card windows of long columns', () => {
  it('when no card was measured, then each stands at the fallback height plus the gap', () => {
    const offsets = offsetsOf(ids, new Map(), 8, 92);
    assert.equal(offsets[1], 100);
    assert.equal(offsets[1000], 100_000);
  });

  it('when some cards were measured, then they keep their height and the others take the mean of the measured', () => {
    const offsets = offsetsOf(
      ['a', 'b', 'c'],
      new Map([
        ['a', 50],
        ['c', 150],
      ]),
      10,
      999,
    );
    assert.deepEqual([...offsets], [0, 60, 170, 330]);
  });

  it('when a column is scrolled to the middle, then the window covers the view and the margins, and the spaces add up to the rest', () => {
    const offsets = offsetsOf(ids, new Map(), 0, 100);
    const win = windowOf(offsets, 50_000, 1_000, 500);
    assert.deepEqual([win.start, win.end], [495, 515]);
    assert.equal(win.before, 49_500);
    assert.equal(win.after, 48_500);
  });

  it('when a column is at its top or its end, then the window stops at the first or the last card', () => {
    const offsets = offsetsOf(ids, new Map(), 0, 100);
    assert.deepEqual([windowOf(offsets, 0, 1_000, 500).start, windowOf(offsets, 0, 1_000, 500).before], [0, 0]);
    const end = windowOf(offsets, 99_000, 1_000, 500);
    assert.deepEqual([end.end, end.after], [1000, 0]);
    assert.deepEqual(wholeWindow(3), { start: 0, end: 3, before: 0, after: 0 });
  });
});

describe('Facets of the cards (filter and group-by menus)', () => {
  it('when a card only moves, then the facets are the same object; when its labels change, then they are new', () => {
    const set = taskSetFrom([
      card('a', 'todo', 0, { labels: ['bug'], assignee: 'ann' }),
      card('b', 'todo', 1, { metadata: { team: 'x' } }),
    ]);
    const first = facetsOf(set.tasks);
    assert.deepEqual(first, { agents: [], assignees: ['ann'], labelNames: ['bug'], metadataPaths: ['team'] });
    const moved = placeTask(set, { ...set.tasks.a, status: 'done', position: 0 });
    assert.equal(facetsOf(moved.tasks), first);
    const relabelled = refreshTask(moved, {
      ...moved.tasks.a,
      labels: ['bug', 'ux'],
      modified: '2026-01-02T00:00:00Z',
    });
    assert.deepEqual(facetsOf(relabelled.tasks).labelNames, ['bug', 'ux']);
  });

  it('when a card set comes from a fresh list, then the facets are computed from it', () => {
    facetsOf(taskSetFrom([card('a', 'todo', 0, { assignee: 'ann' })]).tasks);
    assert.deepEqual(facetsOf(taskSetFrom([card('a', 'todo', 0, { assignee: 'bob' })]).tasks).assignees, ['bob']);
  });
});
