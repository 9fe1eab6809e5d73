import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { shortDuration } from '../../../server/core/metricsText';
import { useAppState, useController } from '../../context';
import type { FlowMetrics } from '../../types';
import { useCharts, type ChartsState } from './loadCharts';
import { MetricsChart, useThemeChanges, type ChartSpec } from './MetricsChart';
import { agingPoints, finishedPoints } from './points';
import { agingSummary, cumulativeFlowSummary, cycleTimeSummary, throughputSummary } from './summaries';

interface Range {
  from?: string;
  to?: string;
}

/** The board's flow metrics over the range, fetched again when the board, its cards or the range change. */
function useMetrics(range: Range): { metrics: FlowMetrics | null; error: string | null } {
  const ctrl = useController();
  const { boardId, tasks } = useAppState();
  const [answer, setAnswer] = useState<{ metrics: FlowMetrics | null; error: string | null }>({
    metrics: null,
    error: null,
  });
  useEffect(() => {
    if (!boardId) return;
    let current = true;
    ctrl.api.getMetrics(boardId, range).then(
      (metrics) => current && setAnswer({ metrics, error: null }),
      (error: Error) => current && setAnswer((was) => ({ metrics: was.metrics, error: error.message })),
    );
    return () => {
      current = false;
    };
  }, [ctrl, boardId, range.from, range.to, tasks]);
  return answer;
}

export function MetricsView() {
  const ctrl = useController();
  const [range, setRange] = useState<Range>({});
  const { metrics, error } = useMetrics(range);
  // Asked for at once, so Chart.js arrives while the metrics are fetched.
  const charts = useCharts();
  const themeChanges = useThemeChanges();
  const openCard = useCallback(
    (id: string) => {
      if (ctrl.state.tasks[id]) ctrl.store.set({ openTaskId: id });
    },
    [ctrl],
  );
  return (
    <section class="metrics-view" aria-label="Flow metrics" data-testid="metrics-view">
      <div class="metrics-toolbar">
        <h2 class="metrics-heading">Flow metrics</h2>
        <RangePicker range={range} metrics={metrics} onChange={setRange} />
      </div>
      {error && (
        <div class="banner banner-error" role="alert">
          {error}
        </div>
      )}
      {metrics ? (
        <MetricsBody metrics={metrics} charts={charts} themeChanges={themeChanges} onCard={openCard} />
      ) : (
        !error && (
          <div class="board-loading" aria-busy="true">
            Loading metrics…
          </div>
        )
      )}
    </section>
  );
}

function RangePicker({
  range,
  metrics,
  onChange,
}: {
  range: Range;
  metrics: FlowMetrics | null;
  onChange: (r: Range) => void;
}) {
  // Until a date is picked, the range is the server's default (the last 90 days), shown as it answered.
  const from = range.from ?? metrics?.from.slice(0, 10) ?? '';
  const to = range.to ?? metrics?.to.slice(0, 10) ?? '';
  const set = (part: keyof Range) => (event: Event) => {
    const value = (event.currentTarget as HTMLInputElement).value;
    onChange({ from, to, [part]: value || undefined });
  };
  return (
    <div class="metrics-range" role="group" aria-label="Date range">
      <label>
        From <input type="date" value={from} max={to || undefined} onChange={set('from')} data-testid="metrics-from" />
      </label>
      <label>
        To <input type="date" value={to} min={from || undefined} onChange={set('to')} data-testid="metrics-to" />
      </label>
    </div>
  );
}

/** The four charts, each with its title, its words for a screen reader and what it draws. */
function chartSpecs(m: FlowMetrics): ChartSpec[] {
  const finished = finishedPoints(m);
  const aging = agingPoints(m);
  return [
    {
      id: 'metrics-cumulative-flow',
      title: 'Cumulative flow',
      summary: cumulativeFlowSummary(m),
      config: (charts, colors) => charts.cumulativeFlowChart(m, colors),
      count: m.cumulativeFlow.series.reduce((n, s) => n + s.counts.length, 0),
    },
    {
      id: 'metrics-cycle-time',
      title: `Cycle time (${nameOf(m, m.startColumn)} to ${nameOf(m, m.doneColumn)})`,
      summary: cycleTimeSummary(m, finished.length),
      config: (charts, colors) => charts.cycleTimeChart(m, finished, colors, shortDuration),
      count: finished.length,
      cards: true,
    },
    {
      id: 'metrics-throughput',
      title: 'Weekly throughput',
      summary: throughputSummary(m),
      config: (charts, colors) => charts.throughputChart(m, colors),
      count: m.throughput.length,
    },
    {
      id: 'metrics-aging',
      title: 'Aging work in progress',
      summary: agingSummary(m),
      config: (charts, colors) => charts.agingChart(m, aging, colors, shortDuration),
      count: aging.length,
      cards: true,
    },
  ];
}

