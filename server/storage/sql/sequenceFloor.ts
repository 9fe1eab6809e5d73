/**
 * A sequence number can show up late: MySQL hands out auto-increment values before commit, so a
 * slower transaction may commit a lower number after a higher one was read. Numbers missing below
 * the highest seen are waited for this long before they count as a rolled-back write.
 */
const GAP_PATIENCE_MS = 15_000;

/**
 * Which numbers of an auto-increment log a poller has handled: everything up to `floor`, plus the
 * ones above it in `seen`. The next round asks for `seq > floor` and skips the seen ones, so a row
 * that commits late is still read once.
 */
export class SequenceFloor {
  private seen = new Set<number>();
  private gapSince: number | null = null;

  constructor(public floor: number) {}

  /** Whether the number is new (and remember it). */
  take(seq: number): boolean {
    if (seq <= this.floor || this.seen.has(seq)) return false;
    this.seen.add(seq);
    return true;
  }

  /** Move the floor over every handled number, and over gaps older than the patience. */
  advance(now = Date.now()): void {
    for (;;) {
      while (this.seen.delete(this.floor + 1)) this.floor++;
      if (this.seen.size === 0) {
        this.gapSince = null;
        return;
      }
      this.gapSince ??= now;
      if (now - this.gapSince < GAP_PATIENCE_MS) return;
      // The missing numbers never came: rolled-back writes. Step over them to the next one seen.
      this.floor = Math.min(...this.seen) - 1;
      this.gapSince = null;
    }
  }
}
