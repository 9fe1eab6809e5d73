import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { useAppState, useController } from '../context';
import type { DropTarget } from '../state/appState';
import { laneKeyOf, lanesOf, type Grouping, type Lane } from '../state/lanes';
import { DELETED_STATUS, type Column, type Labels, type TaskView } from '../types';
import { CardView } from './CardView';
import { Spacer } from './ColumnCards';
import { useCardWindow } from './useCardWindow';
import { WipCount } from './ColumnView';
import { Icon } from './Icon';
import { QuickAdd } from './QuickAdd';

/** Collapsed lanes per board and grouping, kept with the page's other preferences (webview state). */
const COLLAPSED_KEY = 'collapsedLanes';

function useCollapsedLanes(scope: string): [Set<string>, (lane: string) => void] {
  const ctrl = useController();
  const stored = () => (ctrl.preference(COLLAPSED_KEY) ?? {}) as Record<string, string[]>;
  const [, redraw] = useState(0);
  const collapsed = new Set(stored()[scope] ?? []);
  const toggle = (lane: string) => {
    const next = new Set(collapsed);
    if (next.has(lane)) next.delete(lane);
    else next.add(lane);
    ctrl.persist({ [COLLAPSED_KEY]: { ...stored(), [scope]: [...next] } });
    redraw((n) => n + 1);
  };
  return [collapsed, toggle];
}

export interface LaneBoardProps {
  grouping: Grouping;
  columns: Column[];
  /** The visible ids of each column (all, or those matching the filter). */
  visibleOf(column: Column): string[];
  filtering: boolean;
  minimized(column: Column): boolean;
  /** The column's menu, given by the board. */
  menuOf(column: Column): ComponentChildren;
  onToggleMinimized(id: string): void;
  onQuickAdd(id: string): void;
}

/**
 * The board in swimlanes: one row of column heads (counts and WIP over every lane), then one row per
 * lane whose cells line up under the heads. Each cell is a drop target for its column and lane.
 */
export function LaneBoard(props: LaneBoardProps) {
  const state = useAppState();
  const { tasks, labels, order, boardId, groupBy, matches } = state;
  const { columns, filtering } = props;
  // One pass over the cards per change of the cards, the filter or the grouping, not per drawing:
  // a drag redraws the board at every new drop place, and at 10,000 cards going through all of
  // them for every lane and column each time was what made it slow.
  // By the columns' ids: the board passes a new array on each drawing when the Deleted column shows.
  const columnIds = columns.map((column) => column.id).join('\u0000');
  const split = useMemo(
    () => splitIntoLanes(props, tasks, labels, order),
    [tasks, labels, order, matches, filtering, groupBy, columnIds],
  );
  const [collapsed, toggle] = useCollapsedLanes(`${boardId} ${groupBy}`);
  return (
    <div class="lanes">
      <div class="lane-heads">
        {columns.map((column) => (
          <LaneColumnHead
            key={column.id}
            {...props}
            column={column}
            count={(order[column.id] ?? []).length}
            quickAdd={state.quickAddStatus === column.id}
          />
        ))}
      </div>
      {split.lanes.map((lane) => {
        const isCollapsed = collapsed.has(lane.key);
        const all = split.all.get(lane.key) ?? 0;
        const visible = split.visible.get(lane.key) ?? 0;
        return (
          <section
            key={lane.key}
            class={`lane${isCollapsed ? ' is-collapsed' : ''}`}
            data-lane={lane.key}
            aria-label={`${lane.name} lane`}
          >
            <LaneHead
              lane={lane}
              count={filtering ? `${visible}/${all}` : String(all)}
              collapsed={isCollapsed}
              onToggle={() => toggle(lane.key)}
            />
            {!isCollapsed && (
              <div class="lane-row">
                {columns.map((column) => (
                  <LaneCell
                    key={column.id}
                    column={column}
                    lane={lane}
                    ids={split.cells.get(cellKey(lane.key, column.id)) ?? NO_IDS}
                    minimized={props.minimized(column)}
                    drop={
                      state.drop && state.drop.status === column.id && state.drop.lane === lane.key ? state.drop : null
                    }
                    draggingId={state.drop?.taskId ?? null}
                  />
                ))}
              </div>
            )}
          </section>
        );
      })}
    </div>
  );
}

const NO_IDS: string[] = [];

function cellKey(lane: string, column: string): string {
  return `${lane}\u0000${column}`;
}

interface LaneSplit {
  lanes: Lane[];
  /** The visible ids of each lane and column, in column order. */
  cells: Map<string, string[]>;
  /** Cards per lane, and those matching the filter. */
  all: Map<string, number>;
  visible: Map<string, number>;
}

function splitIntoLanes(
  props: LaneBoardProps,
  tasks: Record<string, TaskView>,
  labels: Labels,
  order: Record<string, string[]>,
): LaneSplit {
  const { grouping, columns } = props;
  const all = new Map<string, number>();
  const drawn: TaskView[] = [];
  for (const column of columns) {
    for (const id of order[column.id] ?? []) {
      const task = tasks[id];
      if (!task) continue;
      drawn.push(task);
      const key = laneKeyOf(grouping, task, labels);
      all.set(key, (all.get(key) ?? 0) + 1);
    }
  }
  const cells = new Map<string, string[]>();
  const visible = new Map<string, number>();
  for (const column of columns) {
    for (const id of props.visibleOf(column)) {
      const task = tasks[id];
      if (!task) continue;
      const key = laneKeyOf(grouping, task, labels);
      const cell = cellKey(key, column.id);
      const ids = cells.get(cell);
      if (ids) ids.push(id);
      else cells.set(cell, [id]);
      visible.set(key, (visible.get(key) ?? 0) + 1);
    }
  }
  return { lanes: lanesOf(grouping, drawn, labels), cells, all, visible };
}

