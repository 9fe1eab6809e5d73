import { useController } from '../../context';
import { restoreCard } from '../../state/taskActions';
import { Icon } from '../Icon';

/** On a card in the deleted column: put it back on the board (its default column) in one click. */
export function RestoreButton({ taskId }: { taskId: string }) {
  const ctrl = useController();
  return (
    <button type="button" class="btn btn-sm btn-ghost card-restore" onClick={() => void restoreCard(ctrl, taskId)}>
      <Icon name="restore" size={12} /> Restore
    </button>
  );
}
