import { useController } from '../../context';
import { cardActionsOf, runCardAction } from '../../state/drawerActions';
import type { TaskView } from '../../types';
import { Icon } from '../Icon';

/** One button per action the card offers; the server fires the action's webhook. */
export function ActionsSection({ task }: { task: TaskView }) {
  const ctrl = useController();
  const actions = cardActionsOf(task);
  if (actions.length === 0) return null;
  return (
    <section class="drawer-section" aria-label="Actions">
      <h3 class="section-title">Actions</h3>
      <div class="drawer-actions">
        {actions.map((action) => (
          <button
            key={action.key}
            type="button"
            class="btn btn-sm"
            data-action={action.key}
            onClick={() => void runCardAction(ctrl, task, action)}
          >
            <Icon name="bolt" size={14} /> {action.title}
          </button>
        ))}
      </div>
    </section>
  );
}