function MetricsBody({
  metrics: m,
  charts: { charts, error, retry },
  themeChanges,
  onCard,
}: {
  metrics: FlowMetrics;
  charts: ChartsState;
  themeChanges: number;
  onCard: (id: string) => void;
}) {
  // Kept between drawings: a new spec (its `config`) is what makes a chart draw itself again.
  const specs = useMemo(() => chartSpecs(m), [m]);
  return (
    <>
      <Headline metrics={m} />
      <HistoryNote metrics={m} />
      <div class="metrics-grid">
        {specs.map((spec) => (
          <MetricsChart key={spec.id} {...spec} charts={charts} themeChanges={themeChanges} onCard={onCard} />
        ))}
        <ChartsStatus loaded={charts !== null} error={error} retry={retry} />
      </div>
    </>
  );
}

/**
 * While Chart.js loads, or when it could not, a line over the empty charts says so; it lies over
 * them, so the figures do not move when it goes.
 */
function ChartsStatus({ loaded, error, retry }: { loaded: boolean; error: string | null; retry?: () => void }) {
  if (error)
    return (
      <p class="metrics-charts-status is-error" role="alert" data-testid="metrics-charts-status">
        The charts could not be loaded ({error}).{' '}
        <button type="button" class="btn btn-sm" data-testid="metrics-charts-retry" onClick={retry}>
          Try again
        </button>
      </p>
    );
  if (loaded) return null;
  return (
    <p class="metrics-charts-status" role="status" aria-busy="true" data-testid="metrics-charts-status">
      Loading charts…
    </p>
  );
}

const nameOf = (m: FlowMetrics, id: string) => m.columns.find((c) => c.id === id)?.name ?? id;

function Headline({ metrics: m }: { metrics: FlowMetrics }) {
  const figures = [
    ['cycle-p50', 'Cycle time p50', m.cycleTime.p50Ms],
    ['cycle-p85', 'Cycle time p85', m.cycleTime.p85Ms],
    ['cycle-p95', 'Cycle time p95', m.cycleTime.p95Ms],
    ['lead-p50', 'Lead time p50', m.leadTime.p50Ms],
  ] as const;
  return (
    <dl class="metrics-headline">
      {figures.map(([key, label, ms]) => (
        <div class="metrics-figure" key={key}>
          <dt>{label}</dt>
          <dd data-testid={`metrics-${key}`}>{shortDuration(ms)}</dd>
        </div>
      ))}
      <div class="metrics-figure">
        <dt>Finished</dt>
        <dd data-testid="metrics-finished">{m.leadTime.count}</dd>
      </div>
    </dl>
  );
}

/** Says which numbers rest on an incomplete record: cards older than the history, finished cards with no known start. */
function HistoryNote({ metrics: m }: { metrics: FlowMetrics }) {
  const partial = m.cards.filter((c) => c.history !== 'full').length;
  const unknown = m.cycleTimeUnknown.length;
  if (partial === 0 && unknown === 0) return null;
  const parts: string[] = [];
  if (unknown > 0)
    parts.push(
      `${unknown} finished card${unknown === 1 ? ' has' : 's have'} no recorded start, so no cycle time (${m.cycleTimeUnknown.join(', ')})`,
    );
  if (partial > 0)
    parts.push(
      `${partial} card${partial === 1 ? "'s" : "s'"} history is partial or missing (older than the record), so their column times are estimates`,
    );
  return (
    <p class="metrics-note" role="note" data-testid="metrics-history-note">
      {parts.join('; ')}.
    </p>
  );
}
