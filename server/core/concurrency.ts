/**
 * `work` over every item with at most `limit` running at once, answers in the items' order. For
 * I/O over many files: one at a time leaves the disk idle between awaits, all at once opens
 * thousands of files.
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * One run at a time of `work`: a call while a run is under way joins it instead of starting a
 * second (a poll round asked for twice reads once). `current` is the run under way, if any.
 */
export class SingleFlight {
  private running: Promise<void> | null = null;

  constructor(private readonly work: () => Promise<void>) {}

  get current(): Promise<void> | null {
    return this.running;
  }

  run(): Promise<void> {
    if (this.running) return this.running;
    const round = this.work().finally(() => {
      if (this.running === round) this.running = null;
    });
    this.running = round;
    return round;
  }
}
