import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useController } from '../context';
import { createCard } from '../state/taskActions';
import { revealCard } from '../reveal';
import { cardTarget, columnTarget } from '../focusTargets';
import { returnFocusTo, type FocusTarget } from '../keptFocus';
import type { BoardController } from '../state/controller';

/** Where the box was opened from: the card focused when `n` was pressed, else the column's add button. */
function openerTarget(ctrl: BoardController, status: string): FocusTarget {
  const cardId = (document.activeElement as HTMLElement | null)?.dataset?.cardId;
  return cardId && ctrl.state.tasks[cardId] ? cardTarget(ctrl, cardId) : columnTarget(status);
}

/** A title box at the foot of a column: Enter adds a card at the end and keeps the box open for the next one. */
export function QuickAdd({ status }: { status: string }) {
  const ctrl = useController();
  const input = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  // Read while rendering, before the box takes focus.
  const [opener] = useState(() => openerTarget(ctrl, status));

  // Focus in the same task that shows the box: with a passive effect, keys typed right after `n`
  // could land on the focused card before the box took them.
  useLayoutEffect(() => input.current?.focus(), []);

  const close = () => {
    returnFocusTo(ctrl, opener);
    ctrl.store.set({ quickAddStatus: null });
  };

  async function submit(event: Event) {
    event.preventDefault();
    if (!title.trim() || busy) return;
    setBusy(true);
    const created = await createCard(ctrl, status, title);
    setBusy(false);
    if (created) setTitle('');
    input.current?.focus();
    // In a long column the new last card is below the fold: bring it into view above the box.
    if (created)
      requestAnimationFrame(() => revealCard(status, created.id, false)?.scrollIntoView({ block: 'nearest' }));
  }

  return (
    <form class="quick-add" onSubmit={submit}>
      <input
        ref={input}
        class="quick-add-input"
        placeholder="Card title, then Enter"
        aria-label="New card title"
        value={title}
        readOnly={busy}
        onInput={(e) => setTitle((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
        }}
      />
      <div class="quick-add-actions">
        <button type="submit" class="btn btn-primary btn-sm" disabled={!title.trim() || busy}>
          Add card
        </button>
        <button type="button" class="btn btn-ghost btn-sm" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
