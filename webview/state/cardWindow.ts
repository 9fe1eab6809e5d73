/**
 * Which cards of a long column to draw: those in view plus a margin. Cards differ in height (labels,
 * titles that wrap), so a card's place is the sum of the heights before it: measured for cards that
 * have been drawn, estimated (the mean of the measured ones) for the others. Pure, so it is tested
 * without a browser.
 */

/** Columns with at most this many cards draw them all: windowing pays only in long columns. */
export const WINDOW_MIN_CARDS = 120;

export interface CardWindow {
  /** First card drawn (index into the column's shown ids). */
  start: number;
  /** One past the last card drawn. */
  end: number;
  /** Height of the space standing for the cards above `start`, gaps included. */
  before: number;
  /** Height of the space standing for the cards from `end` on, gaps included. */
  after: number;
}

/**
 * offsets[i] is where card i starts (the heights and gaps of the cards before it); offsets[n] is
 * the height of them all with a gap after each.
 */
export function offsetsOf(
  ids: readonly string[],
  heights: ReadonlyMap<string, number>,
  gap: number,
  fallback: number,
): Float64Array {
  let sum = 0;
  let count = 0;
  for (const id of ids) {
    const h = heights.get(id);
    if (h !== undefined) {
      sum += h;
      count++;
    }
  }
  const estimate = count ? sum / count : fallback;
  const offsets = new Float64Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) offsets[i + 1] = offsets[i] + (heights.get(ids[i]) ?? estimate) + gap;
  return offsets;
}

/** The first index whose card ends below `y` (binary search over the offsets). */
function firstEndingBelow(offsets: Float64Array, y: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1] > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The cards overlapping [scrollTop - margin, scrollTop + height + margin], and the space around them. */
export function windowOf(offsets: Float64Array, scrollTop: number, height: number, margin: number): CardWindow {
  const n = offsets.length - 1;
  const start = Math.min(n, firstEndingBelow(offsets, scrollTop - margin));
  let end = start;
  const bottom = scrollTop + height + margin;
  while (end < n && offsets[end] < bottom) end++;
  return { start, end, before: offsets[start], after: offsets[n] - offsets[end] };
}

/** Everything drawn: for short columns. */
export function wholeWindow(count: number): CardWindow {
  return { start: 0, end: count, before: 0, after: 0 };
}
