import { firstKnownArrival, timelineOf, type FlowStep, type Timeline } from './flowTimeline';

/**
 * What the flow metrics take from one card that depends neither on the range nor on `asOf`: its
 * timeline, when it started and finished, its cycle and lead time, and the JSON of its row up to
 * `columnMs`. A card that has not changed keeps these between answers, so an answer right after
 * one move rebuilds one card's facts, not ten thousand.
 */

export interface MetricsCardInput {
  id: string;
  title: string;
  status: string;
  created: string;
  completedAt?: string;
  archivedAt?: string;
}

/** How the board counts: its columns in order, where cycle time starts, where it ends. */
export interface FlowRules {
  columnIds: readonly string[];
  position: ReadonlyMap<string, number>;
  startIndex: number;
  doneColumn: string;
  /** Names the rules, so facts made under other rules are not reused. */
  key: string;
}

export interface CardFacts {
  created: number;
  timeline: Timeline;
  /** First known entry into the start column or a later one; null when not started or not known. */
  started: number | null;
  finished: number | null;
  cycleTimeMs: number | null;
  leadTimeMs: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** The card's row in the answer as JSON, up to and including `"columnMs":`. */
  rowHead: string;
}

export function flowRules(columnIds: readonly string[], startColumn: string): FlowRules {
  const position = new Map(columnIds.map((id, i) => [id, i]));
  const startIndex = position.get(startColumn) ?? 0;
  return {
    columnIds,
    position,
    startIndex,
    doneColumn: columnIds[columnIds.length - 1],
    key: JSON.stringify([columnIds, startIndex]),
  };
}

export const isStartedUnder = (rules: FlowRules, column: string | null): boolean =>
  column !== null && (rules.position.get(column) ?? -1) >= rules.startIndex;

interface Known {
  steps: readonly FlowStep[];
  rulesKey: string;
  facts: CardFacts;
}

/** Held weakly per card input, so a card's old versions go with it. */
const known = new WeakMap<MetricsCardInput, Known>();

export function factsOf(card: MetricsCardInput, steps: readonly FlowStep[], rules: FlowRules): CardFacts {
  const kept = known.get(card);
  if (kept && kept.steps === steps && kept.rulesKey === rules.key) return kept.facts;
  const facts = factsFrom(card, steps, rules);
  known.set(card, { steps, rulesKey: rules.key, facts });
  return facts;
}

const isoOrNull = (at: number | null) => (at === null ? null : new Date(at).toISOString());

function factsFrom(card: MetricsCardInput, steps: readonly FlowStep[], rules: FlowRules): CardFacts {
  const created = Date.parse(card.created);
  const completedAt = card.completedAt === undefined ? undefined : Date.parse(card.completedAt);
  const timeline = timelineOf(
    { status: card.status, created, completedAt },
    steps,
    rules.columnIds[0],
    rules.doneColumn,
  );
  // Without a recorded move, the only known instant is the finish (completedAt): never a start.
  const started =
    timeline.history === 'none' ? null : firstKnownArrival(timeline.entries, (column) => isStartedUnder(rules, column));
  const finished = firstKnownArrival(timeline.entries, (column) => column === rules.doneColumn);
  const cycleTimeMs = started !== null && finished !== null ? Math.max(0, finished - started) : null;
  const leadTimeMs = finished !== null ? Math.max(0, finished - created) : null;
  const startedAt = isoOrNull(started);
  const finishedAt = isoOrNull(finished);
  // The keys in the order of the row's schema (MetricsCard), columnMs last.
  const head = {
    id: card.id,
    title: card.title,
    status: card.status,
    created: card.created,
    history: timeline.history,
    startedAt,
    finishedAt,
    cycleTimeMs,
    leadTimeMs,
  };
  const rowHead = `${JSON.stringify(head).slice(0, -1)},"columnMs":`;
  return { created, timeline, started, finished, cycleTimeMs, leadTimeMs, startedAt, finishedAt, rowHead };
}
