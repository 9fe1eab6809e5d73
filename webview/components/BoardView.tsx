import { useCallback, useEffect, useRef } from 'preact/hooks';
import { useAppState, useController } from '../context';
import { installCardDrag } from '../dnd/cardDrag';
import { installColumnDrag } from '../dnd/columnDrag';
import { DELETED_STATUS, filterIsActive, type Column } from '../types';
import { CardMenu, menuAnchorOf } from './CardMenu';
import { ColumnMenu } from './ColumnMenu';
import { ColumnView } from './ColumnView';
import { AddColumn } from './AddColumn';
import { LaneBoard } from './LaneBoard';
import { parseGroupBy } from '../state/lanes';
import { effectiveBackground } from './BackgroundSection';
import { selectByClick } from '../state/selection';

const DELETED_COLUMN: Column = { id: DELETED_STATUS, name: 'Deleted', color: '#9ca3af' };

/** The columns of the current board, with drag and drop, click-to-open and the background preset. */
export function BoardView() {
  const ctrl = useController();
  const state = useAppState();
  const boardEl = useRef<HTMLDivElement>(null);
  const { board, settings, order, tasks, matches, labels, drop, quickAddStatus } = state;

  useEffect(() => (boardEl.current ? installCardDrag(boardEl.current, ctrl) : undefined), [ctrl]);
  useEffect(() => (boardEl.current ? installColumnDrag(boardEl.current, ctrl) : undefined), [ctrl]);

  const toggleMinimized = useCallback(
    (columnId: string) => {
      const current = ctrl.state.board;
      if (!current) return;
      const ids = current.minimizedColumnIds.includes(columnId)
        ? current.minimizedColumnIds.filter((id) => id !== columnId)
        : [...current.minimizedColumnIds, columnId];
      // Shown at once; the server's answer (or the live event) confirms it.
      ctrl.store.set({ board: { ...current, minimizedColumnIds: ids } });
      void ctrl
        .attempt(() => ctrl.api.setMinimized(current.id, ids))
        .then((ok) => {
          if (ok === undefined) void ctrl.refreshBoard();
        });
    },
    [ctrl],
  );
  const openQuickAdd = useCallback((status: string) => ctrl.store.set({ quickAddStatus: status }), [ctrl]);

  function onClick(event: MouseEvent): void {
    const target = event.target as HTMLElement;
    const menuButton = target.closest<HTMLElement>('[data-card-menu]');
    const menuOf = menuButton?.closest<HTMLElement>('[data-card-id]')?.dataset.cardId;
    if (menuButton && menuOf) {
      ctrl.store.set({
        cardMenu: { taskId: menuOf, ...menuAnchorOf(menuButton.closest<HTMLElement>('[data-card-id]')!) },
      });
      return;
    }
    if (target.closest('button, a, input, textarea, select, form')) return;
    const id = target.closest<HTMLElement>('[data-card-id]')?.dataset.cardId;
    if (id && selectByClick(ctrl, id, event)) return;
    if (id) ctrl.store.set({ openTaskId: id });
  }

  function onContextMenu(event: MouseEvent): void {
    const id = (event.target as HTMLElement).closest<HTMLElement>('[data-card-id]')?.dataset.cardId;
    if (!id || (event.target as HTMLElement).closest('input, textarea')) return;
    // Ours instead of the page's (or VS Code's Cut/Copy/Paste), which know nothing of cards.
    event.preventDefault();
    ctrl.store.set({ cardMenu: { taskId: id, x: event.clientX, y: event.clientY } });
  }

  if (!board) return null;
  const columns = settings.showDeletedColumn ? [...board.columns, DELETED_COLUMN] : board.columns;
  const filtering = filterIsActive(state.filter) && matches !== null;
  const grouping = parseGroupBy(state.groupBy);
  const { mode, preset } = effectiveBackground(settings, state.display);
  const background = `board bg-${preset} bg-mode-${mode}${settings.compactMode ? ' is-compact' : ''}`;
  return (
    <div class={background} data-preset={preset} data-mode={mode}>
      <div
        class={`board-scroll${grouping ? ' has-lanes' : ''}${state.selection.size ? ' has-selection' : ''}`}
        ref={boardEl}
        onClick={onClick}
        onContextMenu={onContextMenu}
        data-board-id={board.id}
        data-group-by={grouping ? state.groupBy : undefined}
      >
        {grouping && (
          <LaneBoard
            grouping={grouping}
            columns={columns}
            visibleOf={(column) =>
              filtering ? (order[column.id] ?? []).filter((id) => matches.has(id)) : (order[column.id] ?? [])
            }
            filtering={filtering}
            minimized={(column) => board.minimizedColumnIds.includes(column.id)}
            menuOf={(column) => (
              <ColumnMenu
                column={column}
                cardCount={(order[column.id] ?? []).length}
                index={board.columns.indexOf(column)}
                count={board.columns.length}
              />
            )}
            onToggleMinimized={toggleMinimized}
            onQuickAdd={openQuickAdd}
          />
        )}
        {!grouping &&
          columns.map((column) => {
            const allIds = order[column.id] ?? [];
            const visibleIds = filtering ? allIds.filter((id) => matches.has(id)) : allIds;
            return (
              <ColumnView
                key={column.id}
                column={column}
                allIds={allIds}
                visibleIds={visibleIds}
                tasks={tasks}
                labels={labels}
                settings={settings}
                minimized={board.minimizedColumnIds.includes(column.id)}
                filtering={filtering}
                quickAdd={quickAddStatus === column.id}
                drop={drop && drop.status === column.id ? drop : null}
                draggingId={drop?.taskId ?? null}
                selection={state.selection}
                headerExtras={
                  column.id === DELETED_STATUS ? undefined : (
                    <ColumnMenu
                      column={column}
                      cardCount={allIds.length}
                      index={board.columns.indexOf(column)}
                      count={board.columns.length}
                    />
                  )
                }
                onToggleMinimized={toggleMinimized}
                onQuickAdd={openQuickAdd}
              />
            );
          })}
        {!grouping && <AddColumn />}
      </div>
      <CardMenu />
    </div>
  );
}
