import { strict as assert } from 'node:assert';
import { STANDARD_COLUMNS } from '../../server/core/defaults';
import { isoWeekLabel, percentile } from '../../server/core/flowCalendar';
import { flowMetrics, flowMetricsJson, type MetricsCardInput } from '../../server/core/flowMetrics';
import type { FlowStep } from '../../server/core/flowTimeline';

/**
 * Flow metrics over a history of known instants on the standard board (backlog, todo, in-progress,
 * review, done; work starts in in-progress). Every figure below is worked out by hand.
 */
const H = 3_600_000;
const D = 24 * H;
const T0 = Date.parse('2026-03-02T00:00:00.000Z'); // a Monday
const iso = (at: number) => new Date(at).toISOString();

const step = (at: number, kind: FlowStep['kind'], from: string | null, to: string | null): FlowStep => ({
  at: T0 + at,
  kind,
  from,
  to,
});
const card = (id: string, status: string, created: number, extra: Partial<MetricsCardInput> = {}) => ({
  id,
  title: `Card ${id}`,
  status,
  created: iso(T0 + created),
  ...extra,
});

const cards: MetricsCardInput[] = [
  card('a', 'done', 0),
  card('b', 'done', D),
  card('c', 'done', 0),
  // Older than the record: finished, known only by completedAt.
  card('d', 'done', -2 * D, { completedAt: iso(T0 + 5 * D) }),
  card('e', 'in-progress', 0),
  // Its record starts with a move out of review: when it started is not known.
  card('f', 'done', 0),
  card('g', 'backlog', D),
];
const steps = new Map<string, FlowStep[]>([
  [
    'a',
    [
      step(0, 'created', null, 'backlog'),
      step(D, 'moved', 'backlog', 'in-progress'),
      step(2 * D, 'moved', 'in-progress', 'review'),
      step(3 * D + 6 * H, 'moved', 'review', 'done'),
    ],
  ],
  [
    'b',
    [
      step(D, 'created', null, 'todo'),
      step(2 * D, 'moved', 'todo', 'in-progress'),
      step(4 * D, 'moved', 'in-progress', 'done'),
    ],
  ],
  [
    'c',
    [
      step(0, 'created', null, 'backlog'),
      step(3 * D, 'moved', 'backlog', 'in-progress'),
      step(10 * D, 'moved', 'in-progress', 'done'),
    ],
  ],
  ['e', [step(0, 'created', null, 'backlog'), step(6 * D, 'moved', 'backlog', 'in-progress')]],
  ['f', [step(8 * D, 'moved', 'review', 'done')]],
]);

const metrics = () =>
  flowMetrics({
    boardId: 'default',
    columns: STANDARD_COLUMNS,
    startColumn: 'in-progress',
    cards,
    steps,
    fromMs: T0,
    toMs: T0 + 13 * D - 1,
    nowMs: T0 + 20 * D,
  });

