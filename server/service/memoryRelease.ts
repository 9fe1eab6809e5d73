/**
 * A full collection on request, in the processes that are the board's alone (the standalone server
 * and `kanban mcp --dir` install V8's collector at start; elsewhere, such as the VS Code extension
 * host, nothing is installed and a request does nothing).
 *
 * Why ask at all: letting go of a large answer (the whole list of 100,000 cards is ~85 MB outside
 * the heap, and building it leaves as much garbage inside) gives nothing back while requests have
 * stopped, because V8 collects when the program allocates. An idle server stayed ~200 MB over its
 * live data until the next burst of work.
 */
let collector: (() => void) | undefined;

export function installCollector(collect: () => void): void {
  collector = collect;
}

/** One full collection on a later turn of the event loop (about 0.1-0.3 s at 100,000 cards). */
export function collectSoon(): void {
  if (collector) setImmediate(collector).unref();
}