function LaneHead({
  lane,
  count,
  collapsed,
  onToggle,
}: {
  lane: Lane;
  count: string;
  collapsed: boolean;
  onToggle(): void;
}) {
  return (
    <header class="lane-head">
      <button
        type="button"
        class="lane-toggle"
        aria-expanded={!collapsed}
        title={collapsed ? `Expand ${lane.name}` : `Collapse ${lane.name}`}
        onClick={onToggle}
      >
        <Icon name={collapsed ? 'chevronRight' : 'chevronDown'} size={14} />
        <span class="lane-name">{lane.name}</span>
      </button>
      <span class="column-count lane-count" data-testid="lane-count" title="cards in this lane">
        {count}
      </span>
    </header>
  );
}

function LaneColumnHead(props: LaneBoardProps & { column: Column; count: number; quickAdd: boolean }) {
  const { column, count, filtering } = props;
  const isDeleted = column.id === DELETED_STATUS;
  if (props.minimized(column)) {
    return (
      <section
        class="column is-minimized lane-column-head"
        aria-label={`${column.name} (minimized)`}
        style={{ '--column-color': column.color }}
      >
        <button
          type="button"
          class="column-expand"
          title={`Expand ${column.name}`}
          onClick={() => props.onToggleMinimized(column.id)}
        >
          <Icon name="maximize" size={14} />
          <span class="column-count">{count}</span>
        </button>
      </section>
    );
  }
  return (
    <section
      class={`column lane-column-head${column.wipLimit && count > column.wipLimit ? ' is-over-limit' : ''}`}
      aria-label={column.name}
      style={{ '--column-color': column.color }}
    >
      <header class="column-head" data-lane-column-head={column.id}>
        <span class="column-dot" aria-hidden="true" />
        <h2 class="column-name" title={column.name}>
          {isDeleted && <Icon name="trash" size={13} />}
          {column.name}
        </h2>
        {column.wipLimit && !filtering ? (
          <WipCount column={column} count={count} />
        ) : (
          <span class="column-count" title={filtering ? 'matching / all cards' : 'cards'}>
            {filtering ? `${props.visibleOf(column).length}/${count}` : count}
          </span>
        )}
        {!isDeleted && (
          <span class="column-tools">
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
            <button
              type="button"
              class="icon-btn"
              title="Minimize column"
              aria-label={`Minimize ${column.name}`}
              onClick={() => props.onToggleMinimized(column.id)}
            >
              <Icon name="minimize" size={14} />
            </button>
            {props.menuOf(column)}
          </span>
        )}
      </header>
      {props.quickAdd && <QuickAdd status={column.id} />}
    </section>
  );
}

function LaneCell({
  column,
  lane,
  ids,
  minimized,
  drop,
  draggingId,
}: {
  column: Column;
  lane: Lane;
  ids: string[];
  minimized: boolean;
  drop: DropTarget | null;
  draggingId: string | null;
}) {
  const { tasks, labels, settings } = useAppState();
  const [list, setList] = useState<HTMLDivElement | null>(null);
  const cls = `column lane-cell${minimized ? ' is-minimized' : ''}${drop ? ' is-drop-target' : ''}`;
  // The dragged card leaves its cell only for a gap in the same cell: elsewhere it stays, faded, so
  // the lanes below do not jump up under the pointer the moment a drag starts.
  const leaving = drop && draggingId && ids.includes(draggingId) ? draggingId : null;
  const shown = useMemo(() => (leaving ? ids.filter((id) => id !== leaving) : ids), [ids, leaving]);
  // A long cell draws only what is in the board's view and a margin, as a long column does; the
  // whole board scrolls, so the board is the cell's viewport.
  const win = useCardWindow(list, minimized ? NO_IDS : shown, list?.closest<HTMLDivElement>('.board-scroll') ?? null);
  const items = minimized
    ? []
    : shown
        .slice(win.start, win.end)
        .filter((id) => tasks[id])
        .map((id) =>
          id === draggingId ? (
            <div key={id} class="lane-drag-source" aria-hidden="true">
              <CardView task={tasks[id]} labels={labels} settings={settings} />
            </div>
          ) : (
            <CardView
              key={id}
              task={tasks[id]}
              labels={labels}
              settings={settings}
              laidOut={win.end - win.start < shown.length}
            />
          ),
        );
  if (drop && !minimized && drop.index >= win.start && drop.index <= win.end) {
    items.splice(
      drop.index - win.start,
      0,
      // A thin gap, not the card's height: a lane that grows under the pointer would push the lane
      // below away from a pointer on its way down to it.
      <div key="__drop" class="drop-gap lane-drop-gap" aria-hidden="true">
        <span class="drop-line" data-testid="drop-line" />
      </div>,
    );
  }
  return (
    <section
      class={cls}
      data-drop-column={column.id}
      data-drop-lane={lane.key}
      aria-label={`${column.name}, ${lane.name}`}
      style={{ '--column-color': column.color }}
    >
      <div
        class="column-cards"
        ref={setList}
        data-column-cards={column.id}
        data-window-start={win.start}
        role="list"
        aria-label={`${column.name} cards in ${lane.name}`}
      >
        {win.start > 0 && <Spacer height={win.before} gap={win.gap} edge="before" />}
        {items}
        {win.end < shown.length && <Spacer height={win.after} gap={win.gap} edge="after" />}
        {minimized && ids.length > 0 && <span class="column-count">{ids.length}</span>}
      </div>
    </section>
  );
}
