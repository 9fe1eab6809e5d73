import type { Card } from '../../core/model';
import { CardFileError, parseCard } from '../cardFile';
import type { InvalidFile } from '../cardStore';
import { identifyCards, type CardIdentities, type FilePlaces, type ParsedFile } from './cardIdentity';
import type { CardListing } from './cardListing';
import { FileReadAhead, readNow, type FileReadResult } from './fileReads';
import { cachedCardAt, hasIndexCacheFile, readIndexCacheSoon, type CachedFile, type FileStamp } from './indexCache';
import { movedByHandSince } from './loadRepair';

/**
 * Files read per turn of the event loop while loading. Small card files read synchronously cost a
 * fraction of the thread-pool round trips of async reads (10,000 cards: ~90 ms instead of ~430 ms),
 * and slices keep each pause short.
 */
const LOAD_SLICE = 128;
/** From this many files to read, they are read on a worker thread while this one parses (a first start). */
const READ_AHEAD_MIN = 2000;

function readAheadOf(files: string[]): FileReadAhead | null {
  return files.length >= READ_AHEAD_MIN ? new FileReadAhead(files) : null;
}

/** What reading the card files needs of the markdown store: declared here, as markdownCardStore.ts imports this file. */
export interface LoadingStore {
  /** Where the index cache lives. */
  readonly stateDir: string;
  /** A path as the store reports it: relative to the root, with forward slashes (the cache's keys). */
  relative(file: string): string;
  /** Board, status folder and id of a card file, or null when it is not a card path. */
  locate(file: string): { id: string; boardId: string; status: string } | null;
  listCardFilesStamped(stamp: boolean): Promise<CardListing>;
}

/** The card files as a load found them. */
export interface LoadedFiles {
  parsed: ParsedFile[];
  invalid: InvalidFile[];
  /** The size and mtime of each file read or taken from the cache, by root-relative path. */
  stamps: Map<string, FileStamp>;
  /** The index cache to write, or null when it holds every file as it is and stays as it is. */
  cacheEntries: [string, CachedFile][] | null;
  /** How long the listing, the cache and the reads took. */
  loadMs: number;
}

/**
 * Every card file, parsed, or taken from the index cache when its size and mtime are the cached
 * ones. No file is written: what to write (the cache) is the caller's.
 */
export async function readCardFiles(store: LoadingStore): Promise<LoadedFiles> {
  const loadStarted = performance.now();
  // The stats are only worth taking when there is a cache to compare them with.
  const listing = store.listCardFilesStamped(hasIndexCacheFile(store.stateDir));
  const cache = await readIndexCacheSoon(store.stateDir);
  const { files, stamps } = await listing;
  const seen: [string, CachedFile][] = [];
  let reread = 0;
  const parsed: ParsedFile[] = [];
  const invalid: InvalidFile[] = [];
  const movedByHand = movedByHandSince(cache);
  const keys = files.map((file) => store.relative(file));
  const hits = keys.map((key, n) => (stamps ? cachedCardAt(cache, key, stamps, n) : undefined));
  const missed = files.filter((_, n) => hits[n] === undefined);
  // Every file as the cache has it: the cache stays as it is and serves as the load's stamps.
  const unchanged = missed.length === 0 && cache.size === files.length;
  const ahead = readAheadOf(missed);
  for (let i = 0; i < files.length; i += LOAD_SLICE) {
    for (let n = i; n < Math.min(i + LOAD_SLICE, files.length); n++) {
      const file = files[n];
      const key = keys[n];
      const hit = hits[n];
      if (hit) {
        parsed.push({ file, card: hit.card, hash: hit.hash });
        if (!unchanged) seen.push([key, hit]);
        continue;
      }
      let read = ahead ? ahead.take(reread) : readNow(file);
      if (read instanceof Promise) read = await read;
      reread++;
      const result = cardOfRead(store, file, read);
      if ('card' in result) {
        const card = movedByHand(key, result.card, result.folder);
        parsed.push({ file, card, hash: result.hash });
        seen.push([key, { size: result.size, mtimeMs: result.mtimeMs, hash: result.hash, card }]);
      } else invalid.push(result.invalid);
    }
    // Between slices, whatever else is waiting (requests during a reload) gets its turn.
    await new Promise((resolve) => setImmediate(resolve));
  }
  ahead?.stop();
  const loadMs = performance.now() - loadStarted;
  // The cache entries themselves: each carries its size and mtime, and 100,000 copies only cost the collector.
  if (unchanged) return { parsed, invalid, stamps: cache, cacheEntries: null, loadMs };
  return { parsed, invalid, stamps: new Map<string, FileStamp>(seen), cacheEntries: seen, loadMs };
}

/** `readCardFile` for loading: the card of a file read whole, with the file time from the same open file. */
function cardOfRead(
  store: LoadingStore,
  file: string,
  read: FileReadResult,
): ({ card: Card; hash: string; folder: string } & FileStamp) | { invalid: InvalidFile } {
  const location = store.locate(file);
  if (!location) return { invalid: { path: store.relative(file), reason: 'not in a <board>/<status>/ folder' } };
  try {
    if ('error' in read) throw read.error;
    const { text, mtime, mtimeMs, size, hash } = read;
    const card = parseCard(text, { ...location, fileTime: mtime.toISOString() });
    return { card, hash, folder: location.status, mtimeMs, size };
  } catch (error) {
    return { invalid: unreadable(store.relative(file), error) };
  }
}

/** What adopting the loaded cards needs of the store, whose maps of files and ids stay its own. */
export interface AdoptingStore {
  readonly places: FilePlaces;
  /** Forget every card's file: a load adopts them all afresh. */
  forgetAllFiles(): void;
  /** Whether a card of this id was adopted since. */
  knows(id: string): boolean;
  /** Record the file a card is served from (MarkdownCardStore.adopt). */
  adopt(card: Card, file: string, hash: string): void;
}

/** Adopt every loaded card: which file is which card, and the file each is served from. */
export function adoptLoaded(store: AdoptingStore, parsed: ParsedFile[]): CardIdentities {
  return adoptIfEveryIdOnce(store, parsed) ?? adoptIdentified(store, parsed);
}

/**
 * The usual load: every id once, so every file is its own card. Adopted as it is checked, so a
 * 100,000-card load needs no set of the ids beside the map of them; null when an id repeats
 * (adoptIdentified then starts over).
 */
function adoptIfEveryIdOnce(store: AdoptingStore, parsed: ParsedFile[]): CardIdentities | null {
  store.forgetAllFiles();
  for (const { file, card, hash } of parsed) {
    if (store.knows(card.id)) return null;
    store.adopt(card, file, hash);
  }
  return { served: parsed, stale: [], duplicates: [] };
}

/** A load where some id repeats: which file is which card is decided first (cardIdentity.ts). */
function adoptIdentified(store: AdoptingStore, parsed: ParsedFile[]): CardIdentities {
  store.forgetAllFiles();
  const identities = identifyCards(parsed, store.places);
  for (const { file, card, hash } of identities.served) store.adopt(card, file, hash);
  return identities;
}

/** Why a card file is not served: where it does not parse, or that it cannot be read. */
export function unreadable(relative: string, error: unknown): InvalidFile {
  if (!(error instanceof CardFileError)) return { path: relative, reason: `cannot read: ${(error as Error).message}` };
  return { path: relative, reason: error.message, ...(error.line ? { line: error.line } : {}) };
}
