import { useState } from 'preact/hooks';
import type { DropTarget } from '../state/appState';
import type { Labels, Settings, TaskView } from '../types';
import { CardView } from './CardView';
import { useCardWindow } from './useCardWindow';

export interface ColumnCardsProps {
  columnId: string;
  columnName: string;
  /** The cards shown, in order (the dragged card left out while it travels). */
  shown: string[];
  tasks: Record<string, TaskView>;
  labels: Labels;
  settings: Settings;
  selection?: ReadonlySet<string>;
  drop: DropTarget | null;
  /** Shown instead of cards when the column has none (null when it has some). */
  empty: string | null;
}

/** Space standing for cards not drawn, so the scroll bar and the drawn cards' places stay true. */
export function Spacer({ height, gap, edge }: { height: number; gap: number; edge: 'before' | 'after' }) {
  // The flex gap beside it is part of `height`, so it is drawn that much shorter.
  return (
    <div
      class="column-spacer"
      data-spacer={edge}
      aria-hidden="true"
      style={{ height: `${Math.max(0, height - gap)}px`, flex: 'none' }}
    />
  );
}

/**
 * The scrolling list of a column's cards. A long column draws only the cards in view and a margin
 * (useCardWindow); the list carries the index of its first drawn card, so a drop there lands at
 * the right place among all the column's cards.
 */
export function ColumnCards(props: ColumnCardsProps) {
  const { columnId, shown, tasks, labels, settings, drop } = props;
  const [list, setList] = useState<HTMLDivElement | null>(null);
  const win = useCardWindow(list, shown);
  const windowed = win.end - win.start < shown.length;
  // A card id without its card (a change half-applied) is skipped rather than drawn broken.
  const items = shown
    .slice(win.start, win.end)
    .filter((id) => tasks[id])
    .map((id) => (
      <CardView
        key={id}
        task={tasks[id]}
        labels={labels}
        settings={settings}
        selected={props.selection?.has(id)}
        laidOut={windowed}
      />
    ));
  if (drop && drop.index >= win.start && drop.index <= win.end) {
    items.splice(
      drop.index - win.start,
      0,
      <div key="__drop" class="drop-gap" style={{ height: `${drop.height}px` }} aria-hidden="true">
        <span class="drop-line" data-testid="drop-line" />
      </div>,
    );
  }
  return (
    <div
      class="column-cards"
      ref={setList}
      data-column-cards={columnId}
      data-window-start={win.start}
      role="list"
      aria-label={`${props.columnName} cards`}
    >
      {win.start > 0 && <Spacer height={win.before} gap={win.gap} edge="before" />}
      {items}
      {win.end < shown.length && <Spacer height={win.after} gap={win.gap} edge="after" />}
      {props.empty && !drop && <div class="column-empty">{props.empty}</div>}
    </div>
  );
}
