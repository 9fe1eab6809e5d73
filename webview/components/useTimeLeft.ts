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
  useEffect(() => {
    if (!claim) return;
    const wait = msUntilNextChange(msLeft(claim, Date.now()));
    if (!Number.isFinite(wait)) return;
    const timer = setTimeout(() => setTick((n) => n + 1), wait + PAST_BOUNDARY_MS);
    return () => clearTimeout(timer);
  }, [until, tick]);
  return claim ? msLeft(claim, Date.now()) : 0;
}
