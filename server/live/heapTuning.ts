import * as v8 from 'node:v8';

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
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (execArgv.some((arg) => HEAP_FLAG.test(arg))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
}
