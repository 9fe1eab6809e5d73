import { isDeepStrictEqual } from 'node:util';
import type { BoardConfig, Column } from '../core/model';

/**
 * A board change made on `before` and written over `theirs`, a newer board another instance wrote
 * meanwhile (a shared database): the parts this change touched are taken from `mine`, the rest from
 * `theirs`. Columns, board actions and minimized columns merge item by item, so a column added on
 * one instance is not undone by a column added on another at the same moment.
 */
export function mergeBoard(before: BoardConfig, mine: BoardConfig, theirs: BoardConfig): BoardConfig {
  const merged: Record<string, unknown> = { ...theirs };
  const keys = new Set([...Object.keys(before), ...Object.keys(mine)]) as Set<keyof BoardConfig>;
  for (const key of keys) {
    if (isDeepStrictEqual(mine[key], before[key])) continue;
    if (key === 'columns') merged.columns = mergeColumns(before.columns, mine.columns, theirs.columns);
    else if (key === 'actions') merged.actions = mergeRecord(before.actions, mine.actions, theirs.actions ?? {});
    else if (key === 'minimizedColumnIds')
      merged.minimizedColumnIds = mergeSet(
        before.minimizedColumnIds,
        mine.minimizedColumnIds,
        theirs.minimizedColumnIds ?? [],
      );
    else if (mine[key] === undefined) delete merged[key];
    else merged[key] = mine[key];
  }
  return merged as unknown as BoardConfig;
}

function mergeColumns(before: Column[], mine: Column[], theirs: Column[]): Column[] {
  const was = new Map(before.map((c) => [c.id, c]));
  const now = new Map(mine.map((c) => [c.id, c]));
  const result = theirs
    .filter((c) => !(was.has(c.id) && !now.has(c.id)))
    .map((c) => {
      const changed = now.get(c.id);
      return changed && !isDeepStrictEqual(changed, was.get(c.id)) ? changed : c;
    });
  for (const column of mine) if (!was.has(column.id) && !result.some((c) => c.id === column.id)) result.push(column);
  // A reorder (the same columns in another order) keeps its order; columns it did not know go last.
  const kept = mine.filter((c) => was.has(c.id)).map((c) => c.id);
  const order = before.filter((c) => now.has(c.id)).map((c) => c.id);
  if (isDeepStrictEqual(kept, order)) return result;
  const rank = (id: string) => (now.has(id) ? mine.findIndex((c) => c.id === id) : mine.length);
  return result
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c.id) - rank(b.c.id) || a.i - b.i)
    .map(({ c }) => c);
}

function mergeRecord(
  before: Record<string, string>,
  mine: Record<string, string>,
  theirs: Record<string, string>,
): Record<string, string> {
  const result = { ...theirs };
  for (const key of Object.keys(before)) if (!(key in mine)) delete result[key];
  for (const [key, value] of Object.entries(mine)) if (before[key] !== value) result[key] = value;
  return result;
}

function mergeSet(before: string[], mine: string[], theirs: string[]): string[] {
  const removed = new Set(before.filter((id) => !mine.includes(id)));
  const result = theirs.filter((id) => !removed.has(id));
  for (const id of mine) if (!before.includes(id) && !result.includes(id)) result.push(id);
  return result;
}
