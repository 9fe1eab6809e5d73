import { useMemo } from 'preact/hooks';
import { useAppState, useController } from '../../context';
import { boardOfCard } from '../../state/checklistActions';
import type { TaskView } from '../../types';
import { Icon } from '../Icon';
import { BlockerPicker } from './BlockerPicker';

/** A card id as a link that opens the card, on whichever board it is. */
export function CardLink({ id, testId = 'dependency-link' }: { id: string; testId?: string }) {
  const ctrl = useController();
  const { tasks } = useAppState();
  const known = tasks[id];
  async function open() {
    const boardId = await boardOfCard(ctrl, id);
    if (boardId) await ctrl.openTask(boardId, id);
    else ctrl.toast('info', `No card "${id}" any more.`);
  }
  return (
    <button
      type="button"
      // A title reads as text; only a bare id (a card not loaded, or gone) is set in the mono face.
      class={known ? 'link-btn link-title' : 'link-btn'}
      data-testid={testId}
      data-card-id={id}
      title={id}
      onClick={() => void open()}
    >
      {known ? known.title : id}
    </button>
  );
}

/**
 * What the card waits for (blockedBy, editable: add with the picker, remove with ×) and what waits
 * for it (blocks), each a link to the card. `save` stores a new blocker list and answers the
 * server's words when it refuses, or null.
 */
export function DependenciesSection({
  task,
  save,
}: {
  task: TaskView;
  save(blockedBy: string[]): Promise<string | null>;
}) {
  const blockedBy = task.blockedBy ?? [];
  const blocks = task.blocks ?? [];
  const exclude = useMemo(() => new Set([task.id, ...blockedBy]), [task.id, blockedBy.join(',')]);
  const editable = task.status !== 'deleted';
  if (!editable && blockedBy.length === 0 && blocks.length === 0) return null;
  return (
    <section class="drawer-section drawer-dependencies" aria-label="Dependencies">
      <div data-testid="blocked-by-list">
        <h3 class="section-title">
          Blocked by{' '}
          {blockedBy.length > 0 &&
            (task.openBlockers > 0 ? (
              <span class="count is-blocked">{task.openBlockers} open</span>
            ) : (
              <span class="count">all done</span>
            ))}
        </h3>
        {blockedBy.length > 0 && (
          <ul class="dependency-list">
            {blockedBy.map((id) => (
              <li key={id} class="dependency-row">
                <CardLink id={id} />
                {editable && (
                  <button
                    type="button"
                    class="icon-btn"
                    data-testid="remove-blocker"
                    aria-label={`Remove blocker ${id}`}
                    title="No longer waits for this card"
                    onClick={() => void save(blockedBy.filter((other) => other !== id))}
                  >
                    <Icon name="close" size={12} />
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {editable && <BlockerPicker exclude={exclude} onAdd={(idish) => save([...blockedBy, idish])} />}
      </div>
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
