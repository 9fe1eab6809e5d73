import { menuAnchorOf } from './components/CardMenu';
import { visibleIdsOf } from './dnd/cardDrag';
import { focusIsLost } from './focus';
import { afterRemovalTarget, cardTarget } from './focusTargets';
import { keepFocusAcrossRedraws, type KeptFocus } from './keptFocus';
import type { BoardController } from './state/controller';
import { serverPosition } from './state/placement';
import { moveCard, softDeleteCard } from './state/taskActions';
import { clearSelection, extendSelection } from './state/selection';
import { isShortcut } from './shortcuts';
import { revealCard } from './reveal';
import { DELETED_STATUS } from './types';

/** Columns a card can be moved to or focus can travel through, left to right, as drawn. */
function drawnColumns(): string[] {
  // Swimlanes draw a column once per lane: each column counts once, in its first place.
  return [
    ...new Set(
      Array.from(document.querySelectorAll<HTMLElement>('[data-drop-column]')).map(
        (el) => el.dataset.dropColumn as string,
      ),
    ),
  ];
}

/** Focus a card; one that its long column has not drawn is scrolled to, drawn, then focused. */
function focusCard(ctrl: BoardController, id: string): void {
  const el = revealCard(ctrl.state.tasks[id]?.status, id, true);
  el?.focus();
  el?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el?.closest?.('input, textarea, select, [contenteditable="true"]'));
}

/** The card an arrow key leads to: the neighbour in the column, or the nearest index in the next column that has cards. */
function neighbourOf(ctrl: BoardController, taskId: string, key: string): string | undefined {
  const status = ctrl.state.tasks[taskId]?.status;
  if (!status) return undefined;
  const ids = visibleIdsOf(ctrl, status);
  const index = ids.indexOf(taskId);
  if (key === 'ArrowUp') return index > 0 ? ids[index - 1] : undefined;
  if (key === 'ArrowDown') return index < ids.length - 1 ? ids[index + 1] : undefined;
  if (key !== 'ArrowLeft' && key !== 'ArrowRight') return undefined;
  const columns = drawnColumns();
  const step = key === 'ArrowLeft' ? -1 : 1;
  for (let c = columns.indexOf(status) + step; c >= 0 && c < columns.length; c += step) {
    const other = visibleIdsOf(ctrl, columns[c]);
    if (other.length) return other[Math.min(index, other.length - 1)];
  }
  return undefined;
}

/** Arrow keys move the focus; with Shift the focused card and the next one join the selection. */
function moveFocus(ctrl: BoardController, taskId: string, key: string, extend: boolean): void {
  const next = neighbourOf(ctrl, taskId, key);
  if (!next) return;
  if (extend) extendSelection(ctrl, taskId, next);
  focusCard(ctrl, next);
}

/** Alt + arrows: move the focused card one place up/down, or to the next column. */
async function moveWithKeys(ctrl: BoardController, taskId: string, key: string, kept: KeptFocus): Promise<void> {
  const status = ctrl.state.tasks[taskId]?.status;
  if (!status) return;
  const visible = visibleIdsOf(ctrl, status);
  const index = visible.indexOf(taskId);
  let target = status;
  let visibleIndex = index;
  if (key === 'ArrowUp') visibleIndex = Math.max(0, index - 1);
  else if (key === 'ArrowDown') visibleIndex = Math.min(visible.length - 1, index + 1);
  else {
    const columns = drawnColumns().filter((id) => id !== DELETED_STATUS);
    const next = columns[columns.indexOf(status) + (key === 'ArrowLeft' ? -1 : 1)];
    if (!next) return;
    target = next;
    visibleIndex = Math.min(index, visibleIdsOf(ctrl, next).length);
  }
  if (target === status && visibleIndex === index) return;
  const position = serverPosition(ctrl.state.order[target] ?? [], visibleIdsOf(ctrl, target), visibleIndex, taskId);
  const column = ctrl.state.board?.columns.find((c) => c.id === target)?.name ?? target;
  announce(`Moved to ${column}, position ${visibleIndex + 1}`);
  // The card is drawn in its new place at once, as a new element, so the keyboard stays on it for
  // the next move; a refusal draws it back, again as a new element. Neither waits for the server,
  // and neither takes focus the user has since put elsewhere.
  kept.keep(taskId);
  const moved = moveCard(ctrl, taskId, target, position);
  requestAnimationFrame(() => refocusCard(ctrl, taskId));
  if (!(await moved)) requestAnimationFrame(() => refocusCard(ctrl, taskId));
}

/** Focus a card again after it was redrawn, unless the user has moved focus elsewhere meanwhile. */
function refocusCard(ctrl: BoardController, id: string): void {
  if (focusIsLost()) focusCard(ctrl, id);
}

