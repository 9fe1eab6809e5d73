import { useController } from '../../context';
import { datePart } from '../../format';
import { updateCard } from '../../state/taskActions';
import { DELETED_STATUS, PRIORITIES, type Board, type Labels, type TaskView } from '../../types';
import { CommitInput } from './CommitInput';
import { LabelPicker } from './LabelPicker';

/** Status, priority, assignee, due date and labels; each change is saved at once. */
export function FieldsSection({ task, board, labels, onSaved }: {
  task: TaskView;
  board: Board;
  labels: Labels;
  onSaved(task: TaskView): void;
}) {
  const ctrl = useController();

  async function save(patch: Record<string, unknown>) {
    const saved = await updateCard(ctrl, task.id, patch);
    if (saved) onSaved(saved);
  }

  return (
    <section class="drawer-section drawer-fields" aria-label="Fields">
      <label class="field">
        <span class="field-label">Status</span>
        <select class="input" name="status" value={task.status} onChange={(e) => void save({ status: (e.target as HTMLSelectElement).value })}>
          {task.status === DELETED_STATUS && (
            <option value={DELETED_STATUS} disabled>
              Deleted
            </option>
          )}
          {!board.columns.some((c) => c.id === task.status) && task.status !== DELETED_STATUS && <option value={task.status}>{task.status}</option>}
          {board.columns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span class="field-label">Priority</span>
        <select class={`input priority-select priority-${task.priority}`} name="priority" value={task.priority} onChange={(e) => void save({ priority: (e.target as HTMLSelectElement).value })}>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <div class="field">
        <span class="field-label">Assignee</span>
        <CommitInput name="assignee" label="Assignee" placeholder="Nobody" value={task.assignee ?? ''} onCommit={(v) => void save({ assignee: v.trim() || null })} />
      </div>
      <div class="field">
        <span class="field-label">Due date</span>
        <div class="drawer-inline">
          <input
            class="input"
            type="date"
            name="dueDate"
            aria-label="Due date"
            value={task.dueDate ? datePart(task.dueDate) : ''}
            onChange={(e) => void save({ dueDate: (e.target as HTMLInputElement).value || null })}
          />
          {task.dueDate && (
            <button type="button" class="btn btn-sm btn-ghost" onClick={() => void save({ dueDate: null })}>
              Clear
            </button>
          )}
        </div>
      </div>
      <div class="field">
        <span class="field-label">Labels</span>
        <LabelPicker selected={task.labels} labels={labels} onChange={(next) => void save({ labels: next })} />
      </div>
    </section>
  );
}
