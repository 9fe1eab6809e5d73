/**
 * A memo keyed by object (a card version) that keeps at most about `2 × generationSize` values.
 *
 * A plain WeakMap keeps a value for every card that was ever read: after one whole list of 100,000
 * cards, each card's list JSON (about 100 MB) stayed on the heap for the life of the process. Here
 * values live in two generations: a lookup finds the current one or the previous one (and carries
 * the value over), and once the current one holds `generationSize` values it becomes the previous
 * one and the old previous one is let go. A board up to `generationSize` cards thus stays whole in
 * the memo read after read; a larger one keeps the cards read most recently and recomputes the rest.
 * Both generations are WeakMaps, so a replaced card version goes with the collector as before.
 */
export class BoundedMemo<K extends object, V> {
  private current = new WeakMap<K, V>();
  private previous = new WeakMap<K, V>();
  private currentSize = 0;

  constructor(private readonly generationSize: number) {}

  get(key: K): V | undefined {
    const held = this.current.get(key);
    if (held !== undefined) return held;
    const older = this.previous.get(key);
    if (older !== undefined) this.set(key, older);
    return older;
  }

  set(key: K, value: V): void {
    if (this.currentSize >= this.generationSize) {
      this.previous = this.current;
      this.current = new WeakMap();
      this.currentSize = 0;
    }
    if (!this.current.has(key)) this.currentSize++;
    this.current.set(key, value);
  }
}
