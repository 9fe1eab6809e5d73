import { useEffect, useState } from 'preact/hooks';

/**
 * A field value shown as chosen while its save is on the way (a checkbox or select would otherwise
 * flip back until the server answers). The saved value takes over when it changes, and again when
 * the save is refused.
 */
export function usePending<T>(saved: T): [T, (next: T, save: Promise<unknown>) => void] {
  const [pending, setPending] = useState<{ value: T } | null>(null);
  const key = JSON.stringify(saved);
  useEffect(() => setPending(null), [key]);
  function choose(next: T, save: Promise<unknown>) {
    setPending({ value: next });
    void save.then((ok) => {
      if (!ok) setPending(null);
    });
  }
  return [pending ? pending.value : saved, choose];
}
