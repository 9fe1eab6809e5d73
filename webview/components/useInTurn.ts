import { useCallback, useRef } from 'preact/hooks';

/**
 * Async work run one call at a time, in the order it was asked for: each starts once the one before
 * it has settled (a failure does not stop the next). Saves checked against a version use it, so a
 * quick second edit is checked against what the first one stored, not refused as a change from
 * elsewhere.
 */
export function useInTurn(): <T>(work: () => Promise<T>) => Promise<T> {
  const last = useRef<Promise<unknown>>(Promise.resolve());
  return useCallback(<T>(work: () => Promise<T>): Promise<T> => {
    const run = last.current.then(work);
    last.current = run.catch(() => undefined);
    return run;
  }, []);
}
