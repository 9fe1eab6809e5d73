import { DAY_MS, WEEK_MS, dayLabel, dayStart, isoWeekLabel, percentile, weekStart } from './flowCalendar';
import {
  factsOf,
  flowRules,
  isStartedUnder,
  type CardFacts,
  type FlowRules,
  type MetricsCardInput,
} from './flowCardFacts';
import { entryAt, firstKnownArrival, timeInColumns, type FlowStep, type TimelineEntry } from './flowTimeline';
import type { FlowMetrics, MetricsCard } from './shapes/metrics';

export type { MetricsCardInput } from './flowCardFacts';

/**
 * Flow metrics of one board, in one pass over its cards' timelines:
 * - cycle time: from the first known entry into the start column or any later one, to the first
 *   arrival in the last column; lead time: from creation to that arrival. Both count for the cards
 *   whose arrival lies in [from, to], as nearest-rank p50, p85 and p95;
 * - throughput: those arrivals per ISO week;
 * - WIP: the cards in every column but the last at `asOf` (archived ones left out), oldest first;
 * - cumulative flow: cards per column at the last millisecond of each UTC day of the range.
 */

export interface MetricsInput {
  boardId: string;
  columns: readonly { id: string; name: string }[];
  startColumn: string;
  /**
   * The board's cards. Pass the same object again for a card that has not changed (with the same
   * steps): what does not depend on the range is then reused (core/flowCardFacts.ts).
   */
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

/** One card of the answer: its kept facts and its time per column up to `asOf`. */
interface Row {
  card: MetricsCardInput;
  facts: CardFacts;
  columnMs: number[];
}

type Aggregates = Omit<FlowMetrics, 'cards'>;

export function flowMetrics(input: MetricsInput): FlowMetrics {
  const { aggregates, rows } = measure(input);
  return { ...aggregates, cards: rows.map(rowObject) };
}

/**
 * The same answer as `JSON.stringify(flowMetrics(input))`, made faster: each card's row is its kept
 * JSON head and its column times, so the cards' fields are not serialized again on every answer.
 */
export function flowMetricsJson(input: MetricsInput): string {
  const { aggregates, rows } = measure(input);
  const outer = JSON.stringify({ ...aggregates, cards: [] });
  return `${outer.slice(0, -'[]}'.length)}[${rows.map(rowJson).join(',')}]}`;
}

function rowObject({ card, facts, columnMs }: Row): MetricsCard {
  return {
    id: card.id,
    title: card.title,
    status: card.status,
    created: card.created,
    history: facts.timeline.history,
    startedAt: facts.startedAt,
    finishedAt: facts.finishedAt,
    cycleTimeMs: facts.cycleTimeMs,
    leadTimeMs: facts.leadTimeMs,
    columnMs,
  };
}

const rowJson = ({ facts, columnMs }: Row): string => `${facts.rowHead}[${columnMs.join(',')}]}`;

const iso = (at: number) => new Date(at).toISOString();

function measure(input: MetricsInput): { aggregates: Aggregates; rows: Row[] } {
  const range: Range = { from: input.fromMs, to: input.toMs, asOf: Math.min(input.toMs, input.nowMs) };
  const rules = flowRules(
    input.columns.map((c) => c.id),
    input.startColumn,
  );
  const { columnIds, position, doneColumn } = rules;
  const flow = new CumulativeFlow(columnIds, range);
  const wip = new Map<string, FlowMetrics['wip'][number]['cards']>(columnIds.slice(0, -1).map((id) => [id, []]));
  const cycle: number[] = [];
  const lead: number[] = [];
  const finishedAt: number[] = [];
  const cycleTimeUnknown: string[] = [];
  const rows: Row[] = [];

  for (const card of input.cards) {
    const facts = factsOf(card, input.steps.get(card.id) ?? NO_STEPS, rules);
    const { entries } = facts.timeline;
    if (!onBoardDuring(entries, position, range)) continue;
    flow.add(entries);
    const { finished } = facts;
    if (finished !== null && finished >= range.from && finished <= range.to) {
      finishedAt.push(finished);
      if (facts.leadTimeMs !== null) lead.push(facts.leadTimeMs);
      if (facts.cycleTimeMs !== null) cycle.push(facts.cycleTimeMs);
      else cycleTimeUnknown.push(card.id);
    }
    noteWip(wip, card, facts, rules, range.asOf);
    rows.push({ card, facts, columnMs: timeInColumns(entries, position, range.asOf) });
  }

  const aggregates: Aggregates = {
    board: input.boardId,
    from: iso(range.from),
    to: iso(range.to),
    asOf: iso(range.asOf),
    columns: input.columns.map(({ id, name }) => ({ id, name })),
    startColumn: columnIds[rules.startIndex],
    doneColumn,
    cycleTime: summary(cycle),
    leadTime: summary(lead),
    throughput: weeklyThroughput(finishedAt, range),
    wip: [...wip].map(([column, list]) => ({ column, cards: list.sort((a, b) => b.ageMs - a.ageMs) })),
    cumulativeFlow: flow.result(),
    cycleTimeUnknown,
  };
  return { aggregates, rows };
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
  facts: CardFacts,
  rules: FlowRules,
  asOf: number,
): void {
  if (card.archivedAt !== undefined && Date.parse(card.archivedAt) <= asOf) return;
  const { entries } = facts.timeline;
  const holding = entryAt(entries, asOf);
  const column = holding?.column;
  if (!holding || column === null || column === undefined) return;
  const list = wip.get(column);
  if (!list) return;
  // Not started, or started before the record began: the card's age counts from its creation.
  const since = firstKnownArrival(entries, (c) => isStartedUnder(rules, c), asOf) ?? facts.created;
  list.push({
    id: card.id,
    title: card.title,
    ageMs: Math.max(0, asOf - since),
    inColumnMs: Math.max(0, asOf - holding.at),
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
