import { promises as fs, readFileSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { writeFileAtomic } from '../../core/atomicFile';
import { ensureStateDir } from '../state/fileCardStateStore';
import { log } from '../../core/log';

/**
 * A restart's shortcut past parsing every card file (100,000 cards should answer within seconds):
 * `.kanban/.state/card-index.json` keeps, per card file, the card parsed from it, the hash of its
 * text, and the file's size and modification time then. At load, a file whose size and mtime
 * (nanosecond-grained on the usual file systems) still match takes its card from here; any other
 * file is read and parsed as before, so a hand edit, an added or a removed file while the server was
 * down is always seen. The files stay the truth: the cache only ever saves a parse.
 */
// 2: CRs after an LF frontmatter are now the content's (see serializeCard); a cache of format 1
// holds cards parsed with them turned into LF, so it is not trusted and every file is read again.
const FORMAT = 'kanban-card-index/2';
export const INDEX_CACHE_FILE = 'card-index.json';

export interface CachedFile {
  size: number;
  mtimeMs: number;
  hash: string;
  card: Card;
}

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The cached cards by path relative to the boards folder; empty when the cache is missing, corrupt or of another format. */
export function readIndexCache(stateDir: string): Map<string, CachedFile> {
  const cache = new Map<string, CachedFile>();
  try {
    const parsed = JSON.parse(readFileSync(path.join(stateDir, INDEX_CACHE_FILE), 'utf8')) as {
      format?: unknown;
      files?: unknown;
    };
    if (parsed.format !== FORMAT || typeof parsed.files !== 'object' || parsed.files === null) return cache;
    // Straight into the map: at 100,000 cards, Object.entries and a filtered copy were two more
    // arrays of 100,000 for the collector to move while the start-up waits.
    const files = parsed.files as Record<string, unknown>;
    for (const key in files) {
      const entry = files[key];
      if (isEntry(entry)) cache.set(key, entry);
    }
    return cache;
  } catch {
    return new Map(); // no cache yet, or one that does not parse: every file is read
  }
}

/** Whether there is a cache file to read at all (a first start has none: its stats would be wasted). */
export function hasIndexCache(stateDir: string): boolean {
  return statSync(path.join(stateDir, INDEX_CACHE_FILE), { throwIfNoEntry: false }) !== undefined;
}

function isEntry(entry: unknown): entry is CachedFile {
  const e = entry as CachedFile;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.size === 'number' &&
    typeof e.mtimeMs === 'number' &&
    typeof e.hash === 'string' &&
    typeof e.card === 'object' &&
    e.card !== null
  );
}

/** The size and mtime of a file now, or null when it is gone. */
export function stampOf(file: string): FileStamp | null {
  try {
    const stat = statSync(file);
    return { size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  }
}

/** Run in a worker: the stats of `workerData.files`, written as size and mtime pairs (NaN: gone). */
const STAT_WORKER = `
const { statSync } = require('node:fs');
const { workerData, parentPort } = require('node:worker_threads');
const out = new Float64Array(workerData.shared);
workerData.files.forEach((file, i) => {
  const found = statSync(file, { throwIfNoEntry: false });
  out[2 * i] = found ? found.size : NaN;
  out[2 * i + 1] = found ? found.mtimeMs : NaN;
});
parentPort.postMessage('done');
`;

/**
 * The size and mtime of every file, stat'ed on another thread: started before the cache is read and
 * parsed, a restart's 100,000 stats (about a seventh of its CPU, one system call each) run beside the
 * parse instead of after it. A worker with synchronous stats costs less than 100,000 requests on
 * libuv's pool (each a callback and a Stats object on this thread).
 */
export function stampsOf(files: readonly string[]): Promise<(FileStamp | null)[]> {
  const shared = new SharedArrayBuffer(16 * files.length);
  let worker: Worker;
  try {
    worker = new Worker(STAT_WORKER, { eval: true, workerData: { files, shared } });
  } catch {
    return Promise.resolve(files.map(stampOf)); // no worker threads here (a restricted host): one by one
  }
  return new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the stat worker exited with code ${code}`)));
  }).then(
    () => {
      void worker.terminate();
      const out = new Float64Array(shared);
      return files.map((_, i) => (Number.isNaN(out[2 * i]) ? null : { size: out[2 * i], mtimeMs: out[2 * i + 1] }));
    },
    () => files.map(stampOf), // the worker failed: here, one by one
  );
}

/** The cached card of a file whose size and mtime are unchanged, else undefined (read it). */
export function cachedCard(
  cache: Map<string, CachedFile>,
  key: string,
  stamp: FileStamp | null,
): CachedFile | undefined {
  const entry = cache.get(key);
  if (!entry || !stamp || entry.size !== stamp.size || entry.mtimeMs !== stamp.mtimeMs) return undefined;
  return entry;
}

/** Entries stringified per turn of the event loop, so requests keep being answered while it is written. */
const WRITE_SLICE = 2000;

/**
 * Write the cache from what a load saw, one JSON text per file joined at the end (a card is ~1 KB:
 * 100,000 cards ~100 MB). It runs after the server answers, and a failure only costs the next start
 * its shortcut.
 */
export async function writeIndexCache(stateDir: string, files: [string, CachedFile][]): Promise<void> {
  await ensureStateDir(stateDir);
  const parts: string[] = [];
  for (let i = 0; i < files.length; i += WRITE_SLICE) {
    for (const [key, entry] of files.slice(i, i + WRITE_SLICE))
      parts.push(`${JSON.stringify(key)}:${JSON.stringify(entry)}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await writeFileAtomic(
    path.join(stateDir, INDEX_CACHE_FILE),
    `{"format":${JSON.stringify(FORMAT)},"files":{${parts.join(',')}}}`,
  );
}

/** How long after a load its cache is written, unless asked for at once. */
const WRITE_DELAY_MS = 1000;

/**
 * The cache of a load, written a moment later: at 100,000 cards stringifying it is ~1 s of CPU,
 * which on the turn after the load shared the thread with the server's first answers. A failure
 * only costs the next start its shortcut, so it is logged, not thrown.
 */
export class LaterIndexCacheWrite {
  private written: Promise<void> = Promise.resolve();
  private beginNow: () => void = () => {};

  schedule(stateDir: string, files: [string, CachedFile][]): void {
    let begin!: () => void;
    const due = new Promise<void>((resolve) => (begin = resolve));
    // Unref'd: a process that ends without `now` only loses the next start's shortcut.
    const timer = setTimeout(begin, WRITE_DELAY_MS).unref();
    this.beginNow = () => {
      clearTimeout(timer);
      begin();
    };
    this.written = due
      .then(() => writeIndexCache(stateDir, files))
      .catch((error: Error) =>
        log.warn(`kanban: cannot write the card index cache (the next start reads every file): ${error.message}`),
      );
  }

  /** Starts a scheduled write at once, and resolves when it (or the last one) is done. */
  now(): Promise<void> {
    this.beginNow();
    return this.written;
  }
}

/** Remove the cache (a test, or a store that no longer wants it). */
export async function removeIndexCache(stateDir: string): Promise<void> {
  await fs.rm(path.join(stateDir, INDEX_CACHE_FILE), { force: true });
}
