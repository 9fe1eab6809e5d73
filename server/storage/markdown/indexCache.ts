import { promises as fs, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { writeFileAtomic } from '../../core/atomicFile';
import { ensureStateDir } from '../state/fileCardStateStore';

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
  try {
    const parsed = JSON.parse(readFileSync(path.join(stateDir, INDEX_CACHE_FILE), 'utf8')) as {
      format?: unknown;
      files?: unknown;
    };
    if (parsed.format !== FORMAT || typeof parsed.files !== 'object' || parsed.files === null) return new Map();
    return new Map(Object.entries(parsed.files as Record<string, CachedFile>).filter(([, entry]) => isEntry(entry)));
  } catch {
    return new Map(); // no cache yet, or one that does not parse: every file is read
  }
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

/** Remove the cache (a test, or a store that no longer wants it). */
export async function removeIndexCache(stateDir: string): Promise<void> {
  await fs.rm(path.join(stateDir, INDEX_CACHE_FILE), { force: true });
}
