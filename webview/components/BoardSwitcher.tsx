import { useAppState, useController } from '../context';
import { shownBoardTarget } from '../focusTargets';
import { returnFocusTo } from '../keptFocus';
import { Icon } from './Icon';
import { Popover } from './Popover';
import { useMenuKeys } from './useMenuKeys';

function itemsOf(list: HTMLElement): HTMLElement[] {
  return Array.from(list.querySelectorAll<HTMLElement>(':scope > [role^="menuitem"]'));
}

/** The menu opens with focus on the board shown, so Enter keeps it and the arrows walk from there. */
function focusShownBoard(list: HTMLElement | null): void {
  if (list && !list.contains(document.activeElement))
    (list.querySelector<HTMLElement>('[aria-checked="true"]') ?? itemsOf(list)[0])?.focus();
}

/** The current board's name; opens a list of every board with its card count, plus board actions. */
export function BoardSwitcher() {
  const ctrl = useController();
  const { boards, board } = useAppState();
  // Escape is the popover's: it closes and gives focus back to the switcher button.
  const menuKeys = useMenuKeys(() => undefined);
  return (
    <Popover
      align="left"
      buttonClass="board-switcher"
      label="Switch board"
      testId="board-switcher"
      button={
        <>
          <Icon name="board" />
          <span class="board-switcher-name">{board?.name ?? 'Loading…'}</span>
          <Icon name="chevronDown" size={14} />
        </>
      }
    >
      {(close) => (
        <div
          class="board-list"
          role="menu"
          aria-label="Boards"
          ref={focusShownBoard}
          onKeyDown={(event) => menuKeys(event, itemsOf(event.currentTarget))}
        >
          {boards.map((summary) => (
            <button
              key={summary.id}
              type="button"
              role="menuitemradio"
              aria-checked={summary.id === board?.id}
              class={`board-list-item${summary.id === board?.id ? ' is-current' : ''}`}
              onClick={() => {
                close();
                returnFocusTo(ctrl, shownBoardTarget(ctrl, summary.id));
                ctrl.switchBoard(summary.id);
              }}
            >
              <span class="board-list-name">{summary.name}</span>
              {summary.isDefault && <span class="chip subtle">default</span>}
              <span class="board-list-count">{summary.taskCount}</span>
            </button>
          ))}
          <div class="menu-divider" />
          <button
            type="button"
            role="menuitem"
            class="board-list-item"
            onClick={() => (close(), ctrl.store.set({ panel: 'new-board' }))}
          >
            <Icon name="plus" /> New board
          </button>
          <button
            type="button"
            role="menuitem"
            class="board-list-item"
            onClick={() => (close(), ctrl.store.set({ panel: 'board' }))}
          >
            <Icon name="edit" /> Edit this board
          </button>
        </div>
      )}
    </Popover>
  );
}