describe('Flow metrics: cycle and lead time, throughput, WIP age and cumulative flow', () => {
  it('when cards finished in the range, then cycle and lead times are exact per card and as nearest-rank percentiles', () => {
    const m = metrics();
    const byId = new Map(m.cards.map((c) => [c.id, c]));
    assert.equal(byId.get('a')!.cycleTimeMs, 2 * D + 6 * H);
    assert.equal(byId.get('a')!.leadTimeMs, 3 * D + 6 * H);
    assert.equal(byId.get('b')!.cycleTimeMs, 2 * D);
    assert.equal(byId.get('b')!.leadTimeMs, 3 * D);
    assert.equal(byId.get('c')!.cycleTimeMs, 7 * D);
    assert.equal(byId.get('c')!.leadTimeMs, 10 * D);
    assert.deepEqual(m.cycleTime, { count: 3, p50Ms: 2 * D + 6 * H, p85Ms: 7 * D, p95Ms: 7 * D });
    assert.deepEqual(m.leadTime, { count: 5, p50Ms: 7 * D, p85Ms: 10 * D, p95Ms: 10 * D });
    assert.equal(m.startColumn, 'in-progress');
    assert.equal(m.doneColumn, 'done');
    assert.equal(m.asOf, iso(T0 + 13 * D - 1));
  });

  it('when a card has no recorded start, then it has a lead time but no cycle time and is listed as such', () => {
    const m = metrics();
    const byId = new Map(m.cards.map((c) => [c.id, c]));
    assert.deepEqual(m.cycleTimeUnknown, ['d', 'f']);
    assert.deepEqual(
      { history: byId.get('d')!.history, cycle: byId.get('d')!.cycleTimeMs, lead: byId.get('d')!.leadTimeMs },
      { history: 'none', cycle: null, lead: 7 * D },
    );
    assert.deepEqual(
      { history: byId.get('f')!.history, cycle: byId.get('f')!.cycleTimeMs, lead: byId.get('f')!.leadTimeMs },
      { history: 'partial', cycle: null, lead: 8 * D },
    );
    assert.equal(byId.get('a')!.history, 'full');
    assert.equal(byId.get('a')!.startedAt, iso(T0 + D));
    assert.equal(byId.get('a')!.finishedAt, iso(T0 + 3 * D + 6 * H));
  });

  it('when a card moved through the columns, then its time in each is exact up to asOf', () => {
    const a = metrics().cards.find((c) => c.id === 'a')!;
    assert.deepEqual(a.columnMs, [D, 0, D, D + 6 * H, 13 * D - 1 - (3 * D + 6 * H)]);
  });

  it('when the range spans two ISO weeks, then throughput counts the arrivals of each', () => {
    assert.deepEqual(metrics().throughput, [
      { week: '2026-W10', start: '2026-03-02', count: 3 },
      { week: '2026-W11', start: '2026-03-09', count: 2 },
    ]);
  });

  it('when cards are open at asOf, then WIP lists them per column with their age and time in column', () => {
    assert.deepEqual(metrics().wip, [
      { column: 'backlog', cards: [{ id: 'g', title: 'Card g', ageMs: 12 * D - 1, inColumnMs: 12 * D - 1 }] },
      { column: 'todo', cards: [] },
      { column: 'in-progress', cards: [{ id: 'e', title: 'Card e', ageMs: 7 * D - 1, inColumnMs: 7 * D - 1 }] },
      { column: 'review', cards: [] },
    ]);
  });

  it('when the range has 13 days, then cumulative flow counts each column at the end of each day', () => {
    const { days, series } = metrics().cumulativeFlow;
    assert.equal(days.length, 13);
    assert.equal(days[0], '2026-03-02');
    assert.equal(days[12], '2026-03-14');
    assert.deepEqual(series, [
      { column: 'backlog', counts: [4, 4, 4, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1] },
      { column: 'todo', counts: [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
      { column: 'in-progress', counts: [0, 1, 1, 2, 1, 1, 2, 2, 2, 2, 1, 1, 1] },
      { column: 'review', counts: [1, 1, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0] },
      { column: 'done', counts: [0, 0, 0, 1, 2, 3, 3, 3, 4, 4, 5, 5, 5] },
    ]);
  });

  it('when a card left the board before the range, then it is not listed', () => {
    const m = flowMetrics({
      boardId: 'default',
      columns: STANDARD_COLUMNS,
      startColumn: 'in-progress',
      cards: [card('gone', 'deleted', 0)],
      steps: new Map([['gone', [step(0, 'created', null, 'todo'), step(D, 'deleted', 'todo', 'deleted')]]]),
      fromMs: T0 + 2 * D,
      toMs: T0 + 3 * D,
      nowMs: T0 + 3 * D,
    });
    assert.deepEqual(m.cards, []);
    assert.deepEqual(
      m.cumulativeFlow.series.map((s) => s.counts),
      [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ],
    );
  });

  it('when values are ranked, then percentiles are nearest-rank and ISO weeks follow the Thursday rule', () => {
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), 5);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 85), 9);
    assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
    assert.equal(percentile([], 50), null);
    assert.equal(isoWeekLabel(Date.parse('2025-12-29T00:00:00Z')), '2026-W01');
    assert.equal(isoWeekLabel(Date.parse('2020-12-28T00:00:00Z')), '2020-W53');
  });

  it('when the answer is serialized through the kept rows, then it is the same text as the whole answer stringified', () => {
    const odd = card('q', 'done', 0, { title: 'Quotes " \\ and \u2028 and émoji 🚀' });
    const input = {
      boardId: 'default',
      columns: STANDARD_COLUMNS,
      startColumn: 'in-progress',
      cards: [...cards, odd],
      steps,
      fromMs: T0,
      toMs: T0 + 13 * D - 1,
      nowMs: T0 + 20 * D,
    };
    assert.equal(flowMetricsJson(input), JSON.stringify(flowMetrics(input)));
    // The same card objects again, under another range and start column: nothing kept is reused wrongly.
    const other = { ...input, startColumn: 'todo', fromMs: T0 + 2 * D, toMs: T0 + 4 * D, nowMs: T0 + 3 * D };
    assert.equal(flowMetricsJson(other), JSON.stringify(flowMetrics(other)));
    const fresh = { ...other, cards: other.cards.map((c) => ({ ...c })) };
    assert.deepEqual(JSON.parse(flowMetricsJson(other)), flowMetrics(fresh));
    assert.equal(flowMetrics(fresh).cards.find((c) => c.id === 'b')!.cycleTimeMs, 3 * D);
  });
});
