import * as ChartJs from 'chart.js';
import type { ChartConfiguration, Plugin } from 'chart.js';
import { color } from 'chart.js/helpers';
import type { FlowMetrics } from '../../types';
import type { ChartColors } from './chartColors';
import type { CardPoint } from './points';

/*
 * Chart.js and the four charts: the board loads this module (its own chunk, esbuild.mjs) only when the
 * metrics are first shown (loadCharts.ts), so a board that never shows them never fetches or parses it.
 */

// Only the parts these four charts draw, so the rest of Chart.js stays out of the chunk. Each is
// named once, through the namespace: esbuild still leaves out every part not named here.
ChartJs.Chart.register(
  ChartJs.BarController,
  ChartJs.BarElement,
  ChartJs.CategoryScale,
  ChartJs.Filler,
  ChartJs.Legend,
  ChartJs.LineController,
  ChartJs.LineElement,
  ChartJs.LinearScale,
  ChartJs.PointElement,
  ChartJs.ScatterController,
  ChartJs.Tooltip,
);

const DAY = 24 * 3_600_000;

/** The colour of column `index` of `count`: the last column (done) always takes the success colour. */
function columnColor(colors: ChartColors, index: number, count: number): string {
  if (index === count - 1) return colors.series[colors.series.length - 1];
  return colors.series[index % (colors.series.length - 1)];
}

/**
 * Writes where each card's point was drawn (CSS pixels in the canvas) on the canvas as
 * `data-points`, so a test (or a tool) can aim at a point without knowing Chart.js.
 */
const pointPlaces: Plugin = {
  id: 'kanbanPointPlaces',
  afterRender(chart) {
    const meta = chart.getDatasetMeta(0);
    const data = chart.data.datasets[0]?.data as unknown[] | undefined;
    if (!data || meta.type === 'line' || meta.type === 'bar') return;
    const places = meta.data.map((element, index) => ({
      id: (data[index] as CardPoint).id,
      x: Math.round(element.x),
      y: Math.round(element.y),
    }));
    chart.canvas.dataset.points = JSON.stringify(places);
  },
};

/**
 * How a duration reads (metricsText's shortDuration), given by the board: were this chunk to import
 * it, esbuild would put it in a third file that every board load fetches before its first render.
 */
export type DurationText = (ms: number | null) => string;

const cardTooltip = (p: CardPoint, duration: DurationText) =>
  p.title ? `${p.title}: ${duration(p.y * DAY)}` : duration(p.y * DAY);

/**
 * The options every chart shares; a chart of cards (`cards`) names the card under the pointer in its
 * tooltip, and may go without a legend.
 */
function baseOptions(colors: ChartColors, { cards, legend = true }: { cards?: DurationText; legend?: boolean } = {}) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    color: colors.text,
    plugins: {
      legend: legend ? { labels: { color: colors.text, boxWidth: 12 } } : { display: false },
      ...(cards && {
        tooltip: { callbacks: { label: (item: { raw: unknown }) => cardTooltip(item.raw as CardPoint, cards) } },
      }),
    },
  };
}

const axis = (colors: ChartColors, title: string) => ({
  ticks: { color: colors.text },
  grid: { color: colors.grid },
  title: { display: true, text: title, color: colors.text },
});

/** A band's fill: its line colour, half see-through (as given when the colour cannot be parsed). */
function translucent(value: string): string {
  const parsed = color(value);
  return parsed.valid ? parsed.alpha(0.45).rgbString() : value;
}

const dayLabel = (ms: number) => new Date(ms).toISOString().slice(5, 10);

export function cumulativeFlowChart(m: FlowMetrics, colors: ChartColors): ChartConfiguration {
  const names = new Map(m.columns.map((c) => [c.id, c.name]));
  const count = m.columns.length;
  // The last column at the bottom, the first on top, as work flows down the bands.
  const series = m.cumulativeFlow.series.map((s, index) => ({ s, index })).reverse();
  return {
    type: 'line',
    data: {
      labels: m.cumulativeFlow.days,
      datasets: series.map(({ s, index }, order) => ({
        label: names.get(s.column) ?? s.column,
        data: s.counts,
        fill: order === 0 ? 'origin' : '-1',
        borderColor: columnColor(colors, index, count),
        backgroundColor: translucent(columnColor(colors, index, count)),
        pointRadius: 0,
        borderWidth: 1,
        tension: 0,
      })),
    },
    options: {
      ...baseOptions(colors),
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: axis(colors, 'Day'),
        y: { ...axis(colors, 'Cards'), stacked: true, beginAtZero: true, ticks: { color: colors.text, precision: 0 } },
      },
    },
  };
}

