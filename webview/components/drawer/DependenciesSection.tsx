import { useAppState, useController } from '../../context';
import { boardOfCard } from '../../state/checklistActions';
import type { TaskView } from '../../types';

/** A card id as a link that opens the card, on whichever board it is. */
function CardLink({ id }: { id: string }) {
  const ctrl = useController();
  const { tasks } = useAppState();
  const known = tasks[id];
  async function open() {
    const boardId = await boardOfCard(ctrl, id);
    if (boardId) await ctrl.openTask(boardId, id);
    else ctrl.toast('info', `No card "${id}" any more.`);
  }
  return (
    <button type="button" class="link-btn" data-testid="dependency-link" data-card-id={id} title={id} onClick={() => void open()}>
      {known ? known.title : id}
    </button>
  );
}

/** What the card waits for (blockedBy) and what waits for it (blocks), each a link to the card. */
export function DependenciesSection({ task }: { task: TaskView }) {
  const blockedBy = task.blockedBy ?? [];
  const blocks = task.blocks ?? [];
  if (blockedBy.length === 0 && blocks.length === 0) return null;
  return (
    <section class="drawer-section drawer-dependencies" aria-label="Dependencies">
      {blockedBy.length > 0 && (
        <div data-testid="blocked-by-list">
          <h3 class="section-title">
            Blocked by {task.blocked ? <span class="count is-blocked">open</span> : <span class="count">all done</span>}
          </h3>
          <ul class="dependency-list">
            {blockedBy.map((id) => (
              <li key={id}>
                <CardLink id={id} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {blocks.length > 0 && (
        <div data-testid="blocks-list">
          <h3 class="section-title">Blocks</h3>
          <ul class="dependency-list">
            {blocks.map((id) => (
              <li key={id}>
                <CardLink id={id} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
