import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { canOpenCardFile, cardLink, copyCardLink, copyText, openCardFile } from '../cardLinks';
import { useAppState, useController } from '../context';
import { focusIsLost } from '../focus';
import { afterRemovalTarget } from '../focusTargets';
import { returnFocusTo } from '../keptFocus';
import type { BoardController } from '../state/controller';
import { moveCard, softDeleteCard } from '../state/taskActions';
import { DELETED_STATUS, type TaskView } from '../types';
import { Icon } from './Icon';
import { useMenuKeys } from './useMenuKeys';

/** The items of the open menu level, in the order the arrow keys walk them. */
function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return Array.from(
    menu?.querySelectorAll<HTMLElement>(':scope > [role="menuitem"], :scope > .card-menu-sub > [role="menuitem"]') ??
      [],
  );
}

function focusCardById(taskId: string): void {
  document.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(taskId)}"]`)?.focus();
}

function closeMenu(ctrl: BoardController, taskId: string, refocus: boolean): void {
  ctrl.store.set({ cardMenu: null });
  if (refocus) focusCardById(taskId);
}

/** Keeps the menu inside the window: a card near the right or bottom edge opens it leftwards/upwards. */
function useClampedPosition(
  menu: HTMLElement | null,
  x: number,
  y: number,
  depends: unknown,
): { left: number; top: number } {
  const [place, setPlace] = useState({ left: x, top: y });
  useLayoutEffect(() => {
    if (!menu) return;
    const { width, height } = menu.getBoundingClientRect();
    setPlace({
      left: Math.max(4, Math.min(x, window.innerWidth - width - 4)),
      top: Math.max(4, Math.min(y, window.innerHeight - height - 4)),
    });
  }, [menu, x, y, depends]);
  return place;
}

/**
 * A card's context menu (right-click, Shift+F10 or the context-menu key on a focused card, or its
 * "..." button): open its file (VS Code only), copy a link or the id, move it, delete it.
 */
export function CardMenu() {
  const ctrl = useController();
  const { cardMenu, tasks, board } = useAppState();
  const [menu, setMenu] = useState<HTMLDivElement | null>(null);
  const [moving, setMoving] = useState(false);
  const task: TaskView | undefined = cardMenu ? tasks[cardMenu.taskId] : undefined;
  const place = useClampedPosition(menu, cardMenu?.x ?? 0, cardMenu?.y ?? 0, moving);
  const subRef = useRef<HTMLDivElement>(null);
  const menuKeys = useMenuKeys(() => cardMenu && closeMenu(ctrl, cardMenu.taskId, true));

  useEffect(() => setMoving(false), [cardMenu?.taskId, cardMenu?.x, cardMenu?.y]);
  useEffect(() => {
    if (!cardMenu) return;
    // Focus enters the menu so the keyboard can use it at once.
    menuItems(menu)[0]?.focus();
    const onDown = (event: PointerEvent) => {
      if (!menu?.contains(event.target as Node)) closeMenu(ctrl, cardMenu.taskId, false);
    };
    document.addEventListener('pointerdown', onDown, true);
    return () => document.removeEventListener('pointerdown', onDown, true);
  }, [cardMenu, menu]);
  useEffect(() => {
    if (moving) subRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [moving]);
  // The card went away (deleted elsewhere, board switched): so does its menu.
  useEffect(() => {
    if (cardMenu && !task) ctrl.store.set({ cardMenu: null });
  }, [cardMenu, task]);

  if (!cardMenu || !task || !board) return null;
  const taskId = task.id;
  const run = (action: () => unknown) => () => {
    closeMenu(ctrl, taskId, true);
    void action();
    // A moved card is drawn anew in its column: the keyboard stays on it, unless focus went elsewhere.
    requestAnimationFrame(() => focusIsLost() && focusCardById(taskId));
  };
  const targets = board.columns.filter((c) => c.id !== task.status);

  function onKeyDown(event: KeyboardEvent): void {
    const inSub = Boolean((event.target as HTMLElement).closest('.card-menu-sub'));
    if (inSub && (event.key === 'Escape' || event.key === 'ArrowLeft')) {
      event.preventDefault();
      event.stopPropagation();
      setMoving(false);
      menu?.querySelector<HTMLElement>('[data-menu-item="move"]')?.focus();
    } else if (event.key === 'ArrowRight' && (event.target as HTMLElement).dataset.menuItem === 'move') {
      event.preventDefault();
      event.stopPropagation();
      setMoving(true);
    } else if (event.key === 'Tab') {
      event.preventDefault();
      closeMenu(ctrl, taskId, true);
    } else menuKeys(event, menuItems(inSub ? subRef.current : menu));
  }

  return (
    <div
      class="card-menu popover"
      role="menu"
      aria-label={`Actions for ${task.title || task.id}`}
      data-testid="card-menu"
      ref={setMenu}
      style={{ left: `${place.left}px`, top: `${place.top}px` }}
      onKeyDown={onKeyDown}
    >
      {canOpenCardFile(ctrl, task) && (
        <button
          type="button"
          role="menuitem"
          class="menu-item"
          data-menu-item="open-file"
          onClick={run(() => openCardFile(ctrl, task))}
        >
          <Icon name="file" size={14} /> Open file
        </button>
      )}
      <button
        type="button"
        role="menuitem"
        class="menu-item"
        data-menu-item="copy-link"
        onClick={run(() => copyCardLink(ctrl, task))}
      >
        <Icon name="paperclip" size={14} /> Copy link
      </button>
      <button
        type="button"
        role="menuitem"
        class="menu-item"
        data-menu-item="copy-markdown-link"
        onClick={run(() => copyText(ctrl, cardLink(task), 'Markdown link to the card file'))}
      >
        <Icon name="file" size={14} /> Copy Markdown link
      </button>
      <button
        type="button"
        role="menuitem"
        class="menu-item"
        data-menu-item="copy-id"
        onClick={run(() => copyText(ctrl, task.id, 'card id'))}
      >
        <Icon name="tag" size={14} /> Copy id
      </button>
      {targets.length > 0 && (
        <button
          type="button"
          role="menuitem"
          class={`menu-item${moving ? ' is-active' : ''}`}
          data-menu-item="move"
          aria-haspopup="menu"
          aria-expanded={moving}
          onClick={() => setMoving(!moving)}
        >
          <Icon name="board" size={14} /> Move to <Icon name="chevronRight" size={14} />
        </button>
      )}
      {moving && (
        <div class="card-menu-sub" role="menu" aria-label="Move to column" ref={subRef}>
          {targets.map((column) => (
            <button
              key={column.id}
              type="button"
              role="menuitem"
              class="menu-item"
              data-move-to={column.id}
              onClick={run(() => moveCard(ctrl, taskId, column.id, 0))}
            >
              <span class="column-dot" style={{ background: column.color }} /> {column.name}
            </button>
          ))}
        </div>
      )}
      {task.status !== DELETED_STATUS && (
        <>
          <div class="menu-divider" />
          <button
            type="button"
            role="menuitem"
            class="menu-item is-danger"
            data-menu-item="delete"
            onClick={run(() => (returnFocusTo(ctrl, afterRemovalTarget(ctrl, taskId)), softDeleteCard(ctrl, taskId)))}
          >
            <Icon name="trash" size={14} /> Delete
          </button>
        </>
      )}
    </div>
  );
}

/** Where a menu opened from the keyboard or the "..." button appears: under the card's top-right corner. */
export function menuAnchorOf(element: HTMLElement): { x: number; y: number } {
  const rect = element.getBoundingClientRect();
  return { x: Math.max(rect.left, rect.right - 200), y: rect.top + 28 };
}
