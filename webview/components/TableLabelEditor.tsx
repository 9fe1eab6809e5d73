import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Labels, TaskView } from '../types';
import { LabelChecklist } from './LabelChecklist';
import { usePending } from './drawer/usePending';

export interface LabelEditorAt {
  taskId: string;
  anchor: HTMLElement;
}

/**
 * The labels of one row, as checkboxes of every defined label (and a box for a new one). One editor
 * for the whole table, floating over it: a row is a fixed-height strip that would clip a menu, and
 * the row itself may be recycled while the table scrolls. Each tick is saved at once.
 */
export function TableLabelEditor({
  at,
  task,
  labels,
  onChange,
  onClose,
}: {
  at: LabelEditorAt;
  task: TaskView;
  labels: Labels;
  /** Saves the labels; resolves with the stored card, or undefined when refused. */
  onChange(next: string[]): Promise<unknown>;
  onClose(refocus: boolean): void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState({ left: 0, top: 0 });
  // Ticks show at once; a refusal puts the stored labels back.
  const [selected, choose] = usePending(task.labels);
  const change = (next: string[]) => choose(next, onChange(next));

  // Below the cell, or above it when the window ends first; never past the right edge.
  useLayoutEffect(() => {
    const cell = at.anchor.getBoundingClientRect();
    const box = panel.current?.getBoundingClientRect();
    const width = box?.width ?? 240;
    const height = box?.height ?? 200;
    const below = cell.bottom + 4 + height < window.innerHeight;
    setPlace({
      left: Math.max(4, Math.min(cell.left, window.innerWidth - width - 4)),
      top: Math.max(4, below ? cell.bottom + 4 : cell.top - height - 4),
    });
  }, [at]);

  useEffect(() => {
    panel.current?.querySelector<HTMLInputElement>('input')?.focus();
    const onDown = (event: PointerEvent) => {
      if (!panel.current?.contains(event.target as Node)) onClose(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      onClose(true);
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [at, onClose]);

  return (
    <div
      class="popover table-label-editor"
      ref={panel}
      role="group"
      aria-label={`Labels of ${task.title}`}
      data-testid="table-label-editor"
      style={{ left: `${place.left}px`, top: `${place.top}px` }}
    >
      <LabelChecklist labels={labels} selected={selected} onChange={change} inputName="label" />
    </div>
  );
}
