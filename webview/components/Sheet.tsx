import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Icon } from './Icon';

/**
 * A side sheet over the board (settings, labels, board forms, the card drawer). Focus moves into
 * it on open and back to where it was on close; Escape is handled by the board shortcuts.
 */
export function Sheet({ title, onClose, children, wide, class: className = '', testId, header }: {
  title: ComponentChildren;
  onClose(): void;
  children: ComponentChildren;
  wide?: boolean;
  class?: string;
  testId?: string;
  header?: ComponentChildren;
}) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    root.current?.focus({ preventScroll: true });
    return () => {
      if (previous && document.contains(previous)) previous.focus({ preventScroll: true });
    };
  }, []);
  return (
    <>
      <div class="sheet-backdrop" onClick={onClose} />
      <div class={`sheet${wide ? ' sheet-wide' : ''} ${className}`} ref={root} tabIndex={-1} role="dialog" aria-modal="true" aria-label={typeof title === 'string' ? title : undefined} data-testid={testId}>
        <header class="sheet-head">
          <h2 class="sheet-title">{title}</h2>
          {header}
          <button type="button" class="icon-btn" aria-label="Close" title="Close (Esc)" onClick={onClose}>
            <Icon name="close" />
          </button>
        </header>
        <div class="sheet-body">{children}</div>
      </div>
    </>
  );
}
