import type { TaskView } from '../types';

/** Card ids per column (status), in the server's order. */
export type ColumnOrder = Record<string, string[]>;

export interface TaskSet {
  tasks: Record<string, TaskView>;
  order: ColumnOrder;
}

/** Group a list in server order (column order, then position) into per-column id lists. */
export function taskSetFrom(list: TaskView[]): TaskSet {
  const tasks: Record<string, TaskView> = {};
  const order: ColumnOrder = {};
  for (const task of list) {
    tasks[task.id] = task;
    (order[task.status] ??= []).push(task.id);
  }
  // The list is sorted by position within a column already; sorting again guards against a
  // fuzzy search result order sneaking in.
  for (const ids of Object.values(order)) ids.sort((a, b) => tasks[a].position - tasks[b].position);
  return { tasks, order };
}

type Tasks = Record<string, TaskView>;

/**
 * Which card set each was made from, and the card changed: a reader that derives something from all
 * the cards (taskFacets.ts) can look at the changed cards alone instead of going through 10,000.
 */
const lineage = new WeakMap<Tasks, { base: Tasks; changed: string }>();

/** The ids of a card set, kept beside it: a copy that reuses them is several times faster than a spread. */
const idsOf = new WeakMap<Tasks, string[]>();

function idList(tasks: Tasks): string[] {
  let ids = idsOf.get(tasks);
  if (!ids) idsOf.set(tasks, (ids = Object.keys(tasks)));
  return ids;
}

/**
 * A new card set with one card replaced, added or removed. At 10,000 cards `{ ...tasks }` took
 * tens of milliseconds per change on a busy machine, on the path of every drop; copying along the
 * kept id list does the same in a fraction of it.
 */
function withTask(tasks: Tasks, id: string, task: TaskView | undefined): Tasks {
  const before = idList(tasks);
  const ids = task ? (id in tasks ? before : [...before, id]) : before.filter((other) => other !== id);
  const next: Tasks = {};
  for (const other of ids) next[other] = tasks[other];
  if (task) next[id] = task;
  idsOf.set(next, ids);
  lineage.set(next, { base: tasks, changed: id });
  return next;
}

/** The ids of the cards changed (added, replaced, removed) from `from` to `to`; null when unknown. */
export function changesSince(from: Tasks, to: Tasks, maxSteps = 64): string[] | null {
  const changed: string[] = [];
  let at = to;
  for (let step = 0; at !== from; step++) {
    const link = lineage.get(at);
    if (!link || step >= maxSteps) return null;
    changed.push(link.changed);
    at = link.base;
  }
  return changed;
}

function without(order: ColumnOrder, id: string, status: string | undefined): ColumnOrder {
  if (status === undefined || !order[status]?.includes(id)) return order;
  return { ...order, [status]: order[status].filter((other) => other !== id) };
}

/**
 * Put a card at `position` of its status column (the server's zero-based index among the column's
 * other cards). Applying events in revision order with this keeps every column in the server's order.
 */
export function placeTask(set: TaskSet, task: TaskView, position = task.position): TaskSet {
  const previous = set.tasks[task.id];
  const order = without(set.order, task.id, previous?.status);
  const column = order[task.status] ?? [];
  const at = Math.max(0, Math.min(position, column.length));
  const next = [...column.slice(0, at), task.id, ...column.slice(at)];
  return { tasks: withTask(set.tasks, task.id, task), order: { ...order, [task.status]: next } };
}

/** Replace a card's fields without moving it (its column and place stay). */
export function refreshTask(set: TaskSet, task: TaskView): TaskSet {
  const previous = set.tasks[task.id];
  // A slow answer must not undo a newer change that a live event already brought in.
  if (previous && previous.modified > task.modified) return set;
  if (!previous || previous.status !== task.status) return placeTask(set, task);
  return { ...set, tasks: withTask(set.tasks, task.id, task) };
}

export function removeTask(set: TaskSet, id: string): TaskSet {
  const previous = set.tasks[id];
  if (!previous) return set;
  return { tasks: withTask(set.tasks, id, undefined), order: without(set.order, id, previous.status) };
}

/**
 * The server `position` for a drop among the visible cards of a column. When a filter hides cards,
 * the drop lands just before the visible card it was dropped above (or just after the last one).
 */
export function serverPosition(
  fullColumn: string[],
  visibleColumn: string[],
  visibleIndex: number,
  movingId: string,
): number {
  const full = fullColumn.filter((id) => id !== movingId);
  const visible = visibleColumn.filter((id) => id !== movingId);
  if (visibleIndex < visible.length) return Math.max(0, full.indexOf(visible[visibleIndex]));
  if (visible.length === 0) return full.length;
  return full.indexOf(visible[visible.length - 1]) + 1;
}
