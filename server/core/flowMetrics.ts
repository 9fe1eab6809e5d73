import { DAY_MS, WEEK_MS, dayLabel, dayStart, isoWeekLabel, percentile, weekStart } from './flowCalendar';
import {
  entryAt,
  firstKnownArrival,
  timeInColumns,
  timelineOf,
  type FlowStep,
  type Timeline,
  type TimelineEntry,
} from './flowTimeline';
import type { FlowMetrics, MetricsCard } from './shapes/metrics';

/**
 * Flow metrics of one board, in one pass over its cards' timelines:
 * - cycle time: from the first known entry into the start column or any later one, to the first
 *   arrival in the last column; lead time: from creation to that arrival. Both count for the cards
 *   whose arrival lies in [from, to], as nearest-rank p50, p85 and p95;
 * - throughput: those arrivals per ISO week;
 * - WIP: the cards in every column but the last at `asOf` (archived ones left out), oldest first;
 * - cumulative flow: cards per column at the last millisecond of each UTC day of the range.
 */

export interface MetricsCardInput {
  id: string;
  title: string;
  status: string;
  created: string;
  completedAt?: string;
  archivedAt?: string;
}

export interface MetricsInput {
  boardId: string;
  columns: readonly { id: string; name: string }[];
  startColumn: string;
  cards: readonly MetricsCardInput[];
  /** Recorded steps per card id, in the order they happened. */
  steps: ReadonlyMap<string, readonly FlowStep[]>;
  fromMs: number;
  toMs: number;
  nowMs: number;
}

interface Range {
  from: number;
  to: number;
  asOf: number;
}

const NO_STEPS: readonly FlowStep[] = [];

interface KnownTimeline {
  steps: readonly FlowStep[];
  firstColumn: string;
  doneColumn: string;
  created: number;
  timeline: Timeline;
}

/**
 * Timelines already built, per card input: a caller that passes the same input object (and steps)
 * again, as the service does for a card that has not changed, gets the same timeline without
 * rebuilding it. Held weakly, so a card's old versions go with it.
 */
const knownTimelines = new WeakMap<MetricsCardInput, KnownTimeline>();

function timelineOfCard(card: MetricsCardInput, steps: readonly FlowStep[], firstColumn: string, doneColumn: string) {
  const known = knownTimelines.get(card);
  if (known && known.steps === steps && known.firstColumn === firstColumn && known.doneColumn === doneColumn)
    return known;
  const created = Date.parse(card.created);
  const completedAt = card.completedAt === undefined ? undefined : Date.parse(card.completedAt);
  const timeline = timelineOf({ status: card.status, created, completedAt }, steps, firstColumn, doneColumn);
  const built = { steps, firstColumn, doneColumn, created, timeline };
  knownTimelines.set(card, built);
  return built;
}

const iso = (at: number) => new Date(at).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

export function flowMetrics(input: MetricsInput): FlowMetrics {
  const range: Range = { from: input.fromMs, to: input.toMs, asOf: Math.min(input.toMs, input.nowMs) };
  const columnIds = input.columns.map((c) => c.id);
  const position = new Map(columnIds.map((id, i) => [id, i]));
  const startIndex = position.get(input.startColumn) ?? 0;
  const doneColumn = columnIds[columnIds.length - 1];
  const isStarted = (column: string | null) => column !== null && (position.get(column) ?? -1) >= startIndex;
  const isDone = (column: string | null) => column === doneColumn;

  const flow = new CumulativeFlow(columnIds, range);
  const wip = new Map<string, FlowMetrics['wip'][number]['cards']>(columnIds.slice(0, -1).map((id) => [id, []]));
  const cycle: number[] = [];
  const lead: number[] = [];
  const finishedAt: number[] = [];
  const cycleTimeUnknown: string[] = [];
  const cards: MetricsCard[] = [];

  for (const card of input.cards) {
    const { created, timeline } = timelineOfCard(card, input.steps.get(card.id) ?? NO_STEPS, columnIds[0], doneColumn);
    if (!onBoardDuring(timeline.entries, position, range)) continue;
    flow.add(timeline.entries);
    // Without a recorded move, the only known instant is the finish (completedAt): never a start.
    const started = timeline.history === 'none' ? null : firstKnownArrival(timeline.entries, isStarted);
    const finished = firstKnownArrival(timeline.entries, isDone);
    const cycleTimeMs = started !== null && finished !== null ? Math.max(0, finished - started) : null;
    const leadTimeMs = finished !== null ? Math.max(0, finished - created) : null;
    if (finished !== null && finished >= range.from && finished <= range.to) {
      finishedAt.push(finished);
      if (leadTimeMs !== null) lead.push(leadTimeMs);
      if (cycleTimeMs !== null) cycle.push(cycleTimeMs);
      else cycleTimeUnknown.push(card.id);
    }
    noteWip(wip, card, timeline, { created, isStarted, asOf: range.asOf });
    cards.push({
      id: card.id,
      title: card.title,
      status: card.status,
      created: card.created,
      history: timeline.history,
      startedAt: isoOrNull(started),
      finishedAt: isoOrNull(finished),
      cycleTimeMs,
      leadTimeMs,
      columnMs: timeInColumns(timeline.entries, position, range.asOf),
    });
  }

  return {
    board: input.boardId,
    from: iso(range.from),
    to: iso(range.to),
    asOf: iso(range.asOf),
    columns: input.columns.map(({ id, name }) => ({ id, name })),
    startColumn: columnIds[startIndex],
    doneColumn,
    cycleTime: summary(cycle),
    leadTime: summary(lead),
    throughput: weeklyThroughput(finishedAt, range),
    wip: [...wip].map(([column, list]) => ({ column, cards: list.sort((a, b) => b.ageMs - a.ageMs) })),
    cumulativeFlow: flow.result(),
    cycleTimeUnknown,
    cards,
  };
}