/** Screen readers hear keyboard moves through a polite live region. */
export function announce(text: string): void {
  const region = document.getElementById('live-region');
  if (region) region.textContent = text;
}

function openQuickAdd(ctrl: BoardController): void {
  const focusedId = (document.activeElement as HTMLElement | null)?.dataset?.cardId;
  const focusedStatus = focusedId ? ctrl.state.tasks[focusedId]?.status : undefined;
  const board = ctrl.state.board;
  const status =
    focusedStatus && focusedStatus !== DELETED_STATUS ? focusedStatus : (board?.defaultStatus ?? board?.columns[0]?.id);
  if (status) ctrl.store.set({ quickAddStatus: status });
}

/** Close the top-most layer: a panel, then the card drawer, then the quick-add box, then the selection. */
function closeTopLayer(ctrl: BoardController): boolean {
  const s = ctrl.state;
  if (s.panel) ctrl.store.set({ panel: null });
  else if (s.openTaskId) ctrl.store.set({ openTaskId: null });
  else if (s.quickAddStatus) ctrl.store.set({ quickAddStatus: null });
  else return clearSelection(ctrl);
  return true;
}

/** Board-wide shortcuts, as the table in shortcuts.ts lists them (the `?` help shows the same table). */
export function installShortcuts(ctrl: BoardController): () => void {
  const kept = keepFocusAcrossRedraws(ctrl, (id) => revealCard(ctrl.state.tasks[id]?.status, id, true));
  // Whether Ctrl+Z or a message's Undo took a step back, focus goes to the card it brought back.
  const stopFollowingUndo = ctrl.onUndone((id) => kept.moveTo(cardTarget(ctrl, id)));
  function onKey(event: KeyboardEvent): void {
    if (event.defaultPrevented) return;
    if (isShortcut('close', event)) {
      if (document.querySelector('dialog[open], .confirm-dialog')) return;
      if (closeTopLayer(ctrl)) event.preventDefault();
      return;
    }
    // In a text box Ctrl+Z is the box's own undo of the typing.
    if (isShortcut('undo', event) && !isTyping(event.target)) {
      if (ctrl.undo()) {
        event.preventDefault();
        announce('Undone');
      }
      return;
    }
    if (isTyping(event.target) || event.ctrlKey || event.metaKey) return;
    const taskId =
      (event.target as HTMLElement | null)?.dataset?.cardId ??
      (isShortcut('moveCard', event) ? (kept.lostFocusCard() ?? undefined) : undefined);
    if (taskId && isShortcut('cardMenu', event)) {
      event.preventDefault();
      ctrl.store.set({ cardMenu: { taskId, ...menuAnchorOf(event.target as HTMLElement) } });
      return;
    }
    const layerOpen = Boolean(ctrl.state.panel || ctrl.state.openTaskId);
    if (isShortcut('help', event) && !layerOpen) {
      event.preventDefault();
      ctrl.store.set({ panel: 'shortcuts', cardMenu: null });
    } else if (isShortcut('search', event) && !layerOpen) {
      event.preventDefault();
      document.querySelector<HTMLInputElement>('#search-input')?.focus();
    } else if (isShortcut('newCard', event) && !layerOpen) {
      event.preventDefault();
      openQuickAdd(ctrl);
    } else if (taskId && isShortcut('moveCard', event)) {
      event.preventDefault();
      void moveWithKeys(ctrl, taskId, event.key, kept);
    } else if (taskId && (isShortcut('focusNext', event) || isShortcut('extendSelection', event))) {
      event.preventDefault();
      moveFocus(ctrl, taskId, event.key, event.shiftKey);
    } else if (taskId && isShortcut('openCard', event)) {
      event.preventDefault();
      ctrl.store.set({ openTaskId: taskId });
    } else if (taskId && isShortcut('deleteCard', event) && ctrl.state.tasks[taskId]?.status !== DELETED_STATUS) {
      event.preventDefault();
      kept.returnTo(afterRemovalTarget(ctrl, taskId));
      void softDeleteCard(ctrl, taskId);
    } else if (!taskId && !layerOpen && isShortcut('focusFirst', event) && !isInteractive(event.target)) {
      const first = document.querySelector<HTMLElement>('[data-card-id]');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  }
  document.addEventListener('keydown', onKey);
  return () => {
    document.removeEventListener('keydown', onKey);
    stopFollowingUndo();
    kept.dispose();
  };
}

function isInteractive(target: EventTarget | null): boolean {
  return Boolean(
    (target as HTMLElement | null)?.closest?.('button, a, [role="menu"], [role="listbox"], .drawer, .panel'),
  );
}
