import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../core/atomicFile';
import { ensureStateDir } from '../state/fileCardStateStore';
import { log } from '../../core/log';
import { entriesOf, rowOf, type CachedFile } from './indexCacheRows';

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
// 3: one array per file (indexCacheRows.ts) instead of an object per file; a cache of format 2 is
// not read (its next write is format 3), so the first start of this version reads every file.
const FORMAT = 'kanban-card-index/3';
export const INDEX_CACHE_FILE = 'card-index.json';

export type { CachedFile } from './indexCacheRows';

export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/**
 * The cached cards, read on the thread pool and parsed here as soon as the bytes are in: a load
 * starts this beside the listing of the card files (another thread), so at 100,000 cards the
 * parse of ~50 MB and the listing's stats run at once. The bytes are let go once parsed.
 */
export function readIndexCacheSoon(stateDir: string): Promise<Map<string, CachedFile>> {
  return fs.readFile(path.join(stateDir, INDEX_CACHE_FILE)).then(parseIndexCache, () => new Map());
}

/** The cached cards by path relative to the boards folder; empty when the cache is missing, corrupt or of another format. */
export function parseIndexCache(bytes: Buffer | null): Map<string, CachedFile> {
  const cache = new Map<string, CachedFile>();
  if (!bytes) return cache;
  try {
    // Decoded from a Buffer: readFileSync(file, 'utf8') took about twice as long for the same text.
    const parsed = JSON.parse(bytes.toString('utf8')) as { format?: unknown; rows?: unknown };
    if (parsed.format !== FORMAT || !Array.isArray(parsed.rows)) return cache;
    entriesOf(parsed.rows as unknown[], cache);
    return cache;
  } catch {
    return new Map(); // a cache that does not parse: every file is read
  }
}

/**
 * The cache as the next load will see it, read synchronously: for tests and tools. A load reads it
 * with readIndexCacheSoon instead, on the thread pool while the card files are listed.
 */
export function readIndexCache(stateDir: string): Map<string, CachedFile> {
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(path.join(stateDir, INDEX_CACHE_FILE));
  } catch {
    // no cache yet
  }
  return parseIndexCache(bytes);
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

/** The cached card of a file whose size and mtime (at `2n`, `2n + 1` of a listing's stamps) are unchanged, else undefined (read it). */
export function cachedCardAt(
  cache: Map<string, CachedFile>,
  key: string,
  stamps: Float64Array,
  n: number,
): CachedFile | undefined {
  const entry = cache.get(key);
  if (!entry || entry.size !== stamps[2 * n] || entry.mtimeMs !== stamps[2 * n + 1]) return undefined;
  return entry;
}

/** Whether there is a cache file to compare the card files with (a first start has none). */
export function hasIndexCacheFile(stateDir: string): boolean {
  return existsSync(path.join(stateDir, INDEX_CACHE_FILE));
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
    for (const [key, entry] of files.slice(i, i + WRITE_SLICE)) parts.push(JSON.stringify(rowOf(key, entry)));
    await new Promise((resolve) => setImmediate(resolve));
  }
  await writeFileAtomic(
    path.join(stateDir, INDEX_CACHE_FILE),
    `{"format":${JSON.stringify(FORMAT)},"rows":[\n${parts.join(',\n')}\n]}`,
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
  private next: { stateDir: string; files: [string, CachedFile][] } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  /**
   * `loadMs`: how long the load took. The steps after a load (the index, the routes, the watcher)
   * grow with the board: at 100,000 cards a write one second after a six-second first start
   * shared the thread with them and put off the server's first answer by over half a second. So
   * a long load's write waits half as long as the load did. A newer load's cache replaces one
   * still waiting, and a closed store schedules nothing: a write after the close could land in a
   * folder that is being removed.
   */
  schedule(stateDir: string, files: [string, CachedFile][], loadMs = 0): void {
    if (this.closed) return;
    this.next = { stateDir, files };
    if (this.timer) clearTimeout(this.timer);
    // Unref'd: a process that ends without `close` only loses the next start's shortcut.
    this.timer = setTimeout(() => this.start(), Math.max(WRITE_DELAY_MS, loadMs / 2)).unref();
  }

  /** Writes a waiting cache at once and resolves when every write is done; no more after it. */
  close(): Promise<void> {
    this.closed = true;
    this.start();
    return this.written;
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.next;
    this.next = null;
    if (!next) return;
    // After the write before it: two writes of one file never overlap.
    this.written = this.written.then(() =>
      writeIndexCache(next.stateDir, next.files).catch((error: Error) =>
        log.warn(`kanban: cannot write the card index cache (the next start reads every file): ${error.message}`),
      ),
    );
  }
}

/** Remove the cache (a test, or a store that no longer wants it). */
export async function removeIndexCache(stateDir: string): Promise<void> {
  await fs.rm(path.join(stateDir, INDEX_CACHE_FILE), { force: true });
}
