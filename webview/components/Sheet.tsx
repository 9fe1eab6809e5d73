import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { focusIsLost } from '../focus';
import { Icon } from './Icon';

/**
 * A side sheet over the board (settings, labels, board forms, the card drawer). Focus moves into
 * it on open and back to where it was on close; Escape is handled by the board shortcuts.
 */
export function Sheet({
  title,
  onClose,
  children,
  wide,
  class: className = '',
  testId,
  header,
}: {
  title: ComponentChildren;
  onClose(): void;
  children: ComponentChildren;
  wide?: boolean;
  class?: string;
  testId?: string;
  header?: ComponentChildren;
}) {
  const root = useRef<HTMLDivElement>(null);
  // A layout effect: focus enters the sheet before it is painted, and goes back as the sheet leaves.
  // A passive cleanup runs a frame later (Preact 11, like React), long enough on a busy machine for
  // the user to focus another card and press Enter: focus was then pulled back to the card the sheet
  // was opened from, and that card opened instead. Focus the user has put elsewhere stays there.
  useLayoutEffect(() => {
    const sheet = root.current;
    const previous = document.activeElement as HTMLElement | null;
    sheet?.focus({ preventScroll: true });
    return () => {
      const active = document.activeElement;
      const focusWasInside = focusIsLost() || Boolean(active && sheet?.contains(active));
      if (focusWasInside && previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, []);
  return (
    <>
      <div class="sheet-backdrop" onClick={onClose} />
      <div
        class={`sheet${wide ? ' sheet-wide' : ''} ${className}`}
        ref={root}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label={typeof title === 'string' ? title : undefined}
        data-testid={testId}
      >
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
