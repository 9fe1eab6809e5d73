import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { WINDOW_MIN_CARDS, offsetsOf, wholeWindow, windowOf, type CardWindow } from '../state/cardWindow';
import { REVEAL_EVENT, type RevealRequest } from '../reveal';
import { useViewport } from './useViewport';

/** A card's height before any was measured (card.css: contain-intrinsic-size). */
const FALLBACK_HEIGHT = 86;

/** The flex gap between cards (card.css: 8 px, 6 px compact). */
function gapOf(list: HTMLElement): number {
  return parseFloat(getComputedStyle(list).rowGap) || 0;
}

/** Where `list` starts in the scrolled content of `scroller`, in px. */
function topWithin(list: HTMLElement, scroller: HTMLElement): number {
  return (
    list.getBoundingClientRect().top - scroller.getBoundingClientRect().top - scroller.clientTop + scroller.scrollTop
  );
}

/** Heights of the drawn cards; true when one differs from what was known. */
function measure(list: HTMLElement, heights: Map<string, number>): boolean {
  let changed = false;
  for (const el of list.querySelectorAll<HTMLElement>(':scope > [data-card-id]')) {
    const id = el.dataset.cardId as string;
    const height = el.getBoundingClientRect().height;
    if (Math.abs((heights.get(id) ?? -1) - height) > 0.5) {
      heights.set(id, height);
      changed = true;
    }
  }
  return changed;
}

/**
 * The cards of `ids` to draw in the scroll box `list`: all of them in a short column, those in view
 * plus a screen's margin above and below in a long one. Drawn cards are measured after each render,
 * so the space standing for the others follows their real heights; where a card above the view
 * changes height, the browser's scroll anchoring keeps the cards in view still. A list that does not
 * scroll itself (a swimlane cell) gives the box that scrolls it as `scroller`.
 */
export function useCardWindow(
  list: HTMLDivElement | null,
  ids: readonly string[],
  scroller: HTMLDivElement | null = null,
): CardWindow & { gap: number } {
  const heights = useRef(new Map<string, number>()).current;
  const [measured, setMeasured] = useState(0);
  // Read after layout, not while rendering: a style read per render cost more than the rest.
  const gap = useRef(8);
  // Where the list starts in the scroller's content (a swimlane cell scrolls with the whole board).
  const listTop = useRef(0);
  const wanted = useRef<RevealRequest | null>(null);
  const view = useViewport(scroller ?? list);
  const scrollTop = view.scrollTop - (scroller ? listTop.current : 0);
  const height = view.height;
  const windowed = ids.length > WINDOW_MIN_CARDS;
  // Made again only when the ids, a measured height or the gap changed: a drop re-renders every
  // column, and walking 2,000 ids per column per render was a large part of a drop at 10,000 cards.
  const offsets = useMemo(
    () => (windowed ? offsetsOf(ids, heights, gap.current, FALLBACK_HEIGHT) : null),
    [ids, measured, gap.current],
  );
  const margin = Math.max(400, height);
  const win = offsets ? windowOf(offsets, scrollTop, height, margin) : wholeWindow(ids.length);

  // After every render: measure what is drawn, and finish a reveal once its card is in the page.
  useLayoutEffect(() => {
    if (!list) return;
    if (windowed) {
      const before = { gap: gap.current, top: listTop.current };
      gap.current = gapOf(list);
      if (scroller) listTop.current = topWithin(list, scroller);
      const moved = Math.abs(before.top - listTop.current) > 1;
      if (measure(list, heights) || before.gap !== gap.current || moved) setMeasured((n) => n + 1);
    }
    const request = wanted.current;
    const el = request && list.querySelector<HTMLElement>(`:scope > [data-card-id="${CSS.escape(request.id)}"]`);
    if (!request || !el) return;
    wanted.current = null;
    el.scrollIntoView({ block: 'nearest' });
    if (request.focus) el.focus({ preventScroll: true });
  });

  // A card asked for that is not drawn: scroll to where it stands, which draws it.
  useLayoutEffect(() => {
    if (!list) return;
    const onReveal = (event: Event) => {
      const request = (event as CustomEvent<RevealRequest>).detail;
      const index = ids.indexOf(request.id);
      if (index < 0 || !offsets) return;
      wanted.current = request;
      if (scroller) scroller.scrollTop = Math.max(0, listTop.current + offsets[index] - scroller.clientHeight / 2);
      else list.scrollTop = Math.max(0, offsets[index] - list.clientHeight / 2);
    };
    list.addEventListener(REVEAL_EVENT, onReveal);
    return () => list.removeEventListener(REVEAL_EVENT, onReveal);
  });
  return { ...win, gap: gap.current };
}
