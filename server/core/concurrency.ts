/**
 * `work` over every item with at most `limit` running at once, answers in the items' order. For
 * I/O over many files: one at a time leaves the disk idle between awaits, all at once opens
 * thousands of files.
 */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
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
