import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { filterIsActive } from '../types';
import { saveTableEdit } from '../state/tableEdits';
import {
  ROUTE_SORT,
  boardOrderIds,
  nestUnderParents,
  nextSort,
  optionalColumns,
  parseSort,
  sortIds,
  sortText,
  visibleRange,
  type TableField,
  type TableSort,
} from '../state/tableRows';
import { CardMenu } from './CardMenu';
import { QuickAdd } from './QuickAdd';
import { TableHeader, columnsOf, minWidthOf, templateOf, type TableColumn } from './TableHeader';
import { TableRow } from './TableRow';
import { TableLabelEditor, type LabelEditorAt } from './TableLabelEditor';
import { useViewport } from './useViewport';
import { useInTurn } from './useInTurn';

/** Every row is this tall (px), so a row's place is its index times this: no measuring, no jumps. */
export const ROW_HEIGHT = 44;
/** Rows drawn above and below the visible ones, so a fast scroll does not show blank space. */
const MARGIN_ROWS = 8;

/** The sort shown: a list-route value from the view state, else a client-only column of this table. */
function useTableSort(): [TableSort | null, (field: TableField) => void] {
  const ctrl = useController();
  const { sort } = useAppState();
  const [local, setLocal] = useState<TableSort | null>(null);
  const current = parseSort(sort) ?? local;
  const toggle = useCallback(
    (field: TableField) => {
      const next = nextSort(current, field);
      const routeValue = ROUTE_SORT[field] !== undefined;
      // Route values go to the shared view state (saved views, links); the others stay here.
      setLocal(routeValue ? null : next);
      ctrl.store.set({ sort: routeValue ? sortText(next) : '' });
    },
    [ctrl, current],
  );
  return [current, toggle];
}

/**
 * The board's cards as rows: sortable columns, inline edits, the board's filter, and only the rows
 * in view drawn (a spacer as tall as all rows keeps the scroll bar true), so 10,000 cards scroll
 * smoothly. Arrow keys move the row focus, Enter opens the card.
 */
