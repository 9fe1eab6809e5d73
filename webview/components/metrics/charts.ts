import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
  type Plugin,
} from 'chart.js';
import { color } from 'chart.js/helpers';
import { shortDuration } from '../../../server/core/metricsText';
import type { FlowMetrics } from '../../types';

// Only the parts these four charts draw, so the rest of Chart.js stays out of the bundle.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  Tooltip,
);

const DAY = 24 * 3_600_000;

/** Colours of the current theme, read from its CSS variables (VS Code's too, through theme.css). */
export interface ChartColors {
  text: string;
  grid: string;
  accent: string;
  series: string[];
}

const SERIES_VARIABLES = [
  '--kb-text-faint',
  '--prio-low-fg',
  '--prio-medium-fg',
  '--kb-warning',
  '--kb-accent',
  '--kb-danger',
  '--prio-high-fg',
  '--kb-success',
];

export function themeColors(root: Element = document.documentElement): ChartColors {
  const style = getComputedStyle(root);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--kb-text-muted', '#5f6878'),
    grid: read('--kb-border', 'rgba(20, 28, 45, 0.1)'),
    accent: read('--kb-accent', '#4f46e5'),
    series: SERIES_VARIABLES.map((name) => read(name, '#888888')),
  };
}

/** The colour of column `index` of `count`: the last column (done) always takes the success colour. */
function columnColor(colors: ChartColors, index: number, count: number): string {
  if (index === count - 1) return colors.series[colors.series.length - 1];
  return colors.series[index % (colors.series.length - 1)];
}

/** A point that stands for a card: a click on it opens the card. */
export interface CardPoint {
  x: number;
  y: number;
  id: string;
  title: string;
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

function baseOptions(colors: ChartColors) {
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    color: colors.text,
    plugins: { legend: { labels: { color: colors.text, boxWidth: 12 } } },
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

export function cycleTimeChart(m: FlowMetrics, points: CardPoint[], colors: ChartColors): ChartConfiguration {
  const from = Date.parse(m.from);
  const to = Date.parse(m.asOf);
  const line = (label: string, ms: number | null, dash: number[]) => ({
    label: `${label} ${shortDuration(ms)}`,
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
      ...baseOptions(colors),
      scales: {
        x: {
          ...axis(colors, 'Finished'),
          min: from,
          max: to,
          ticks: { color: colors.text, callback: (v) => dayLabel(Number(v)) },
        },
        y: { ...axis(colors, 'Cycle time (days)'), beginAtZero: true },
      },
      plugins: {
        ...baseOptions(colors).plugins,
        tooltip: { callbacks: { label: (item) => cardTooltip(item.raw as CardPoint) } },
      },
    },
    plugins: [pointPlaces],
  };
}

const cardTooltip = (p: CardPoint) => (p.title ? `${p.title}: ${shortDuration(p.y * DAY)}` : shortDuration(p.y * DAY));

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

/** Each open card at its column (spread a little sideways so equal ages stay apart) and its age in days. */
export function agingPoints(m: FlowMetrics): CardPoint[] {
  return m.wip.flatMap((column, index) =>
    column.cards.map((card, i) => ({ x: index + ((i % 7) - 3) * 0.05, y: card.ageMs, id: card.id, title: card.title })),
  );
}

export function agingChart(m: FlowMetrics, points: CardPoint[], colors: ChartColors): ChartConfiguration {
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
      ...baseOptions(colors),
      plugins: {
        ...baseOptions(colors).plugins,
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => cardTooltip(item.raw as CardPoint) } },
      },
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

export { Chart };
