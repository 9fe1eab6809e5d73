import type { BoardController } from '../state/controller';
import { moveColumn } from '../state/columnActions';
import { DELETED_STATUS } from '../types';

const START_DISTANCE_PX = 6;
const EDGE_PX = 48;
const SCROLL_STEP_PX = 24;

interface ColumnSession {
  columnId: string;
  pointerId: number;
  startX: number;
  startY: number;
  started: boolean;
  /** Index among the other columns where the dragged one would land. */
  index: number;
}

function columnElements(board: HTMLElement): HTMLElement[] {
  return Array.from(board.querySelectorAll<HTMLElement>(':scope > [data-drop-column]')).filter(
    (el) => el.dataset.dropColumn !== DELETED_STATUS,
  );
}

function clearMarks(board: HTMLElement): void {
  for (const el of board.querySelectorAll('.is-column-drop-before, .is-column-drop-after, .is-column-dragging')) {
    el.classList.remove('is-column-drop-before', 'is-column-drop-after', 'is-column-dragging');
  }
}

/**
 * Drag a column by its header to reorder the board. The landing edge is marked while dragging;
 * the drop saves the new order. Cards keep their own drag (installCardDrag), which starts on cards.
 */
export function installColumnDrag(board: HTMLElement, ctrl: BoardController): () => void {
  let session: ColumnSession | null = null;
  let suppressClick = false;

  function mark(s: ColumnSession, x: number): void {
    const others = columnElements(board).filter((el) => el.dataset.dropColumn !== s.columnId);
    let index = others.length;
    for (let i = 0; i < others.length; i++) {
      const rect = others[i].getBoundingClientRect();
      if (x < rect.left + rect.width / 2) {
        index = i;
        break;
      }
    }
    s.index = index;
    clearMarks(board);
    board.querySelector(`[data-drop-column="${CSS.escape(s.columnId)}"]`)?.classList.add('is-column-dragging');
    if (index < others.length) others[index].classList.add('is-column-drop-before');
    else others[others.length - 1]?.classList.add('is-column-drop-after');
  }

  function end(commit: boolean): void {
    const s = session;
    session = null;
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    window.removeEventListener('pointercancel', onCancel);
    if (!s?.started) return;
    document.body.classList.remove('is-dragging-column');
    clearMarks(board);
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    if (commit) void moveColumn(ctrl, s.columnId, s.index);
  }

  function onMove(event: PointerEvent): void {
    const s = session;
    if (!s || event.pointerId !== s.pointerId) return;
    if (!s.started) {
      if (Math.hypot(event.clientX - s.startX, event.clientY - s.startY) < START_DISTANCE_PX) return;
      s.started = true;
      document.body.classList.add('is-dragging-column');
    }
    event.preventDefault();
    // Near an edge of a wide board, scroll so far columns can be reached.
    const rect = board.getBoundingClientRect();
    if (event.clientX < rect.left + EDGE_PX) board.scrollLeft -= SCROLL_STEP_PX;
    else if (event.clientX > rect.right - EDGE_PX) board.scrollLeft += SCROLL_STEP_PX;
    mark(s, event.clientX);
  }
  const onUp = (event: PointerEvent) => session && event.pointerId === session.pointerId && end(true);
  const onCancel = () => end(false);

  function onDown(event: PointerEvent): void {
    if (event.button !== 0 || session) return;
    const target = event.target as HTMLElement;
    if (target.closest('button, a, input, textarea, select, .popover')) return;
    const columnId = target.closest<HTMLElement>('[data-column-head]')?.dataset.columnHead;
    if (!columnId || columnId === DELETED_STATUS) return;
    session = {
      columnId,
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      started: false,
      index: 0,
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onCancel);
  }

  function onClickCapture(event: MouseEvent): void {
    if (!suppressClick) return;
    suppressClick = false;
    event.stopPropagation();
  }

  board.addEventListener('pointerdown', onDown);
  board.addEventListener('click', onClickCapture, true);
  return () => {
    end(false);
    board.removeEventListener('pointerdown', onDown);
    board.removeEventListener('click', onClickCapture, true);
  };
}
