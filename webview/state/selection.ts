import type { BoardController } from './controller';
import type { AppState } from './appState';
import { DELETED_STATUS } from '../types';

/**
 * Cards picked for a bulk edit (`state.selection`). Ctrl/Cmd-click toggles one card, Shift-click
 * picks the range from the last card picked (or opened) to this one (within one column, in board order),
 * Shift+arrows extend it from the focused card, Escape clears it.
 */

/** The card a Shift-click range starts from: the last one toggled or clicked, per board UI. */
const anchors = new WeakMap<BoardController, string>();

function setSelection(ctrl: BoardController, ids: Iterable<string>): void {
  ctrl.store.set({ selection: new Set(ids) });
}

export function toggleSelected(ctrl: BoardController, id: string): void {
  const next = new Set(ctrl.state.selection);
  // A range starts at the last card picked; taking that one out falls back to the one picked before
  // it (a Set iterates in insertion order).
  if (next.has(id)) {
    next.delete(id);
    if (anchors.get(ctrl) === id) anchors.set(ctrl, [...next].pop() ?? id);
  } else {
    next.add(id);
    anchors.set(ctrl, id);
  }
  setSelection(ctrl, next);
}

/** The ids a column shows, in order (all, or those matching the filter). */
function shownIn(state: AppState, status: string): string[] {
  const all = state.order[status] ?? [];
  return state.matches ? all.filter((id) => state.matches!.has(id)) : all;
}

/** Shift-click: every card from the anchor to this one, when both are in one column; else this card is toggled. */
export function selectRange(ctrl: BoardController, id: string): void {
  const state = ctrl.state;
  const anchor = anchors.get(ctrl);
  const status = state.tasks[id]?.status;
  if (!anchor || !status || state.tasks[anchor]?.status !== status) return toggleSelected(ctrl, id);
  const ids = shownIn(state, status);
  const [from, to] = [ids.indexOf(anchor), ids.indexOf(id)].sort((a, b) => a - b);
  if (from < 0) return toggleSelected(ctrl, id);
  setSelection(ctrl, [...state.selection, ...ids.slice(from, to + 1)]);
}

/** Shift+arrow from the focused card: it and the card the arrow leads to join the selection. */
export function extendSelection(ctrl: BoardController, fromId: string, toId: string): void {
  if (!anchors.has(ctrl) || !ctrl.state.selection.has(anchors.get(ctrl)!)) anchors.set(ctrl, fromId);
  setSelection(ctrl, [...ctrl.state.selection, fromId, toId]);
}

export function clearSelection(ctrl: BoardController): boolean {
  if (ctrl.state.selection.size === 0) return false;
  anchors.delete(ctrl);
  setSelection(ctrl, []);
  return true;
}

/**
 * The selected cards still on the board, in board order (column by column, then place), which is
 * the order a bulk move lands them in. Cards gone since (deleted elsewhere) and cards a filter now
 * hides drop out: a bulk change only touches cards the user can see.
 */
export function selectedIds(state: AppState): string[] {
  if (state.selection.size === 0) return [];
  const columns = [...(state.board?.columns.map((c) => c.id) ?? []), DELETED_STATUS];
  const shown = (id: string) => state.selection.has(id) && (!state.matches || state.matches.has(id));
  return columns.flatMap((status) => (state.order[status] ?? []).filter(shown));
}

/**
 * A click on a card with Ctrl/Cmd (toggle) or Shift (range) selects instead of opening it; a plain
 * click clears the selection and opens the card. Answers whether the click was a selection.
 */
export function selectByClick(ctrl: BoardController, id: string, event: MouseEvent): boolean {
  if (event.ctrlKey || event.metaKey) toggleSelected(ctrl, id);
  else if (event.shiftKey) selectRange(ctrl, id);
  else {
    clearSelection(ctrl);
    anchors.set(ctrl, id);
    return false;
  }
  return true;
}
