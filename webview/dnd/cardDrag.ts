import { focusIsLost } from '../focus';
import type { BoardController } from '../state/controller';
import { serverPosition } from '../state/placement';
import { moveCard } from '../state/taskActions';
import { moveSelected } from '../state/bulkActions';
import { laneIdsOf, laneOfTask, moveCardToLane } from '../state/laneActions';

const START_DISTANCE_PX = 5;
const EDGE_PX = 48;
const SCROLL_STEP_PX = 14;

/** The ids a column shows, in order: all of them, or those matching the filter. */
export function visibleIdsOf(ctrl: BoardController, status: string): string[] {
  const { order, matches } = ctrl.state;
  const all = order[status] ?? [];
  return matches ? all.filter((id) => matches.has(id)) : all;
}

interface DragSession {
  taskId: string;
  pointerId: number;
  startX: number;
  startY: number;
  offsetX: number;
  offsetY: number;
  source: HTMLElement;
  ghost: HTMLElement | null;
  x: number;
  y: number;
  frame: number;
}

/**
 * The page element at (x, y) under the drag ghost. The ghost takes the pointer during a drag, so the
 * cursor it shows stays "grabbing" without restyling the page (board.css).
 */
function elementBeneathGhost(x: number, y: number): Element | undefined {
  return document.elementsFromPoint(x, y).find((el) => !el.classList.contains('drag-ghost'));
}

/**
 * The column a drop at (x, y) belongs to. A column is as tall as its cards, but the whole height of
 * the board under it is its drop area: below a short column (or in the gap beside it) the nearest
 * column by x takes the card, never the last one the pointer happened to cross.
 */
function columnAt(board: HTMLElement, x: number, y: number): HTMLElement | null {
  const under = elementBeneathGhost(x, y)?.closest<HTMLElement>('[data-drop-column]');
  if (under) return under;
  const area = board.getBoundingClientRect();
  if (x < area.left || x > area.right || y < area.top || y > area.bottom) return null;
  let nearest: HTMLElement | null = null;
  let distance = Infinity;
  for (const column of dropCellsAt(board, y)) {
    const rect = column.getBoundingClientRect();
    const d = x < rect.left ? rect.left - x : x > rect.right ? x - rect.right : 0;
    if (d < distance) [nearest, distance] = [column, d];
  }
  return nearest;
}

/** The drop cells on the row at height y: the columns, or in swimlanes the cells of the lane there. */
function dropCellsAt(board: HTMLElement, y: number): HTMLElement[] {
  const rows = Array.from(board.querySelectorAll<HTMLElement>('.lane-row'));
  if (rows.length === 0) return Array.from(board.querySelectorAll<HTMLElement>(':scope > [data-drop-column]'));
  const row = rows.find((r) => y <= r.getBoundingClientRect().bottom) ?? rows[rows.length - 1];
  return Array.from(row.querySelectorAll<HTMLElement>(':scope > [data-drop-column]'));
}

/** Where the pointer would drop: the column (and lane) under it and the index among its visible cards. */
function dropPoint(board: HTMLElement, session: DragSession): { status: string; index: number; lane?: string } | null {
  const column = columnAt(board, session.x, session.y);
  if (!column) return null;
  const status = column.dataset.dropColumn as string;
  const lane = column.dataset.dropLane;
  const cards = Array.from(column.querySelectorAll<HTMLElement>('[data-card-id]')).filter(
    (el) => el.dataset.cardId !== session.taskId,
  );
  let index = cards.length;
  for (let i = 0; i < cards.length; i++) {
    const rect = cards[i].getBoundingClientRect();
    if (session.y < rect.top + rect.height / 2) {
      index = i;
      break;
    }
  }
  // A long column draws only the cards in view: count those above the first drawn one too.
  const skipped = Number(column.querySelector<HTMLElement>('[data-column-cards]')?.dataset.windowStart ?? 0);
  return lane === undefined ? { status, index: skipped + index } : { status, index: skipped + index, lane };
}

/** Scroll the column or the board when the pointer rests near an edge, so long lists stay reachable. */
function autoScroll(session: DragSession, board: HTMLElement): void {
  const boardRect = board.getBoundingClientRect();
  if (session.x < boardRect.left + EDGE_PX) board.scrollLeft -= SCROLL_STEP_PX;
  else if (session.x > boardRect.right - EDGE_PX) board.scrollLeft += SCROLL_STEP_PX;
  // Swimlanes scroll the whole board down; each lane's cells grow with their cards.
  if (board.classList.contains('has-lanes')) {
    if (session.y < boardRect.top + EDGE_PX) board.scrollTop -= SCROLL_STEP_PX;
    else if (session.y > boardRect.bottom - EDGE_PX) board.scrollTop += SCROLL_STEP_PX;
    return;
  }
  const list = elementBeneathGhost(session.x, session.y)
    ?.closest<HTMLElement>('[data-drop-column]')
    ?.querySelector<HTMLElement>('[data-column-cards]');
  if (!list) return;
  const rect = list.getBoundingClientRect();
  if (session.y < rect.top + EDGE_PX) list.scrollTop -= SCROLL_STEP_PX;
  else if (session.y > rect.bottom - EDGE_PX) list.scrollTop += SCROLL_STEP_PX;
}

