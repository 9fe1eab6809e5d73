import type { TaskView } from '../types';
import { metadataPathsOf } from './lanes';
import { changesSince } from './placement';

/** What the filter and group-by menus offer, taken from the cards: assignees, label names, metadata keys, agents. */
export interface TaskFacets {
  assignees: string[];
  labelNames: string[];
  metadataPaths: string[];
  /** Agents holding a claim or showing a session on a card. */
  agents: string[];
}

type Tasks = Record<string, TaskView>;

let last: { tasks: Tasks; facets: TaskFacets } | null = null;

function facetKey(task: TaskView): string {
  return `${task.assignee ?? ''}\u0000${task.labels.join('\u0001')}\u0000${JSON.stringify(task.metadata ?? {})}\u0000${task.claim?.agent ?? ''}\u0000${task.session?.agent ?? ''}`;
}

/** True when the cards changed since `before` (if known) kept their assignee, labels, metadata and agents. */
function sameFacets(before: Tasks, after: Tasks): boolean {
  const changed = changesSince(before, after);
  return (
    changed !== null &&
    changed.every(
      (id) => before[id] !== undefined && after[id] !== undefined && facetKey(before[id]) === facetKey(after[id]),
    )
  );
}

function compute(tasks: Tasks): TaskFacets {
  const all = Object.values(tasks);
  return {
    assignees: [...new Set(all.map((t) => t.assignee).filter((a): a is string => Boolean(a)))].sort(),
    labelNames: [...new Set(all.flatMap((t) => t.labels))].sort(),
    metadataPaths: metadataPathsOf(all),
    agents: [
      ...new Set(all.flatMap((t) => [t.claim?.agent, t.session?.agent]).filter((a): a is string => Boolean(a))),
    ].sort(),
  };
}

/**
 * The facets of a card set. Every move, edit and live event makes a new card set; at 10,000 cards
 * going through all of them (metadata flattened) cost tens of milliseconds per change, on the path
 * of every drop. When the cards changed since the last answer are known (placement.ts) and kept
 * their assignee, labels and metadata (a move), the last answer stays, the same object, so menus
 * built from it are not rebuilt.
 */
export function facetsOf(tasks: Tasks): TaskFacets {
  const known = knownFacetsOf(tasks);
  if (known) return known;
  last = { tasks, facets: compute(tasks) };
  return last.facets;
}

/** The facets of a card set when they are known without going through it (see facetsOf), else null. */
export function knownFacetsOf(tasks: Tasks): TaskFacets | null {
  if (!last || (last.tasks !== tasks && !sameFacets(last.tasks, tasks))) return null;
  last = { tasks, facets: last.facets };
  return last.facets;
}
