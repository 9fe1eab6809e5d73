import { datePart } from '../../format';
import { DELETED_STATUS, type Board, type Labels, type TaskView } from '../../types';
import { CommitInput } from './CommitInput';
import { LabelPicker } from './LabelPicker';
import { usePending } from './usePending';
import { ColumnOptions, PriorityOptions } from '../Options';

/** Status, priority, assignee, due date and labels; each change is saved at once. */
export function FieldsSection({
  task,
  board,
  labels,
  save,
}: {
  task: TaskView;
  board: Board;
  labels: Labels;
  /** Saves onto the version the drawer shows; resolves with the stored card, or undefined when refused. */
  save(patch: Record<string, unknown>): Promise<TaskView | undefined>;
}) {
  const [status, chooseStatus] = usePending(task.status);
  const [priority, choosePriority] = usePending(task.priority as string);
  const [dueDate, chooseDueDate] = usePending(task.dueDate ? datePart(task.dueDate) : '');
  const [labelList, chooseLabels] = usePending(task.labels);

  function pick(event: Event, choose: (value: string, save: Promise<unknown>) => void, field: string) {
    const value = (event.target as HTMLSelectElement).value;
    choose(value, save({ [field]: value }));
  }

  return (
    <section class="drawer-section drawer-fields" aria-label="Fields">
      <label class="field">
        <span class="field-label">Status</span>
        <select class="input" name="status" value={status} onChange={(e) => pick(e, chooseStatus, 'status')}>
          {task.status === DELETED_STATUS && (
            <option value={DELETED_STATUS} disabled>
              Deleted
            </option>
          )}
          {!board.columns.some((c) => c.id === task.status) && task.status !== DELETED_STATUS && (
            <option value={task.status}>{task.status}</option>
          )}
          <ColumnOptions columns={board.columns} />
        </select>
      </label>
      <label class="field">
        <span class="field-label">Priority</span>
        <select
          class={`input priority-select priority-${priority}`}
          name="priority"
          value={priority}
          onChange={(e) => pick(e, choosePriority, 'priority')}
        >
          <PriorityOptions />
        </select>
      </label>
      <div class="field">
        <span class="field-label">Assignee</span>
        <CommitInput
          name="assignee"
          label="Assignee"
          placeholder="Nobody"
          value={task.assignee ?? ''}
          onCommit={(v) => void save({ assignee: v.trim() || null })}
        />
      </div>
      <div class="field">
        <span class="field-label">Due date</span>
        <div class="drawer-inline">
          <input
            class="input"
            type="date"
            name="dueDate"
            aria-label="Due date"
            value={dueDate}
            onChange={(e) => {
              const v = (e.target as HTMLInputElement).value;
              chooseDueDate(v, save({ dueDate: v || null }));
            }}
          />
          {dueDate && (
            <button
              type="button"
              class="btn btn-sm btn-ghost"
              onClick={() => chooseDueDate('', save({ dueDate: null }))}
            >
              Clear
            </button>
          )}
        </div>
      </div>
      <div class="field">
        <span class="field-label">Labels</span>
        <LabelPicker
          selected={labelList}
          labels={labels}
          onChange={(next) => chooseLabels(next, save({ labels: next }))}
        />
      </div>
    </section>
  );
}
