import { useEffect, useRef, useState } from 'preact/hooks';
import { Chart, themeColors, type CardPoint, type ChartColors } from './charts';
import type { ChartConfiguration } from 'chart.js';

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

interface Props {
  id: string;
  title: string;
  /** What the chart shows, in words: the canvas's accessible name for a screen reader. */
  summary: string;
  /** Builds the chart in the current theme's colours. */
  config: (colors: ChartColors) => ChartConfiguration;
  themeChanges: number;
  /** A click on a card's point (the first dataset's). */
  onCard?: (id: string) => void;
  /** How many values the chart plots, for tests and tools (`data-count`). */
  count: number;
}

/** One chart: its title, the canvas Chart.js draws on, and the summary in words. */
export function MetricsChart({ id, title, summary, config, themeChanges, onCard, count }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const built = config(themeColors());
    if (onCard)
      built.options = {
        ...built.options,
        onClick: (event, _elements, chart) => {
          const [hit] = chart.getElementsAtEventForMode(
            event as unknown as Event,
            'nearest',
            { intersect: true },
            false,
          );
          if (hit?.datasetIndex === 0) onCard((chart.data.datasets[0].data[hit.index] as unknown as CardPoint).id);
        },
        onHover: (event, elements) => {
          const target = event.native?.target as HTMLElement | undefined;
          if (target) target.style.cursor = elements.some((e) => e.datasetIndex === 0) ? 'pointer' : '';
        },
      };
    const chart = new Chart(canvas.current, built);
    return () => chart.destroy();
  }, [config, themeChanges, onCard]);
  return (
    <figure class="metrics-chart" aria-labelledby={`${id}-title`} data-testid={id}>
      <h3 id={`${id}-title`} class="metrics-chart-title">
        {title}
      </h3>
      <div class="metrics-canvas">
        <canvas ref={canvas} role="img" aria-label={summary} data-count={count} />
      </div>
      <figcaption class="metrics-summary">{summary}</figcaption>
    </figure>
  );
}
