import type { HistoryKind } from './shapes/metrics';

/**
 * A card's path through the columns of its board, rebuilt from the recorded flow steps (what the
 * service writes on every creation, move, transfer, delete and restore) and, where those do not
 * reach back to the card's creation, from what the card itself says (`created`, `completedAt`).
 */

/** What a recorded step was; `created` and `entered` (a transfer in) begin a card's life on the board. */
export const FLOW_STEP_KINDS = ['created', 'moved', 'entered', 'left', 'deleted', 'restored'] as const;
export type FlowStepKind = (typeof FLOW_STEP_KINDS)[number];

/** One recorded change of a card's column; `null` is "not on the board" (before creation, after leaving). */
export interface FlowStep {
  at: number;
  kind: FlowStepKind;
  from: string | null;
  to: string | null;
}

/**
 * From `at` on, the card is in `column` (null: off the board, or in a status that is no column such
 * as the deleted one). `known` is false when the instant is a stand-in (the creation time of a card
 * whose earlier moves were never recorded), so no cycle time starts or ends on it.
 */
export interface TimelineEntry {
  at: number;
  column: string | null;
  known: boolean;
}

export interface TimelineCard {
  status: string;
  created: number;
  completedAt?: number;
}

export interface Timeline {
  history: HistoryKind;
  entries: TimelineEntry[];
}

const BEGINS_LIFE: ReadonlySet<FlowStepKind> = new Set(['created', 'entered']);

/**
 * The card's timeline. With no recorded step, the card is in its column since its creation, except
 * a finished card with `completedAt`: in the first column until then, in the last from then (only
 * that arrival is known). With steps that begin after its creation, the card is in the column the
 * first step left since its creation.
 */
export function timelineOf(
  card: TimelineCard,
  steps: readonly FlowStep[],
  firstColumn: string,
  doneColumn: string,
): Timeline {
  if (steps.length === 0) {
    if (card.status === doneColumn && card.completedAt !== undefined && firstColumn !== doneColumn) {
      const entries = [
        { at: card.created, column: firstColumn, known: false },
        { at: Math.max(card.created, card.completedAt), column: doneColumn, known: true },
      ];
      return { history: 'none', entries };
    }
    return { history: 'none', entries: [{ at: card.created, column: card.status, known: false }] };
  }
  const full = BEGINS_LIFE.has(steps[0].kind);
  const raw: TimelineEntry[] = full
    ? []
    : [{ at: Math.min(card.created, steps[0].at), column: steps[0].from, known: false }];
  for (const step of steps) raw.push({ at: step.at, column: step.to, known: true });
  return { history: full ? 'full' : 'partial', entries: compact(raw) };
}

/** In time order (a clock that stepped back does not reorder the path), one entry per change of column. */
function compact(raw: readonly TimelineEntry[]): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const entry of raw) {
    const last = out[out.length - 1];
    const at = last ? Math.max(last.at, entry.at) : entry.at;
    if (last && last.column === entry.column) continue;
    out.push({ ...entry, at });
  }
  return out;
}

/** The first known instant the card was in one of `columns`, at or before `until`; null if none. */
export function firstKnownArrival(
  entries: readonly TimelineEntry[],
  isTarget: (column: string | null) => boolean,
  until = Infinity,
): number | null {
  for (const entry of entries) {
    if (entry.at > until) return null;
    if (isTarget(entry.column)) return entry.known ? entry.at : null;
  }
  return null;
}

/** The entry holding the card at instant `at` (the last one at or before it), or null before the first. */
export function entryAt(entries: readonly TimelineEntry[], at: number): TimelineEntry | null {
  let found: TimelineEntry | null = null;
  for (const entry of entries) {
    if (entry.at > at) break;
    found = entry;
  }
  return found;
}

/** Milliseconds spent in each column up to `until`, one number per column of `position` (its index). */
export function timeInColumns(
  entries: readonly TimelineEntry[],
  position: ReadonlyMap<string, number>,
  until: number,
): number[] {
  const spent = new Array<number>(position.size).fill(0);
  for (let i = 0; i < entries.length; i++) {
    const { at, column } = entries[i];
    if (at >= until) break;
    const index = column === null ? undefined : position.get(column);
    if (index !== undefined) spent[index] += Math.min(entries[i + 1]?.at ?? until, until) - at;
  }
  return spent;
}
