import { closeSync, fstatSync, openSync, promises as fs, readFileSync, readSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { placeOf } from '../../core/cardPlace';
import { createFileExclusive, writeFileIfUnchanged } from '../../core/atomicFile';
import { FileConflictError } from '../../core/errors';
import { CardFileError, parseCard, serializeCard } from '../cardFile';
import { StaleFileError, type CardStore, type ExternalChange, type InvalidFile, type LoadResult } from '../cardStore';
import { fingerprint, listCardFiles, readDirs, RESERVED_BOARD_FOLDERS } from './cardFolders';
import { repairAtLoad, type ParsedFile } from './loadRepair';
import { cachedCard, readIndexCache, stampOf, writeIndexCache, type CachedFile, type FileStamp } from './indexCache';
import { log } from '../../core/log';

export { RESERVED_BOARD_FOLDERS } from './cardFolders';

/**
 * Files read per turn of the event loop while loading. Small card files read synchronously cost a
 * fraction of the thread-pool round trips of async reads (10,000 cards: ~90 ms instead of ~430 ms),
 * and slices keep each pause short.
 */
const LOAD_SLICE = 128;

/** The file a card was last read from or written to, and a hash of the text it held then. */
export interface KnownFile {
  file: string;
  hash: string;
}

export type ReadResult = { card: Card; hash: string; text: string } | { invalid: InvalidFile };

/** Cards as Markdown files: `.kanban/boards/<boardId>/<status>/<cardId>.md`. */
export class MarkdownCardStore implements CardStore {
  readonly provider = 'markdown';
  /**
   * Paths we wrote last, with their content ('' for a removal) and the card written, so the file
   * watcher can recognise its echo of our own write without parsing the file again.
   */
  readonly ownWrites = new Map<string, { text: string; card: Card | null }>();
  /**
   * Per card id, the file as the service last saw it. A write goes ahead only when the file on
   * disk still hashes the same: the files are the truth, and a hand edit is never overwritten.
   */
  readonly known = new Map<string, KnownFile>();

  /** The root and the boards folder with a trailing separator, and the boards folder relative to the root: paths are made by joining strings. */
  private readonly rootPrefix: string;
  private readonly boardsPrefix: string;
  private readonly boardsRelative: string;

  constructor(readonly root: string, readonly kanbanDir: string) {
    this.rootPrefix = path.resolve(root) + path.sep;
    this.boardsPrefix = path.resolve(kanbanDir, 'boards') + path.sep;
    this.boardsRelative = this.slowRelative(path.join(kanbanDir, 'boards'));
  }

  /**
   * `.kanban/boards/<board>/<place>/<id>.md`, the same as the relative form of `absolutePath`, but
   * by joining strings: at 100,000 cards, path.relative per card cost over a second of a start-up
   * and of the first list (board ids, places and card ids are single path segments).
   */
  filePathOf(card: Pick<Card, 'id' | 'boardId' | 'status' | 'archivedAt'>): string {
    return `${this.boardsRelative}/${card.boardId}/${placeOf(card)}/${card.id}.md`;
  }

  /** A path under the root as the root-relative, `/`-separated form; others through path.relative. */
  relative(file: string): string {
    const rest = plainlyUnder(this.rootPrefix, file);
    if (rest === null) return this.slowRelative(file);
    return path.sep === '/' ? rest : rest.split(path.sep).join('/');
  }

  private slowRelative(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  /** `<board>/<status>/<id>.md`, or `<board>/archived/<id>.md` for an archived card (it keeps its status). */
  absolutePath(card: Pick<Card, 'id' | 'boardId' | 'status' | 'archivedAt'>): string {
    return path.join(this.kanbanDir, 'boards', card.boardId, placeOf(card), `${card.id}.md`);
  }

  async loadAll(): Promise<LoadResult> {
    const files = await this.listCardFiles();
    const cache = readIndexCache(this.stateDir);
    const seen: [string, CachedFile][] = [];
    let reread = 0;
    const parsed: ParsedFile[] = [];
    const invalid: InvalidFile[] = [];
    for (let i = 0; i < files.length; i += LOAD_SLICE) {
      for (const file of files.slice(i, i + LOAD_SLICE)) {
        const key = this.relative(file);
        const hit = cache.size ? cachedCard(cache, key, stampOf(file)) : undefined;
        if (hit) {
          parsed.push({ file, card: hit.card, hash: hit.hash });
          seen.push([key, hit]);
          continue;
        }
        reread++;
        const result = this.readCardFileNow(file);
        if ('card' in result) {
          parsed.push({ file, card: result.card, hash: result.hash });
          seen.push([key, { size: result.size, mtimeMs: result.mtimeMs, hash: result.hash, card: result.card }]);
        } else invalid.push(result.invalid);
      }
      // Between slices, whatever else is waiting (requests during a reload) gets its turn.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Only when a file was read or one cached is gone: an unchanged board leaves the cache as it is.
    if (reread > 0 || seen.length !== cache.size) this.saveIndexCache(seen);
    const { kept, recovered } = await repairAtLoad(this, parsed);
    this.known.clear();
    for (const { file, card, hash } of kept) this.known.set(card.id, { file, hash });
    return { cards: kept.map((k) => k.card), invalid, recovered };
  }

  /** Where git-ignored local state lives (the index cache among it). */
  get stateDir(): string {
    return path.join(this.kanbanDir, '.state');
  }

  /** Written after the load has answered, so the first answer does not wait for ~1 KB of JSON per card. */
  private saveIndexCache(entries: [string, CachedFile][]): void {
    setImmediate(() => {
      writeIndexCache(this.stateDir, entries).catch((error: Error) => log.warn(`kanban: cannot write the card index cache (the next start reads every file): ${error.message}`));
    });
  }

  /** Every `<board>/<status>/<id>.md` under the boards folder. */
  listCardFiles(): Promise<string[]> {
    return listCardFiles(path.join(this.kanbanDir, 'boards'));
  }

  /** Read and parse one card file given its absolute path. */
  async readCardFile(file: string): Promise<ReadResult> {
    const location = this.locate(file);
    if (!location) return { invalid: { path: this.relative(file), reason: 'not in a <board>/<status>/ folder' } };
    try {
      const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
      return { card: parseCard(text, { ...location, fileTime: stat.mtime.toISOString() }), hash: fingerprint(text), text };
    } catch (error) {
      return { invalid: unreadable(this.relative(file), error) };
    }
  }

  /** `readCardFile` for loading: synchronous, with the file time from the same open file. */
  private readCardFileNow(file: string): ({ card: Card; hash: string; text: string } & FileStamp) | { invalid: InvalidFile } {
    const location = this.locate(file);
    if (!location) return { invalid: { path: this.relative(file), reason: 'not in a <board>/<status>/ folder' } };
    try {
      const { text, mtime, mtimeMs, size } = readWithTime(file);
      return { card: parseCard(text, { ...location, fileTime: mtime.toISOString() }), hash: fingerprint(text), text, mtimeMs, size };
    } catch (error) {
      return { invalid: unreadable(this.relative(file), error) };
    }
  }

  /** Board, status folder and id from a card file's absolute path, or null when it is not a card path. */
  locate(file: string): { id: string; boardId: string; status: string } | null {
    const parts = (plainlyUnder(this.boardsPrefix, file) ?? path.relative(path.join(this.kanbanDir, 'boards'), file)).split(path.sep);
    if (parts.length !== 3 || !parts[2].endsWith('.md') || parts[0].startsWith('..')) return null;
    if (RESERVED_BOARD_FOLDERS.has(parts[1])) return null;
    return { boardId: parts[0], status: parts[1], id: parts[2].slice(0, -3) };
  }

  /** Remember a file the service has read (the watcher, after a hand edit). */
  adopt(card: Card, file: string, hash: string): void {
    this.known.set(card.id, { file, hash });
  }

  async ensureCurrent(cards: Card[]): Promise<void> {
    for (const card of cards) await this.ensureCardCurrent(card);
  }

  async ensureCardCurrent(card: Card): Promise<void> {
    const known = this.known.get(card.id);
    if (!known) return; // never on disk (created in this call) or removed already
    const text = await fs.readFile(known.file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (text !== null && fingerprint(text) === known.hash) return;
    const relative = this.relative(known.file);
    if (text === null) {
      this.known.delete(card.id);
      const elsewhere = await this.findCardFile(card.id);
      const changes: ExternalChange[] = [{ kind: 'remove', boardId: card.boardId, id: card.id }];
      if (elsewhere) {
        const moved = await this.readCardFile(elsewhere);
        if ('card' in moved) {
          this.adopt(moved.card, elsewhere, moved.hash);
          changes.splice(0, 1, { kind: 'upsert', card: moved.card });
        }
      }
      throw new StaleFileError(`${relative} was moved or removed on disk since the service read it; nothing was written. The board now shows the files as they are: apply your change again.`, relative, changes, null);
    }
    const now = await this.readCardFile(known.file);
    if ('invalid' in now) {
      throw new StaleFileError(
        `${relative} does not parse (${now.invalid.reason}); nothing was written. Fix the file by hand (the service never rewrites a broken file), then try again.`,
        relative,
        [],
        now.invalid,
      );
    }
    this.adopt(now.card, known.file, now.hash);
    throw new StaleFileError(
      `${relative} changed on disk since the service read it (edited by hand or by another tool); nothing was written and the board now shows the file's new content. Apply your change again.`,
      relative,
      [{ kind: 'upsert', card: now.card }],
      null,
    );
  }

  async create(card: Card): Promise<boolean> {
    if (await this.findCardFile(card.id)) return false;
    const text = serializeCard(card);
    const file = this.absolutePath(card);
    this.ownWrites.set(file, { text, card });
    const created = await createFileExclusive(file, text);
    if (!created) this.ownWrites.delete(file);
    else this.known.set(card.id, { file, hash: fingerprint(text) });
    return created;
  }

  async update(card: Card, previous: Card): Promise<void> {
    const text = serializeCard(card);
    const file = this.absolutePath(card);
    // The file the card was read from, which differs from its canonical path only until the
    // folder mirrors its status. A crash between writing the new file and removing this one
    // leaves two copies; the next start keeps the newer (loadRepair.ts).
    const oldFile = this.known.get(previous.id)?.file ?? this.absolutePath(previous);
    this.ownWrites.set(file, { text, card });
    if (oldFile !== file) this.ownWrites.set(oldFile, { text: '', card: null });
    const written = await writeFileIfUnchanged(file, text, () => this.unchangedNow(previous), { alsoRemove: oldFile });
    if (!written) await this.refuseChanged(previous);
    this.known.set(card.id, { file, hash: fingerprint(text) });
  }

  async remove(card: Card): Promise<void> {
    const file = this.known.get(card.id)?.file ?? this.absolutePath(card);
    if (!this.unchangedNow(card)) await this.refuseChanged(card);
    this.ownWrites.set(file, { text: '', card: null });
    rmSync(file, { force: true });
    this.known.delete(card.id);
  }

  /**
   * Whether the card's file still holds what the service last read or wrote. Synchronous, so it
   * can run right before the rename that replaces the file (see writeFileIfUnchanged).
   */
  private unchangedNow(card: Card): boolean {
    const known = this.known.get(card.id);
    if (!known) return true;
    try {
      return fingerprint(readFileSync(known.file, 'utf8')) === known.hash;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /** The file changed between the check before a write and the write itself: refuse, as the check would have. */
  private async refuseChanged(card: Card): Promise<never> {
    await this.ensureCardCurrent(card);
    throw new FileConflictError(`the file of card ${card.id} changed while it was being written; nothing was written. Apply your change again.`);
  }

  /**
   * The file of a card id in any board or status folder (another process may have claimed the id
   * elsewhere). The folders are checked all at once: this runs inside the mutation queue, so its
   * latency delays every write.
   */
  async findCardFile(id: string): Promise<string | null> {
    const boardsDir = path.join(this.kanbanDir, 'boards');
    const perBoard = await Promise.all(
      (await readDirs(boardsDir)).map(async (board) => {
        const statuses = (await readDirs(path.join(boardsDir, board))).filter((status) => !RESERVED_BOARD_FOLDERS.has(status));
        const files = statuses.map((status) => path.join(boardsDir, board, status, `${id}.md`));
        const found = await Promise.all(files.map((file) => fs.access(file).then(() => true, () => false)));
        return files.find((_, i) => found[i]) ?? null;
      }),
    );
    return perBoard.find((file) => file !== null) ?? null;
  }

  async close(): Promise<void> {}
}

function unreadable(relative: string, error: unknown): InvalidFile {
  if (!(error instanceof CardFileError)) return { path: relative, reason: `cannot read: ${(error as Error).message}` };
  return { path: relative, reason: error.message, ...(error.line ? { line: error.line } : {}) };
}

function readWithTime(file: string): { text: string; mtime: Date; mtimeMs: number; size: number } {
  const fd = openSync(file, 'r');
  try {
    const stat = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, buffer, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buffer.toString('utf8', 0, read), mtime: stat.mtime, mtimeMs: stat.mtimeMs, size: stat.size };
  } finally {
    closeSync(fd);
  }
}

/**
 * `file` after `prefix` (a resolved folder with its trailing separator) when it is a plain path
 * beneath it, null when path.relative must decide (another folder, `..`, `.` or doubled separators).
 */
function plainlyUnder(prefix: string, file: string): string | null {
  if (!file.startsWith(prefix)) return null;
  const unusual = file.includes(`${path.sep}..`) || file.includes(`${path.sep}.${path.sep}`) || file.includes(path.sep + path.sep);
  return unusual ? null : file.slice(prefix.length);
}
