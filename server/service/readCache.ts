import { createHash, randomBytes } from 'node:crypto';
import { gzip, constants as zlib } from 'node:zlib';
import type { PageInfo } from '../core/listPaging';
import type { WorkspaceState } from './workspaceState';
import { collectSoon } from './memoryRelease';

/** A serialized success answer, and for a list, what it tells about its page. */
export interface BuiltAnswer {
  body: Buffer;
  page?: PageInfo;
}

/** A serialized success answer and the ETag that names exactly these bytes. */
export interface CachedAnswer extends BuiltAnswer {
  etag: string;
  /** The body gzip-compressed, made once per kept answer (on the thread pool) and then reused. */
  gzipped(): Promise<Buffer>;
}

interface Entry extends CachedAnswer {
  stamp: string;
}

/**
 * Fast compression: a 7 MB list shrinks about 8x in ~35 ms; stronger levels gain little more
 * for several times the CPU.
 */
function gzipOnce(body: Buffer): () => Promise<Buffer> {
  let made: Promise<Buffer> | null = null;
  return () =>
    (made ??= new Promise((resolve, reject) =>
      gzip(body, { level: zlib.Z_BEST_SPEED }, (error, out) => (error ? reject(error) : resolve(out))),
    ));
}

/** Kept answers; a board list at 10,000 cards is about 7 MB, so only a few are kept (larger ones: keepWhileAsked). */
const MAX_ENTRIES = 8;
export const MAX_KEPT_BYTES = 48 * 1024 * 1024;
const LARGE_IDLE_MS = 2000;

/** Small ids for objects that are replaced, never changed in place (the config, the card store). */
const generations = new WeakMap<object, number>();
let nextGeneration = 1;

function generationOf(value: object): number {
  let generation = generations.get(value);
  if (generation === undefined) generations.set(value, (generation = nextGeneration++));
  return generation;
}

/** Changes whenever the cards, the config or the card store change (not card state): what a list selects from. */
export function selectionStamp(ws: WorkspaceState): string {
  return `${ws.index.version}.${generationOf(ws.config)}.${generationOf(ws.store)}`;
}

/**
 * Serialized answers of repeated reads (GET /tasks with the same board, actor and query), valid
 * while nothing they depend on changed. Rather than every mutation path remembering to drop it,
 * an entry carries a stamp of everything a list reads: the card index version (API writes, the
 * file watcher, store change feeds, migrations and reloads all go through the index), the card
 * state version (open, read, activity), the claims' version (claims, releases, expiries), and the identity of the config and of the card store
 * (both are replaced, never edited in place). Any difference and the entry is rebuilt.
 */
export class ReadCache {
  private entries = new Map<string, Entry>();
  private bytes = 0;
  /** ETags from an earlier run of the server must never match: versions restart at zero. */
  private readonly run = randomBytes(6).toString('hex');
  private large: { key: string; entry: Entry; timer: NodeJS.Timeout } | undefined;

  /** `largeIdleMs`: how long an answer over the budget stays kept after it was last asked for. */
  constructor(private readonly options: { largeIdleMs?: number } = {}) {}

  private stampOf(ws: WorkspaceState): string {
    return `${ws.index.version}.${ws.cardStates.version}.${ws.claims.version}.${generationOf(ws.config)}.${generationOf(ws.store)}`;
  }

  /**
   * The ETag an answer for `key` has now, for answers cheap enough to build on every read (a page
   * of a list): keeping them would only push the large ones out.
   */
  etagFor(ws: WorkspaceState, key: string): string {
    return `"${this.run}-${this.stampOf(ws)}-${keyHash(key)}"`;
  }

  /** The kept answer for `key`, or a fresh one made by `build` (and kept). */
  answer(ws: WorkspaceState, key: string, build: () => BuiltAnswer): CachedAnswer {
    const stamp = this.stampOf(ws);
    if (this.large?.key === key && this.large.entry.stamp === stamp) return this.keepWhileAsked(key, this.large.entry);
    const held = this.entries.get(key);
    if (held && held.stamp === stamp) {
      // Most recently used last, so eviction takes the oldest.
      this.entries.delete(key);
      this.entries.set(key, held);
      return held;
    }
    if (held) this.drop(key, held);
    const { body, page } = build();
    const entry: Entry = { body, page, stamp, etag: this.etagFor(ws, key), gzipped: gzipOnce(body) };
    if (body.length > MAX_KEPT_BYTES) return this.keepWhileAsked(key, entry);
    this.entries.set(key, entry);
    this.bytes += body.length;
    this.evict(stamp);
    return entry;
  }

  /**
   * An answer over the whole budget (the whole list of 60,000 cards and more: ~85 MB at 100,000)
   * is kept on its own while it is asked again within `LARGE_IDLE_MS`, so clients polling it, or
   * several asking at once, share one build; then it is let go and the memory given back, where
   * keeping it held the server ~200 MB over its live data for as long as it ran.
   */
  private keepWhileAsked(key: string, entry: Entry): Entry {
    if (this.large) clearTimeout(this.large.timer);
    const timer = setTimeout(() => {
      this.large = undefined;
      collectSoon();
    }, this.options.largeIdleMs ?? LARGE_IDLE_MS).unref();
    this.large = { key, entry, timer };
    return entry;
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.body.length;
  }

  /** Stale entries first, then the least recently used, until within the limits. */
  private evict(stamp: string): void {
    for (const [key, entry] of this.entries) if (entry.stamp !== stamp) this.drop(key, entry);
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.bytes <= MAX_KEPT_BYTES) break;
      this.drop(key, entry);
    }
  }
}

/** The same query as another caller (another actor) must not share an ETag: the key is part of it. */
function keyHash(key: string): string {
  return createHash('sha1').update(key).digest('hex').slice(0, 12);
}
