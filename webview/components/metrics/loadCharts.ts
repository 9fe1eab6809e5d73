import { useEffect, useState } from 'preact/hooks';

/** The chart module: Chart.js and the four charts. */
export type Charts = typeof import('./charts');

let loading: Promise<Charts> | null = null;

/**
 * Chart.js is most of the weight of the metrics and no other view uses it, so it is a chunk of its
 * own (esbuild.mjs), fetched the first time the metrics are shown and kept from then on.
 */
export function loadCharts(): Promise<Charts> {
  loading ??= import('./charts');
  return loading;
}

export type ChartsState = { charts: Charts; error: null } | { charts: null; error: string | null };

/** The chart module once loaded (`null` while it loads), or why it could not be. */
export function useCharts(): ChartsState {
  const [state, setState] = useState<ChartsState>({ charts: null, error: null });
  useEffect(() => {
    let current = true;
    loadCharts().then(
      (charts) => current && setState({ charts, error: null }),
      (error: Error) => current && setState({ charts: null, error: error.message || String(error) }),
    );
    return () => {
      current = false;
    };
  }, []);
  return state;
}
