import { useEffect, useState } from 'preact/hooks';
import type { TaskView } from '../types';
import { facetsOf, knownFacetsOf, type TaskFacets } from '../state/taskFacets';

const NONE: TaskFacets = { assignees: [], labelNames: [], metadataPaths: [], agents: [] };

/**
 * The facets of the cards for a menu. When they are known at once (the same cards, or only moves
 * since) they are used as they are; otherwise they are worked out after the board is drawn, and the
 * menu shows the last ones until then. Going through 10,000 cards (metadata flattened) took about
 * a tenth of the first render of a large board, for menus nobody has opened yet.
 */
export function useFacets(tasks: Record<string, TaskView>): TaskFacets {
  const known = knownFacetsOf(tasks);
  const [late, setLate] = useState<TaskFacets>(NONE);
  // Preact runs effects after the browser has painted.
  useEffect(() => {
    if (!known) setLate(facetsOf(tasks));
  }, [tasks]);
  return known ?? late;
}
