import type { TaskView } from '../../types';
import { CardLink } from './DependenciesSection';

function LinkGroup({ title, ids, testId }: { title: string; ids: readonly string[]; testId: string }) {
  if (ids.length === 0) return null;
  return (
    <div data-testid={testId}>
      <h3 class="section-title">{title}</h3>
      <ul class="dependency-list">
        {ids.map((id) => (
          <li key={id}>
            <CardLink id={id} testId="relation-link" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The cards this one is linked to besides its blockers: its parent, related cards (both ways, the
 * read model's `related`) and duplicates either way. Each is a link that opens that card, on
 * whichever board it is. Hidden when there is none.
 */
export function RelationsSection({ task }: { task: TaskView }) {
  const related = task.related ?? [];
  const duplicateOf = task.duplicateOf ?? [];
  const duplicates = task.duplicates ?? [];
  if (!task.parent && related.length + duplicateOf.length + duplicates.length === 0) return null;
  return (
    <section class="drawer-section drawer-relations" aria-label="Linked cards">
      <LinkGroup title="Sub-card of" ids={task.parent ? [task.parent] : []} testId="parent-link" />
      <LinkGroup title="Related" ids={related} testId="related-list" />
      <LinkGroup title="Duplicate of" ids={duplicateOf} testId="duplicate-of-list" />
      <LinkGroup title="Duplicates" ids={duplicates} testId="duplicates-list" />
    </section>
  );
}