export function cycleTimeChart(
  m: FlowMetrics,
  points: CardPoint[],
  colors: ChartColors,
  duration: DurationText,
): ChartConfiguration {
  const from = Date.parse(m.from);
  const to = Date.parse(m.asOf);
  const line = (label: string, ms: number | null, dash: number[]) => ({
    label: `${label} ${duration(ms)}`,
    data:
      ms === null
        ? []
        : [
            { x: from, y: ms / DAY },
            { x: to, y: ms / DAY },
          ],
    showLine: true,
    pointRadius: 0,
    pointHitRadius: 0,
    borderWidth: 1.5,
    borderDash: dash,
    borderColor: colors.text,
  });
  return {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: 'Finished cards',
          data: points.map((p) => ({ ...p, y: p.y / DAY })),
          pointRadius: 5,
          pointHoverRadius: 7,
          backgroundColor: colors.accent,
          borderColor: colors.accent,
        },
        line('p50', m.cycleTime.p50Ms, []),
        line('p85', m.cycleTime.p85Ms, [6, 4]),
        line('p95', m.cycleTime.p95Ms, [2, 3]),
      ],
    },
    options: {
      ...baseOptions(colors, { cards: duration }),
      scales: {
        x: {
          ...axis(colors, 'Finished'),
          min: from,
          max: to,
          ticks: { color: colors.text, callback: (v) => dayLabel(Number(v)) },
        },
        y: { ...axis(colors, 'Cycle time (days)'), beginAtZero: true },
      },
    },
    plugins: [pointPlaces],
  };
}

export function throughputChart(m: FlowMetrics, colors: ChartColors): ChartConfiguration {
  return {
    type: 'bar',
    data: {
      labels: m.throughput.map((w) => w.week),
      datasets: [{ label: 'Cards finished', data: m.throughput.map((w) => w.count), backgroundColor: colors.accent }],
    },
    options: {
      ...baseOptions(colors),
      scales: {
        x: axis(colors, 'ISO week'),
        y: { ...axis(colors, 'Cards'), beginAtZero: true, ticks: { color: colors.text, precision: 0 } },
      },
    },
  };
}

export function agingChart(
  m: FlowMetrics,
  points: CardPoint[],
  colors: ChartColors,
  duration: DurationText,
): ChartConfiguration {
  const names = m.wip.map((w) => m.columns.find((c) => c.id === w.column)?.name ?? w.column);
  return {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: 'Open cards',
          data: points.map((p) => ({ ...p, y: p.y / DAY })),
          pointRadius: 5,
          pointHoverRadius: 7,
          backgroundColor: points.map((p) => columnColor(colors, Math.round(p.x), m.columns.length)),
        },
      ],
    },
    options: {
      ...baseOptions(colors, { cards: duration, legend: false }),
      scales: {
        x: {
          ...axis(colors, 'Column'),
          min: -0.5,
          max: names.length - 0.5,
          // One tick per column, at its whole number, named after it.
          afterBuildTicks: (scale) => {
            scale.ticks = names.map((_, value) => ({ value }));
          },
          ticks: { color: colors.text, autoSkip: false, callback: (v) => names[Number(v)] ?? '' },
        },
        y: { ...axis(colors, 'Age (days)'), beginAtZero: true },
      },
    },
    plugins: [pointPlaces],
  };
}

/**
 * Draws `config` on `canvas`; with `onCard`, a click on a card's point (the first dataset's) opens
 * that card. Returns what takes the chart down again.
 */
export function drawChart(
  canvas: HTMLCanvasElement,
  config: ChartConfiguration,
  onCard?: (id: string) => void,
): () => void {
  if (onCard)
    config.options = {
      ...config.options,
      onClick: (event, _elements, chart) => {
        const [hit] = chart.getElementsAtEventForMode(event as unknown as Event, 'nearest', { intersect: true }, false);
        if (hit?.datasetIndex === 0) onCard((chart.data.datasets[0].data[hit.index] as unknown as CardPoint).id);
      },
      onHover: (event, elements) => {
        const target = event.native?.target as HTMLElement | undefined;
        if (target) target.style.cursor = elements.some((e) => e.datasetIndex === 0) ? 'pointer' : '';
      },
    };
  const chart = new ChartJs.Chart(canvas, config);
  return () => chart.destroy();
}
