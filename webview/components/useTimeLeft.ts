import { useEffect, useState } from 'preact/hooks';
import { msLeft, msUntilNextChange } from '../agents';
import type { CardClaim } from '../types';

/** Past a minute boundary by this much, so the redraw reads the new minute, not the old one. */
const PAST_BOUNDARY_MS = 20;

/**
 * Milliseconds left on a claim (0 once it ran out), redrawn when its shown minute changes and when
 * it runs out, without asking the server: the lease's end is in the read model. One timer per
 * claimed card, and only claimed cards render this, so a large board pays nothing.
 */
export function useTimeLeft(claim: CardClaim | null): number {
  const [tick, setTick] = useState(0);
  const until = claim?.until;
  const drawnAt = Date.now();
  const left = claim ? msLeft(claim, drawnAt) : 0;
  useEffect(() => {
    if (!claim) return;
    // Effects run after the paint, which a background tab (or a test's paused clock) can hold back
    // past the next change: then redraw at once instead of waiting for a change that has passed.
    const wait = msUntilNextChange(left) - (Date.now() - drawnAt);
    if (!Number.isFinite(wait)) return;
    if (wait <= 0) {
      setTick((n) => n + 1);
      return;
    }
    const timer = setTimeout(() => setTick((n) => n + 1), wait + PAST_BOUNDARY_MS);
    return () => clearTimeout(timer);
  }, [until, tick]);
  return left;
}
