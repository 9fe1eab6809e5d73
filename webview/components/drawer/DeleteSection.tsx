import { useState } from 'preact/hooks';
import { useController } from '../../context';
import { afterRemovalTarget } from '../../focusTargets';
import { returnFocusTo } from '../../keptFocus';
import { archiveCard, deleteCardPermanently, restoreCard, softDeleteCard } from '../../state/taskActions';
import { DELETED_STATUS, type Board, type TaskView } from '../../types';
import { ConfirmButton } from '../ConfirmButton';
import { Icon } from '../Icon';
import { ColumnOptions } from '../Options';

/** Archive and soft delete (each with Undo in the toast), restore out of the deleted column, and permanent delete. */
export function DeleteSection({ task, board }: { task: TaskView; board: Board }) {
  const ctrl = useController();
  const deleted = task.status === DELETED_STATUS;
  const [target, setTarget] = useState(board.defaultStatus ?? board.columns[0]?.id ?? '');
  return (
    <section class="drawer-section drawer-danger" aria-label="Delete">
      {deleted ? (
        <div class="drawer-inline">
          <select
            class="input"
            name="restoreTo"
            aria-label="Restore to column"
            value={target}
            onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}
          >
            <ColumnOptions columns={board.columns} />
          </select>
          <button type="button" class="btn btn-sm" onClick={() => void restoreCard(ctrl, task.id, target)}>
            <Icon name="restore" size={14} /> Restore
          </button>
        </div>
      ) : (
        <>
          <button
            type="button"
            class="btn btn-sm"
            data-testid="archive-card"
            onClick={() => (returnFocusTo(ctrl, afterRemovalTarget(ctrl, task.id)), void archiveCard(ctrl, task.id))}
          >
            <Icon name="archive" size={14} /> Archive
          </button>
          <button
            type="button"
            class="btn btn-sm btn-danger-ghost"
            onClick={() => (returnFocusTo(ctrl, afterRemovalTarget(ctrl, task.id)), void softDeleteCard(ctrl, task.id))}
          >
            <Icon name="trash" size={14} /> Delete
          </button>
        </>
      )}
      <ConfirmButton
        class="btn btn-sm btn-danger-ghost"
        question="Delete the card and its files for good?"
        confirmLabel="Delete permanently"
        onConfirm={() => void deleteCardPermanently(ctrl, task.id)}
      >
        Delete permanently…
      </ConfirmButton>
    </section>
  );
}
