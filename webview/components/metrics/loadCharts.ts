import { useEffect, useState } from 'preact/hooks';

/** The chart module: Chart.js and the four charts. */
export type Charts = typeof import('./charts');

let loading: Promise<Charts> | null = null;

/**
 * Chart.js is most of the weight of the metrics and no other view uses it, so it is a chunk of its
 * own (esbuild.mjs), fetched the first time the metrics are shown and kept from then on. A fetch
 * that failed is forgotten, so the next try (the metrics shown again, or Try again) fetches anew.
 */
export function loadCharts(): Promise<Charts> {
  const started = (loading ??= import('./charts'));
  started.catch(() => {
    if (loading === started) loading = null;
  });
  return started;
}

export type ChartsState =
  { charts: Charts; error: null; retry?: undefined } | { charts: null; error: string | null; retry?: () => void };

/** The chart module once loaded (`null` while it loads), or why it could not be and a way to try again. */
export function useCharts(): ChartsState {
  const [state, setState] = useState<ChartsState>({ charts: null, error: null });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    const retry = () => {
      setState({ charts: null, error: null });
      setAttempt((n) => n + 1);
    };
    loadCharts().then(
      (charts) => current && setState({ charts, error: null }),
      (error: Error) => current && setState({ charts: null, error: error.message || String(error), retry }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);
  return state;
}
