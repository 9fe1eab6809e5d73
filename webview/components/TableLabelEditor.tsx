import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { textOn } from '../format';
import type { Labels, TaskView } from '../types';
import { groupsOf } from './drawer/LabelPicker';
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
export function TableLabelEditor({ at, task, labels, onChange, onClose }: {
  at: LabelEditorAt;
  task: TaskView;
  labels: Labels;
  /** Saves the labels; resolves with the stored card, or undefined when refused. */
  onChange(next: string[]): Promise<unknown>;
  onClose(refocus: boolean): void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const [typed, setTyped] = useState('');
  const [place, setPlace] = useState({ left: 0, top: 0 });
  // Ticks show at once; a refusal puts the stored labels back.
  const [selected, choose] = usePending(task.labels);
  const change = (next: string[]) => choose(next, onChange(next));
  const toggle = (name: string) => change(selected.includes(name) ? selected.filter((l) => l !== name) : [...selected, name]);

  // Below the cell, or above it when the window ends first; never past the right edge.
  useLayoutEffect(() => {
    const cell = at.anchor.getBoundingClientRect();
    const box = panel.current?.getBoundingClientRect();
    const width = box?.width ?? 240;
    const height = box?.height ?? 200;
    const below = cell.bottom + 4 + height < window.innerHeight;
    setPlace({ left: Math.max(4, Math.min(cell.left, window.innerWidth - width - 4)), top: Math.max(4, below ? cell.bottom + 4 : cell.top - height - 4) });
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
    <div class="popover table-label-editor" ref={panel} role="group" aria-label={`Labels of ${task.title}`} data-testid="table-label-editor" style={{ left: `${place.left}px`, top: `${place.top}px` }}>
      <div class="label-menu">
        {groupsOf(labels).map(([group, names]) => (
          <div key={group} class="label-group">
            <div class="menu-label">{group || 'Other'}</div>
            {names.map((name) => (
              <label key={name} class="label-option">
                <input type="checkbox" name="label" value={name} checked={selected.includes(name)} onChange={() => toggle(name)} />
                <span class="label-swatch" style={{ background: labels[name].color, color: textOn(labels[name].color) }} />
                <span>{name}</span>
              </label>
            ))}
          </div>
        ))}
        <form
          class="menu-form"
          onSubmit={(e) => {
            e.preventDefault();
            const name = typed.trim();
            if (name && !selected.includes(name)) change([...selected, name]);
            setTyped('');
          }}
        >
          <input class="input" name="newLabel" placeholder="Another label…" aria-label="Add a label by name" value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
        </form>
      </div>
    </div>
  );
}
