import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChartConfiguration } from 'chart.js';
import { themeColors, type ChartColors } from './chartColors';
import type { Charts } from './loadCharts';

/**
 * Counts the changes of theme (the board's light/dark switch, or the editor's theme inside VS Code,
 * which sets classes on body), so the charts are drawn again in its colours.
 */
export function useThemeChanges(): number {
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    const observer = new MutationObserver(() => setChanges((n) => n + 1));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'style', 'class'] });
    observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind'] });
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = () => setChanges((n) => n + 1);
    query.addEventListener('change', follow);
    return () => {
      observer.disconnect();
      query.removeEventListener('change', follow);
    };
  }, []);
  return changes;
}

/** One chart of the metrics: what MetricsChart needs beyond the chart module and the theme. */
export interface ChartSpec {
  id: string;
  title: string;
  /** What the chart shows, in words: the canvas's accessible name for a screen reader. */
  summary: string;
  /** Builds the chart with the chart module, in the current theme's colours. */
  config: (charts: Charts, colors: ChartColors) => ChartConfiguration;
  /** How many values the chart plots, for tests and tools (`data-count`, written once drawn). */
  count: number;
  /** Its points stand for cards, which a click opens. */
  cards?: boolean;
}

interface Props extends ChartSpec {
  /** The chart module, `null` while it loads: the figure stands, empty, until then. */
  charts: Charts | null;
  themeChanges: number;
  onCard: (id: string) => void;
}

/** One chart: its title, the canvas Chart.js draws on, and the summary in words. */
export function MetricsChart({ id, title, summary, config, count, cards, charts, themeChanges, onCard }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const target = canvas.current;
    if (!target || !charts) return;
    const destroy = charts.drawChart(target, config(charts, themeColors()), cards ? onCard : undefined);
    // Written here, not in the markup, so whoever reads it knows the canvas shows those values.
    target.dataset.count = String(count);
    return destroy;
  }, [charts, config, count, cards, themeChanges, onCard]);
  return (
    <figure class="metrics-chart" aria-labelledby={`${id}-title`} data-testid={id}>
      <h3 id={`${id}-title`} class="metrics-chart-title">
        {title}
      </h3>
      <div class="metrics-canvas">
        <canvas ref={canvas} role="img" aria-label={summary} />
      </div>
      <figcaption class="metrics-summary">{summary}</figcaption>
    </figure>
  );
}