function makeGhost(source: HTMLElement): HTMLElement {
  const rect = source.getBoundingClientRect();
  const ghost = source.cloneNode(true) as HTMLElement;
  ghost.removeAttribute('data-card-id');
  ghost.removeAttribute('tabindex');
  ghost.classList.add('drag-ghost');
  ghost.setAttribute('aria-hidden', 'true');
  ghost.style.width = `${rect.width}px`;
  document.body.append(ghost);
  return ghost;
}

/**
 * Pointer-driven drag and drop of cards (mouse, pen and touch alike). The card follows the pointer
 * as a ghost, its column shows a gap with an insertion line where it would land, and the drop becomes a move at that
 * exact position. Returns a function that removes the listeners.
 */
export function installCardDrag(board: HTMLElement, ctrl: BoardController): () => void {
  let session: DragSession | null = null;
  let suppressClick = false;

  function begin(s: DragSession): void {
    const rect = s.source.getBoundingClientRect();
    s.ghost = makeGhost(s.source);
    document.body.classList.add('is-dragging');
    const status = ctrl.state.tasks[s.taskId].status;
    const lane = laneOfTask(ctrl, s.taskId) ?? undefined;
    const index = Math.max(
      0,
      (lane === undefined ? visibleIdsOf(ctrl, status) : laneIdsOf(ctrl, status, lane)).indexOf(s.taskId),
    );
    ctrl.store.set({ drop: { taskId: s.taskId, status, index, height: rect.height, lane } });
    const tick = () => {
      if (session !== s) return;
      autoScroll(s, board);
      s.frame = requestAnimationFrame(tick);
    };
    s.frame = requestAnimationFrame(tick);
  }

  function track(s: DragSession): void {
    if (s.ghost) s.ghost.style.transform = `translate(${s.x - s.offsetX}px, ${s.y - s.offsetY}px) rotate(2deg)`;
    const point = dropPoint(board, s);
    const current = ctrl.state.drop;
    if (!point || !current) return;
    if (point.status !== current.status || point.index !== current.index || point.lane !== current.lane)
      ctrl.store.set({ drop: { ...current, ...point } });
  }

  function finish(commit: boolean): void {
    const s = session;
    if (!s) return;
    session = null;
    cancelAnimationFrame(s.frame);
    s.ghost?.remove();
    document.body.classList.remove('is-dragging');
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    window.removeEventListener('pointercancel', onCancel);
    window.removeEventListener('keydown', onKey, true);
    const drop = ctrl.state.drop;
    if (!s.ghost) return;
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    if (commit && drop) {
      const shown = drop.lane === undefined ? visibleIdsOf(ctrl, drop.status) : laneIdsOf(ctrl, drop.status, drop.lane);
      const position = serverPosition(ctrl.state.order[drop.status] ?? [], shown, drop.index, s.taskId);
      // The optimistic placement happens synchronously inside moveCard, so clearing the gap right
      // after paints the card in its new place in the same frame.
      // A selected card takes the whole selection with it, as one bulk move (columns only: a lane
      // drop sets a field of the one card dragged).
      const selection = ctrl.state.selection;
      if (drop.lane !== undefined) void moveCardToLane(ctrl, s.taskId, drop.status, position, drop.lane);
      else if (selection.size > 1 && selection.has(s.taskId)) void moveSelected(ctrl, drop.status, position);
      else void moveCard(ctrl, s.taskId, drop.status, position);
    }
    ctrl.store.set({ drop: null });
    // The dropped card is a new element in its column: keep focus on it, unless the user has
    // already put focus somewhere else.
    requestAnimationFrame(() => {
      if (focusIsLost())
        board.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(s.taskId)}"]`)?.focus({ preventScroll: true });
    });
  }

  function onMove(event: PointerEvent): void {
    const s = session;
    if (!s || event.pointerId !== s.pointerId) return;
    s.x = event.clientX;
    s.y = event.clientY;
    if (!s.ghost) {
      if (Math.hypot(s.x - s.startX, s.y - s.startY) < START_DISTANCE_PX) return;
      begin(s);
    }
    event.preventDefault();
    track(s);
  }

  const onUp = (event: PointerEvent) => {
    if (session && event.pointerId === session.pointerId) finish(true);
  };
  const onCancel = () => finish(false);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && session?.ghost) {
      event.stopPropagation();
      finish(false);
    }
  };

  function onDown(event: PointerEvent): void {
    if (event.button !== 0 || session) return;
    const target = event.target as HTMLElement;
    if (target.closest('button, a, input, textarea, select, [contenteditable]')) return;
    const source = target.closest<HTMLElement>('[data-card-id]');
    const taskId = source?.dataset.cardId;
    if (!source || !taskId || !ctrl.state.tasks[taskId]) return;
    const rect = source.getBoundingClientRect();
    session = {
      taskId,
      pointerId: event.pointerId,
      source,
      ghost: null,
      frame: 0,
      startX: event.clientX,
      startY: event.clientY,
      x: event.clientX,
      y: event.clientY,
      offsetX: event.clientX - rect.left,
      offsetY: event.clientY - rect.top,
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onCancel);
    window.addEventListener('keydown', onKey, true);
  }

  // A drag ends with a click on whatever is under the pointer; it must not open the card.
  function onClickCapture(event: MouseEvent): void {
    if (!suppressClick) return;
    suppressClick = false;
    event.stopPropagation();
    event.preventDefault();
  }

  board.addEventListener('pointerdown', onDown);
  board.addEventListener('click', onClickCapture, true);
  return () => {
    finish(false);
    board.removeEventListener('pointerdown', onDown);
    board.removeEventListener('click', onClickCapture, true);
  };
}
