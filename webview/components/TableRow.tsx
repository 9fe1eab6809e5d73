import { memo } from 'preact/compat';
import type { Board, Labels, TaskView } from '../types';
import {
  AssigneeCell,
  BlockedCell,
  ChecklistCell,
  DueCell,
  LabelsCell,
  ModifiedCell,
  PriorityCell,
  StatusCell,
  type SaveField,
} from './TableCells';
import type { TableColumn } from './TableHeader';

export interface TableRowProps {
  task: TaskView;
  /** How deep a sub-card sits under its parent row (0: a top row), when sub-cards are grouped. */
  depth?: number;
  /** Zero-based place among the rows (the header is row 1 for assistive technology). */
  index: number;
  /** Offset from the top of the rows, in px. */
  top: number;
  columns: TableColumn[];
  board: Board;
  labels: Labels;
  counts: Record<string, number>;
  /** The one row in the tab order (roving focus): arrows move it. */
  tabbable: boolean;
  save: SaveField;
  onEditLabels(taskId: string, anchor: HTMLElement): void;
  onFocus(taskId: string): void;
}

function Cell({ row, column }: { row: TableRowProps; column: TableColumn }) {
  const { task, board, labels, counts, save } = row;
  switch (column.field) {
    case 'title':
      return (
        <span
          class={`table-title card-title${row.depth ? ' is-sub-card' : ''}`}
          style={row.depth ? { paddingLeft: `${row.depth * 18}px` } : undefined}
          data-depth={row.depth ?? 0}
        >
          {task.title || task.id}
        </span>
      );
    case 'status':
      return <StatusCell task={task} board={board} counts={counts} save={save} />;
    case 'priority':
      return <PriorityCell task={task} save={save} />;
    case 'assignee':
      return <AssigneeCell task={task} save={save} />;
    case 'due':
      return <DueCell task={task} save={save} />;
    case 'labels':
      return <LabelsCell task={task} labels={labels} onEdit={row.onEditLabels} />;
    case 'checklist':
      return <ChecklistCell task={task} />;
    case 'blocked':
      return <BlockedCell task={task} />;
    case 'modified':
      return <ModifiedCell task={task} />;
  }
}

/** One card as a row, placed at its offset; drawn again only when its card or place changes. */
export const TableRow = memo(function TableRow(props: TableRowProps) {
  const { task, index, top, columns, tabbable } = props;
  const classes = `table-row priority-${task.priority}${task.cardState?.unread ? ' is-unread' : ''}`;
  return (
    <div
      class={classes}
      role="row"
      aria-rowindex={index + 2}
      aria-label={task.title || task.id}
      data-card-id={task.id}
      tabIndex={tabbable ? 0 : -1}
      style={{ transform: `translateY(${top}px)` }}
      onFocus={(e) => e.target === e.currentTarget && props.onFocus(task.id)}
    >
      {columns.map((c, i) => (
        <div key={c.field} class={`table-cell cell-${c.field}`} role="gridcell" aria-colindex={i + 1}>
          <Cell row={props} column={c} />
        </div>
      ))}
    </div>
  );
});
