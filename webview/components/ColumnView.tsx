import type { ComponentChildren } from 'preact';
import { memo } from 'preact/compat';
import { useMemo } from 'preact/hooks';
import type { DropTarget } from '../state/appState';
import { DELETED_STATUS, type Column, type Labels, type Settings, type TaskView } from '../types';
import { ColumnCards } from './ColumnCards';
import { Icon } from './Icon';
import { QuickAdd } from './QuickAdd';

export interface ColumnViewProps {
  column: Column;
  /** Every card id of the column, in order. */
  allIds: string[];
  /** The ids shown (all, or those matching the filter). */
  visibleIds: string[];
  tasks: Record<string, TaskView>;
  labels: Labels;
  settings: Settings;
  minimized: boolean;
  filtering: boolean;
  quickAdd: boolean;
  /** The drop gap, when a dragged card is over this column. */
  drop: DropTarget | null;
  /** The card being dragged (hidden from its column while it travels), or null. */
  draggingId: string | null;
  /** Cards picked for a bulk edit. */
  selection?: ReadonlySet<string>;
  /** Column header extras (menu), given by the board so this stays a drawing. */
  headerExtras?: ComponentChildren;
  onToggleMinimized(id: string): void;
  onQuickAdd(id: string): void;
}

function countLabel(visible: number, all: number, filtering: boolean): string {
  return filtering ? `${visible}/${all}` : String(all);
}

/** `count/limit` for a column with a WIP limit, in the warning colour when over it. */
export function WipCount({ column, count }: { column: Column; count: number }) {
  if (!column.wipLimit) return null;
  const over = count > column.wipLimit;
  return (
    <span
      class={`column-wip${over ? ' is-over-limit' : ''}`}
      data-testid={`wip-${column.id}`}
      title={
        over
          ? `Over the WIP limit: ${count} cards, limit ${column.wipLimit}`
          : `${count} of at most ${column.wipLimit} cards (WIP limit)`
      }
    >
      {count}/{column.wipLimit}
    </span>
  );
}

function MinimizedColumn({ column, allIds, visibleIds, filtering, onToggleMinimized, drop }: ColumnViewProps) {
  return (
    <section
      class={`column is-minimized${drop ? ' is-drop-target' : ''}`}
      data-drop-column={column.id}
      aria-label={`${column.name} (minimized)`}
      style={{ '--column-color': column.color }}
    >
      <button
        type="button"
        class="column-expand"
        title={`Expand ${column.name}`}
        onClick={() => onToggleMinimized(column.id)}
      >
        <Icon name="maximize" size={14} />
        <span class="column-count">{countLabel(visibleIds.length, allIds.length, filtering)}</span>
        <span class="column-vertical-name">{column.name}</span>
      </button>
    </section>
  );
}

/** One column: header with name, color and count, then its cards (and the drop gap while dragging). */
export const ColumnView = memo(function ColumnView(props: ColumnViewProps) {
  const { column, allIds, visibleIds, tasks, labels, settings, filtering, quickAdd, drop, draggingId } = props;
  // Kept while the ids stay the same list: every change to any card re-renders every column, and
  // going through 2,000 ids per column each time was most of a drop's work at 10,000 cards.
  const shown = useMemo(
    () => (draggingId && visibleIds.includes(draggingId) ? visibleIds.filter((id) => id !== draggingId) : visibleIds),
    [visibleIds, draggingId],
  );
  if (props.minimized) return <MinimizedColumn {...props} />;
  const isDeleted = column.id === DELETED_STATUS;
  const empty =
    visibleIds.length > 0 ? null : filtering ? 'No matching cards' : isDeleted ? 'Nothing deleted' : 'No cards yet';
  return (
    <section
      class={`column${isDeleted ? ' is-deleted-column' : ''}${drop ? ' is-drop-target' : ''}${column.wipLimit && allIds.length > column.wipLimit ? ' is-over-limit' : ''}`}
      data-drop-column={column.id}
      aria-label={column.name}
      style={{ '--column-color': column.color }}
    >
      <header class="column-head" data-column-head={column.id}>
        <span class="column-dot" aria-hidden="true" />
        <h2 class="column-name" title={column.name}>
          {isDeleted && <Icon name="trash" size={13} />}
          {column.name}
        </h2>
        {column.wipLimit && !filtering ? (
          <WipCount column={column} count={allIds.length} />
        ) : (
          <span class="column-count" title={filtering ? 'matching / all cards' : 'cards'}>
            {countLabel(visibleIds.length, allIds.length, filtering)}
          </span>
        )}
        <span class="column-tools">
          {!isDeleted && (
            <button
              type="button"
              class="icon-btn"
              title={`Add a card to ${column.name} (n)`}
              aria-label={`Add a card to ${column.name}`}
              data-add-card={column.id}
              onClick={() => props.onQuickAdd(column.id)}
            >
              <Icon name="plus" />
            </button>
          )}
          {!isDeleted && (
            <button
              type="button"
              class="icon-btn"
              title="Minimize column"
              aria-label={`Minimize ${column.name}`}
              onClick={() => props.onToggleMinimized(column.id)}
            >
              <Icon name="minimize" size={14} />
            </button>
          )}
          {props.headerExtras}
        </span>
      </header>
      <ColumnCards
        columnId={column.id}
        columnName={column.name}
        shown={shown}
        tasks={tasks}
        labels={labels}
        settings={settings}
        selection={props.selection}
        drop={drop}
        empty={empty}
      />
      {/* Below the cards: a new card joins the end of the column, just above the box. */}
      {quickAdd && <QuickAdd status={column.id} />}
    </section>
  );
});
