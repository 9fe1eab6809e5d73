import { strict as assert } from 'node:assert';
import {
  boardOrderIds,
  nextSort,
  optionalColumns,
  parseSort,
  sortIds,
  visibleRange,
} from '../../webview/state/tableRows';
import type { Board, TaskView } from '../../webview/types';

const board = {
  id: 'b',
  name: 'B',
  columns: [
    { id: 'todo', name: 'To Do', color: '#000' },
    { id: 'done', name: 'Done', color: '#000' },
  ],
} as unknown as Board;

function task(id: string, fields: Partial<TaskView>): TaskView {
  return {
    id,
    title: id,
    status: 'todo',
    priority: 'medium',
    assignee: null,
    dueDate: null,
    labels: [],
    checklist: null,
    blockedBy: [],
    openBlockers: 0,
    modified: '2026-01-01T00:00:00.000Z',
    created: '2026-01-01T00:00:00.000Z',
    ...fields,
  } as TaskView;
}

const tasks: Record<string, TaskView> = {
  a: task('a', { title: 'Beta', dueDate: '2026-03-01', assignee: 'zoe', priority: 'low' }),
  b: task('b', { title: 'alpha', priority: 'critical' }),
  c: task('c', {
    title: 'Gamma',
    dueDate: '2026-01-15',
    status: 'done',
    assignee: 'Ann',
    checklist: { done: 1, total: 2 },
  }),
  d: task('d', { title: 'delta', status: 'deleted' }),
};
const order = { todo: ['a', 'b'], done: ['c'], deleted: ['d'] };

describe('table rows: order, sort and the drawn range (table view)', () => {
  it('when the table lists a board, then rows follow its columns in order, the Deleted ones only when shown, and the filter', () => {
    assert.deepEqual(boardOrderIds(board, order, false, null), ['a', 'b', 'c']);
    assert.deepEqual(boardOrderIds(board, order, true, null), ['a', 'b', 'c', 'd']);
    assert.deepEqual(boardOrderIds(board, order, false, new Set(['c', 'b'])), ['b', 'c']);
  });

  it('when sorted by title or priority, then the order is the list route\'s (case-insensitive title, critical first), reversed by "-"', () => {
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, parseSort('title'), board), ['b', 'a', 'c']);
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, parseSort('-title'), board), ['c', 'a', 'b']);
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, parseSort('priority'), board), ['b', 'c', 'a']);
  });

  it('when cards lack the sorted value, then they come last in both directions, in board order', () => {
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, parseSort('due'), board), ['c', 'a', 'b']);
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, parseSort('-due'), board), ['a', 'c', 'b']);
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, { field: 'assignee', descending: false }, board), ['c', 'a', 'b']);
    assert.deepEqual(sortIds(['a', 'b', 'c'], tasks, { field: 'checklist', descending: true }, board), ['c', 'a', 'b']);
  });

  it("when sorted by status, then by the board's column order; no sort keeps the board order", () => {
    assert.deepEqual(sortIds(['c', 'a', 'b'], tasks, { field: 'status', descending: false }, board), ['a', 'b', 'c']);
    assert.deepEqual(sortIds(['c', 'a'], tasks, null, board), ['c', 'a']);
  });

  it('when a header is clicked, then its column sorts ascending, and the same column again descending', () => {
    assert.deepEqual(nextSort(null, 'due'), { field: 'due', descending: false });
    assert.deepEqual(nextSort({ field: 'due', descending: false }, 'due'), { field: 'due', descending: true });
    assert.deepEqual(nextSort({ field: 'due', descending: true }, 'status'), { field: 'status', descending: false });
  });

  it('when some card has a checklist or blockers, then those columns show', () => {
    assert.deepEqual(optionalColumns(['a', 'b'], tasks), { checklist: false, blocked: false });
    assert.deepEqual(optionalColumns(['a', 'c'], tasks), { checklist: true, blocked: false });
  });

  it('when scrolled, then the drawn rows are those in view plus the margin, clamped to the list', () => {
    assert.deepEqual(visibleRange(0, 440, 44, 10_000, 8), [0, 18]);
    assert.deepEqual(visibleRange(44 * 5000, 440, 44, 10_000, 8), [4992, 5018]);
    assert.deepEqual(visibleRange(44 * 9990, 440, 44, 10_000, 8), [9982, 10_000]);
    assert.deepEqual(visibleRange(0, 440, 44, 0, 8), [0, 0]);
  });
});
