import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export interface PopoverProps {
  /** The toggle button's content and label. */
  button: ComponentChildren;
  label: string;
  buttonClass?: string;
  align?: 'left' | 'right';
  /** The content; gets a `close` function. */
  children: (close: () => void) => ComponentChildren;
  testId?: string;
}

/** A button with a floating panel below it; closes on outside click and on Escape. */
export function Popover({ button, label, buttonClass = 'icon-btn', align = 'right', children, testId }: PopoverProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        setOpen(false);
        root.current?.querySelector<HTMLElement>('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open]);

  return (
    <span class="popover-root" ref={root}>
      <button
        type="button"
        class={`${buttonClass}${open ? ' is-active' : ''}`}
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-haspopup="true"
        data-testid={testId}
        onClick={() => setOpen(!open)}
      >
        {button}
      </button>
      {open && <div class={`popover popover-${align}`}>{children(() => setOpen(false))}</div>}
    </span>
  );
}
