import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { installCollector } from '../service/memoryRelease';

/**
 * How far V8 may let the heap grow past the data still in use before its next full collection, in
 * percent. The board's index is large and long-lived (about 450 MB at 100,000 cards), and under a
 * steady write load V8's own choice (up to 4x) let replaced card versions pile up to twice that
 * before collecting them (the server's RSS went over 1 GB at 100,000 cards). With 50% the server
 * stays near 1.5x its live data, for a full collection every several seconds under heavy writes.
 */
const SERVER_HEAP_GROWING_PERCENT = 50;

const HEAP_FLAG = /^--heap[-_]growing[-_]percent\b/;

/**
 * For processes that are the board's alone (`kanban serve`, dist/server.js, `kanban mcp --dir`), once
 * the board is loaded: the start-up's growth is left to V8 (more full collections while the index is
 * built would slow the start), and a process that hosts other code (the VS Code extension host) is
 * not ours to tune. A `--heap-growing-percent` given to node on its command line is kept (node
 * refuses that flag in NODE_OPTIONS, so the command line is the only place a user can set it).
 * These processes may also ask for a full collection once a large answer is let go (memoryRelease).
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const collect = collectorFunction();
  if (collect) installCollector(collect);
  if (execArgv.some((arg) => HEAP_FLAG.test(arg))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
}

/**
 * The `gc` function V8 gives a context made while `--expose-gc` is on. Node offers no other way to
 * ask for a collection, and the flag cannot be put on the command line of `kanban serve`.
 */
function collectorFunction(): (() => void) | undefined {
  try {
    v8.setFlagsFromString('--expose-gc');
    const found: unknown = vm.runInNewContext('gc');
    return typeof found === 'function' ? (found as () => void) : undefined;
  } catch {
    return undefined; // a runtime without it: memory is then left to V8 as before
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