export function TableView() {
  const ctrl = useController();
  const state = useAppState();
  const { board, tasks, order, settings, labels, matches, filter, quickAddStatus } = state;
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const { scrollTop, height } = useViewport(box);
  const [sort, toggleSort] = useTableSort();
  const [focusId, setFocusId] = useState<string | null>(null);
  const [labelEditor, setLabelEditor] = useState<LabelEditorAt | null>(null);
  const inTurn = useInTurn();
  const focusWanted = useRef<string | null>(null);

  const filtering = filterIsActive(filter) && matches !== null;
  const allIds = useMemo(
    () => (board ? boardOrderIds(board, order, settings.showDeletedColumn, null) : []),
    [board, order, settings.showDeletedColumn],
  );
  const [nested, setNested] = useState(() => ctrl.preference('tableSubCardsNested') === true);
  const nestedRows = useMemo(() => {
    const shown = filtering ? allIds.filter((id) => matches.has(id)) : allIds;
    const sorted = board ? sortIds(shown, tasks, sort, board) : [];
    return nested ? nestUnderParents(sorted, tasks) : sorted.map((id) => ({ id, depth: 0 }));
  }, [allIds, filtering, matches, tasks, sort, board, nested]);
  const rows = useMemo(() => nestedRows.map((row) => row.id), [nestedRows]);
  const anySubCards = useMemo(() => allIds.some((id) => tasks[id].parent), [allIds, tasks]);
  const extra = useMemo(() => optionalColumns(allIds, tasks), [allIds, tasks]);
  const columns: TableColumn[] = useMemo(() => columnsOf(extra), [extra.checklist, extra.blocked]);
  const counts = useMemo(
    () => Object.fromEntries(Object.entries(order).map(([status, ids]) => [status, ids.length])),
    [order],
  );
  const assignees = useMemo(
    () => [...new Set(allIds.map((id) => tasks[id].assignee).filter((a): a is string => Boolean(a)))].sort(),
    [allIds, tasks],
  );

  // One edit at a time, in order: each is checked against the card the previous one stored.
  const save = useCallback(
    (taskId: string, patch: Record<string, unknown>) => inTurn(() => saveTableEdit(ctrl, taskId, patch)),
    [ctrl, inTurn],
  );
  const editLabels = useCallback((taskId: string, anchor: HTMLElement) => setLabelEditor({ taskId, anchor }), []);
  const closeLabels = useCallback((refocus: boolean) => {
    setLabelEditor((at) => {
      if (refocus) at?.anchor.focus();
      return null;
    });
  }, []);

  /** Scroll the row into view (it may not be drawn yet), then focus it once it is. */
  function focusRow(index: number): void {
    if (!box || rows.length === 0) return;
    const at = Math.max(0, Math.min(rows.length - 1, index));
    const headerHeight = box.querySelector<HTMLElement>('.table-head')?.offsetHeight ?? 0;
    const top = at * ROW_HEIGHT;
    const visible = box.clientHeight - headerHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + ROW_HEIGHT > box.scrollTop + visible) box.scrollTop = top + ROW_HEIGHT - visible;
    setFocusId(rows[at]);
    // A drawn row takes focus now; one that a scroll must draw first, once it is drawn.
    const drawn = box.querySelector<HTMLElement>(`.table-row[data-card-id="${CSS.escape(rows[at])}"]`);
    if (drawn) drawn.focus({ preventScroll: true });
    else focusWanted.current = rows[at];
  }
  // After a keyboard move, once the row is drawn (a scroll may have to draw it first).
  useEffect(() => {
    const id = focusWanted.current;
    const row = id ? box?.querySelector<HTMLElement>(`.table-row[data-card-id="${CSS.escape(id)}"]`) : null;
    if (!row) return;
    focusWanted.current = null;
    row.focus({ preventScroll: true });
  });

  function onKeyDown(event: KeyboardEvent): void {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.table-row');
    // Keys inside a field edit the field; on a row they move between rows.
    if (!row || event.target !== row || event.ctrlKey || event.metaKey) return;
    const index = rows.indexOf(row.dataset.cardId as string);
    const page = Math.max(1, Math.floor(((box?.clientHeight ?? ROW_HEIGHT) - ROW_HEIGHT) / ROW_HEIGHT));
    const moves: Record<string, number> = {
      ArrowUp: index - 1,
      ArrowDown: index + 1,
      PageUp: index - page,
      PageDown: index + page,
      Home: 0,
      End: rows.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      focusRow(moves[event.key]);
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      // No columns to move to: the board's Alt/Shift+arrow card moves do not apply here.
      event.preventDefault();
    }
  }

  function onClick(event: MouseEvent): void {
    const target = event.target as HTMLElement;
    if (target.closest('button, a, input, textarea, select, label, form')) return;
    const id = target.closest<HTMLElement>('.table-row')?.dataset.cardId;
    if (id) {
      setFocusId(id);
      ctrl.store.set({ openTaskId: id });
    }
  }

  function onContextMenu(event: MouseEvent): void {
    const target = event.target as HTMLElement;
    const id = target.closest<HTMLElement>('.table-row')?.dataset.cardId;
    if (!id || target.closest('input, select')) return;
    event.preventDefault();
    ctrl.store.set({ cardMenu: { taskId: id, x: event.clientX, y: event.clientY } });
  }

  if (!board) return null;
  const headerHeight = box?.querySelector<HTMLElement>('.table-head')?.offsetHeight ?? ROW_HEIGHT;
  const [first, last] = visibleRange(
    Math.max(0, scrollTop - headerHeight),
    height,
    ROW_HEIGHT,
    rows.length,
    MARGIN_ROWS,
  );
  const tabbable = focusId && rows.includes(focusId) ? focusId : rows[0];
  const editing = labelEditor ? tasks[labelEditor.taskId] : undefined;
  return (
    <div class="view-pane" data-testid="table-view">
      {quickAddStatus && (
        // New card (and `n`) add at the end of a column, as on the board; the row appears in its place.
        <div class="table-quick-add" data-testid="table-quick-add">
          <span class="table-quick-add-where">
            New card in {board.columns.find((c) => c.id === quickAddStatus)?.name ?? quickAddStatus}
          </span>
          <QuickAdd status={quickAddStatus} />
        </div>
      )}
      {(anySubCards || nested) && (
        <label class="table-option">
          <input
            type="checkbox"
            checked={nested}
            data-testid="table-group-parent"
            onChange={(e) => {
              const on = (e.target as HTMLInputElement).checked;
              setNested(on);
              ctrl.persist({ tableSubCardsNested: on });
            }}
          />
          Group by parent: sub-cards under their parent row
        </label>
      )}
      <div
        class="table-scroll"
        ref={setBox}
        role="grid"
        aria-label={`${board.name} as a table`}
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length}
        style={{ '--table-columns': templateOf(columns), '--table-min-width': minWidthOf(columns) }}
        onKeyDown={onKeyDown}
        onClick={onClick}
        onContextMenu={onContextMenu}
      >
        <TableHeader columns={columns} sort={sort} onSort={toggleSort} />
        <div
          class="table-body"
          role="rowgroup"
          style={{ height: `${rows.length * ROW_HEIGHT}px` }}
          data-row-count={rows.length}
        >
          {nestedRows.slice(first, last).map(({ id, depth }, i) => (
            <TableRow
              key={id}
              task={tasks[id]}
              depth={depth}
              index={first + i}
              top={(first + i) * ROW_HEIGHT}
              columns={columns}
              board={board}
              labels={labels}
              counts={counts}
              tabbable={id === tabbable}
              save={save}
              onEditLabels={editLabels}
              onFocus={setFocusId}
            />
          ))}
        </div>
        {rows.length === 0 && (
          <div class="table-empty">{filtering ? 'No card matches the filter.' : 'No cards on this board yet.'}</div>
        )}
      </div>
      <datalist id="table-assignees">
        {assignees.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {labelEditor && editing && (
        <TableLabelEditor
          at={labelEditor}
          task={editing}
          labels={labels}
          onChange={(next) => save(editing.id, { labels: next })}
          onClose={closeLabels}
        />
      )}
      <CardMenu />
    </div>
  );
}