/** Whether the card was in a board column at some instant of [from, asOf]. */
function onBoardDuring(entries: readonly TimelineEntry[], position: ReadonlyMap<string, number>, range: Range) {
  for (let i = 0; i < entries.length; i++) {
    const { at, column } = entries[i];
    if (at > range.asOf) return false;
    const end = entries[i + 1]?.at ?? Infinity;
    if (column !== null && position.has(column) && end > range.from) return true;
  }
  return false;
}

function summary(values: number[]): FlowMetrics['cycleTime'] {
  const sorted = values.sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p85Ms: percentile(sorted, 85),
    p95Ms: percentile(sorted, 95),
  };
}

function noteWip(
  wip: Map<string, FlowMetrics['wip'][number]['cards']>,
  card: MetricsCardInput,
  timeline: Timeline,
  at: { created: number; isStarted: (column: string | null) => boolean; asOf: number },
): void {
  if (card.archivedAt !== undefined && Date.parse(card.archivedAt) <= at.asOf) return;
  const holding = entryAt(timeline.entries, at.asOf);
  const column = holding?.column;
  if (!holding || column === null || column === undefined) return;
  const list = wip.get(column);
  if (!list) return;
  // Not started, or started before the record began: the card's age counts from its creation.
  const since = firstKnownArrival(timeline.entries, at.isStarted, at.asOf) ?? at.created;
  list.push({
    id: card.id,
    title: card.title,
    ageMs: Math.max(0, at.asOf - since),
    inColumnMs: Math.max(0, at.asOf - holding.at),
  });
}

function weeklyThroughput(finishedAt: readonly number[], range: Range): FlowMetrics['throughput'] {
  const first = weekStart(range.from);
  const weeks = Math.floor((weekStart(range.to) - first) / WEEK_MS) + 1;
  const counts = new Array<number>(weeks).fill(0);
  for (const at of finishedAt) counts[Math.floor((at - first) / WEEK_MS)]++;
  return counts.map((count, i) => {
    const monday = first + i * WEEK_MS;
    return { week: isoWeekLabel(monday), start: dayLabel(monday), count };
  });
}

/**
 * Cards per column at the end of each day, by difference arrays: each stay in a column adds one to
 * the first day whose last millisecond it covers and takes one away after the last such day.
 */
class CumulativeFlow {
  private readonly firstDay: number;
  private readonly days: number;
  private readonly deltas: Map<string, Int32Array>;

  constructor(
    private readonly columnIds: readonly string[],
    range: Range,
  ) {
    this.firstDay = dayStart(range.from);
    this.days = (dayStart(range.to) - this.firstDay) / DAY_MS + 1;
    this.deltas = new Map(columnIds.map((id) => [id, new Int32Array(this.days + 1)]));
  }

  add(entries: readonly TimelineEntry[]): void {
    for (let i = 0; i < entries.length; i++) {
      const { at, column } = entries[i];
      const deltas = column === null ? undefined : this.deltas.get(column);
      if (!deltas) continue;
      const first = this.firstDayEndingAtOrAfter(at);
      const next = entries[i + 1]?.at;
      const end = next === undefined ? this.days : this.firstDayEndingAtOrAfter(next);
      if (first >= end) continue;
      deltas[first]++;
      deltas[end]--;
    }
  }

  /** Index (clamped to [0, days]) of the first day whose last millisecond is at or after `at`. */
  private firstDayEndingAtOrAfter(at: number): number {
    const index = Math.ceil((at + 1 - this.firstDay) / DAY_MS) - 1;
    return Math.min(this.days, Math.max(0, index));
  }

  result(): FlowMetrics['cumulativeFlow'] {
    const days = Array.from({ length: this.days }, (_, i) => dayLabel(this.firstDay + i * DAY_MS));
    const series = this.columnIds.map((column) => {
      const deltas = this.deltas.get(column)!;
      const counts: number[] = [];
      let running = 0;
      for (let i = 0; i < this.days; i++) counts.push((running += deltas[i]));
      return { column, counts };
    });
    return { days, series };
  }
}
