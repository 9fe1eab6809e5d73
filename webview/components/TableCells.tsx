import { datePart, dateTime, isDueToday, isOverdue } from '../format';
import { useIsDoneColumn } from '../context';
import { DELETED_STATUS, PRIORITIES, type Board, type Labels, type TaskView } from '../types';
import { LabelChip } from './CardView';
import { CommitInput } from './drawer/CommitInput';
import { usePending } from './drawer/usePending';
import { Icon } from './Icon';

/** Saves one field of one card; resolves with the stored card, or undefined when nothing was saved. */
export type SaveField = (taskId: string, patch: Record<string, unknown>) => Promise<TaskView | undefined>;

/** Column names with their card count and WIP limit, so a status pick shows where the limit stands. */
function statusName(board: Board, counts: Record<string, number>, id: string): string {
  const column = board.columns.find((c) => c.id === id);
  if (!column) return id;
  return column.wipLimit ? `${column.name} (${counts[id] ?? 0}/${column.wipLimit})` : column.name;
}

export function StatusCell({
  task,
  board,
  counts,
  save,
}: {
  task: TaskView;
  board: Board;
  counts: Record<string, number>;
  save: SaveField;
}) {
  const [status, choose] = usePending(task.status);
  const color = board.columns.find((c) => c.id === status)?.color ?? '#9ca3af';
  if (task.status === DELETED_STATUS) return <span class="table-muted">Deleted</span>;
  return (
    <span class="table-status" style={{ '--status-color': color }}>
      <select
        class="table-input"
        name="status"
        aria-label={`Status of ${task.title}`}
        value={status}
        onChange={(e) => {
          const value = (e.target as HTMLSelectElement).value;
          choose(value, save(task.id, { status: value }));
        }}
      >
        {!board.columns.some((c) => c.id === task.status) && <option value={task.status}>{task.status}</option>}
        {board.columns.map((c) => (
          <option key={c.id} value={c.id}>
            {statusName(board, counts, c.id)}
          </option>
        ))}
      </select>
    </span>
  );
}

export function PriorityCell({ task, save }: { task: TaskView; save: SaveField }) {
  const [priority, choose] = usePending(task.priority as string);
  return (
    <select
      class={`table-input table-priority priority-${priority}`}
      name="priority"
      aria-label={`Priority of ${task.title}`}
      value={priority}
      onChange={(e) => {
        const value = (e.target as HTMLSelectElement).value;
        choose(value, save(task.id, { priority: value }));
      }}
    >
      {PRIORITIES.map((p) => (
        <option key={p} value={p}>
          {p}
        </option>
      ))}
    </select>
  );
}

/** Typed, saved on Enter or leaving the field; the board's assignees are offered (datalist). */
export function AssigneeCell({ task, save }: { task: TaskView; save: SaveField }) {
  return (
    <CommitInput
      class="table-input"
      name="assignee"
      label={`Assignee of ${task.title}`}
      placeholder="Nobody"
      value={task.assignee ?? ''}
      list="table-assignees"
      onCommit={(value) => void save(task.id, { assignee: value.trim() || null })}
    />
  );
}

export function DueCell({ task, save }: { task: TaskView; save: SaveField }) {
  const [due, choose] = usePending(task.dueDate ? datePart(task.dueDate) : '');
  const overdue = isOverdue(task.dueDate, useIsDoneColumn(task.status));
  const state = overdue ? ' is-overdue' : isDueToday(task.dueDate) ? ' is-today' : '';
  return (
    <input
      class={`table-input table-due${state}${due ? '' : ' is-empty'}`}
      type="date"
      name="dueDate"
      aria-label={`Due date of ${task.title}`}
      title={overdue ? `Overdue: due ${task.dueDate}` : undefined}
      value={due}
      onChange={(e) => {
        const value = (e.target as HTMLInputElement).value;
        choose(value, save(task.id, { dueDate: value || null }));
      }}
    />
  );
}

/** The card's labels as chips; the button opens the table's one label editor beside it. */
export function LabelsCell({
  task,
  labels,
  onEdit,
}: {
  task: TaskView;
  labels: Labels;
  onEdit(taskId: string, anchor: HTMLElement): void;
}) {
  return (
    <button
      type="button"
      class="table-labels"
      data-testid="table-labels"
      aria-label={`Labels of ${task.title}: ${task.labels.join(', ') || 'none'}. Change`}
      onClick={(e) => onEdit(task.id, e.currentTarget as HTMLElement)}
    >
      {task.labels.length ? (
        task.labels.map((name) => <LabelChip key={name} name={name} labels={labels} />)
      ) : (
        <span class="table-muted">Add…</span>
      )}
    </button>
  );
}

export function ChecklistCell({ task }: { task: TaskView }) {
  if (!task.checklist) return null;
  const { done, total } = task.checklist;
  return (
    <span
      class={`chip checklist-chip${done === total ? ' is-complete' : ''}`}
      data-testid="checklist-chip"
      title={`Checklist: ${done} of ${total} done`}
    >
      <Icon name="check" size={12} />
      {done}/{total}
    </span>
  );
}

export function BlockedCell({ task }: { task: TaskView }) {
  if (task.openBlockers === 0) return null;
  return (
    <span
      class="chip blocked-badge"
      data-testid="blocked-badge"
      title={`Waits for ${task.openBlockers} open card(s); ready when each is done or archived`}
    >
      blocked by {task.openBlockers}
    </span>
  );
}

export function ModifiedCell({ task }: { task: TaskView }) {
  return (
    <span class="table-muted" title={task.modified}>
      {dateTime(task.modified)}
    </span>
  );
}
