import { promises as fs, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../core/model';
import { createFileExclusive, writeFileIfUnchanged } from '../../core/atomicFile';
import { FileConflictError } from '../../core/errors';
import { parseCard, serializeCard } from '../cardFile';
import {
  StaleFileError,
  type CardStore,
  type DuplicateIdCard,
  type ExternalChange,
  type InvalidFile,
  type LoadResult,
  type RecoveredFile,
  type StaleCopy,
} from '../cardStore';
import { findCardFileIn, fingerprint, listCardFiles } from './cardFolders';
import type { FilePlaces } from './cardIdentity';
import { moveToRecovered } from './loadRepair';
import { LaterIndexCacheWrite, type FileStamp } from './indexCache';
import { listCardFilesOffThread, type CardListing, type StampedCardListing } from './cardListing';
import { CardPaths } from './cardPaths';
import { adoptLoaded, readCardFiles, unreadable, type AdoptingStore } from './markdownLoad';
import { log } from '../../core/log';
import { createKanbanGitignoreIfMissing } from '../generatedFiles';

export { RESERVED_BOARD_FOLDERS } from './cardFolders';

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
  /** The card id served from each known file: the reverse of `known`. */
  private readonly fileIds = new Map<string, string>();
  /** Files whose claimed id another card holds, and the id each is served as. */
  private readonly aliases = new Map<string, { claimed: string; servedAs: string }>();
  /**
   * Card objects served from a file other than their canonical path (a hand rename, a status edited
   * by hand, a card under a new id): the path they are really read from, for `filePathOf`.
   */
  private readonly servedFiles = new WeakMap<object, string>();

  private readonly paths: CardPaths;

  constructor(
    readonly root: string,
    readonly kanbanDir: string,
    /** false: loads never write `.kanban/.state/card-index.json` (a folder opened read-only). */
    private readonly options: { keepIndexCache: boolean } = { keepIndexCache: true },
  ) {
    this.paths = new CardPaths(root, kanbanDir);
  }

  /** The card's file relative to the root: where it is served from, else its canonical path (see cardPaths.ts). */
  filePathOf(card: Pick<Card, 'id' | 'boardId' | 'status' | 'archivedAt'>): string {
    return this.servedFiles.get(card) ?? this.paths.canonicalRelative(card);
  }

  /** A path under the root as the root-relative, `/`-separated form. */
  relative(file: string): string {
    return this.paths.relative(file);
  }

  /** `<board>/<status>/<id>.md`, or `<board>/archived/<id>.md` for an archived card (it keeps its status). */
  absolutePath(card: Pick<Card, 'id' | 'boardId' | 'status' | 'archivedAt'>): string {
    return this.paths.absolutePath(card);
  }

  /** Board, status folder and id from a card file's absolute path, or null when it is not a card path. */
  locate(file: string): { id: string; boardId: string; status: string } | null {
    return this.paths.locate(file);
  }

  /**
   * Read every card file and decide which card each is (markdown/cardIdentity.ts). A load writes no
   * card file: files whose folder disagrees with their status, two cards that claim one id and a
   * torn move's leftover are served as they are and repaired only by a write (see `staleCopies`).
   */
  async loadAll(): Promise<LoadResult> {
    const { parsed, invalid, stamps, cacheEntries, loadMs } = await readCardFiles(this);
    if (this.options.keepIndexCache && cacheEntries) this.indexCacheWrite.schedule(this.stateDir, cacheEntries, loadMs);
    this.loadStamps = stamps;
    this.aliases.clear();
    const { served, stale, duplicates } = adoptLoaded(this.adopting, parsed);
    for (const duplicate of duplicates)
      this.aliases.set(path.join(this.root, duplicate.path), { claimed: duplicate.id, servedAs: duplicate.servedAs });
    this.staleCopies = stale;
    this.duplicateIds = duplicates;
    return { cards: served.map((k) => k.card), invalid, stale, duplicates };
  }

  /** The size and mtime of each file as the last load read it, by root-relative path (see takeLoadStamps). */
  private loadStamps: Map<string, FileStamp> | null = null;

  /**
   * What the last load saw, once: a watcher started after the load compares the files with it, so
   * a change made while the board was loading is not missed (FileWatcher.start).
   */
  takeLoadStamps(): Map<string, FileStamp> | null {
    const stamps = this.loadStamps;
    this.loadStamps = null;
    return stamps;
  }

  /** Second files of cards left by a crash mid-move, as the last load found them. */
  staleCopies: StaleCopy[] = [];
  /** Cards served under a new id because another card's file claims theirs; each leaves on its file's rename. */
  duplicateIds: DuplicateIdCard[] = [];
  private gitignoreChecked: Promise<void> | undefined;

  /** What card identity needs of file paths. */
  readonly places: FilePlaces = {
    folderOf: (file) => this.locate(file)?.status,
    relative: (file) => this.relative(file),
  };

  /** What a load's adoption of the cards needs: the maps it fills stay private to the store. */
  private readonly adopting: AdoptingStore = {
    places: this.places,
    forgetAllFiles: () => this.forgetAllFiles(),
    knows: (id) => this.known.has(id),
    adopt: (card, file, hash) => this.adopt(card, file, hash),
  };

  /**
   * Move the stale copies of a torn move (provably the same card, see cardIdentity.ts) under
   * `.kanban/.state/recovered/`, unchanged: the standalone server at start and `doctor --fix`.
   * A copy that changed since the load is a card's file again and stays where it is.
   */
  async recoverStaleCopies(): Promise<RecoveredFile[]> {
    const recovered: RecoveredFile[] = [];
    for (const copy of this.staleCopies) {
      const moved = await moveToRecovered(this, copy);
      if (moved) recovered.push(moved);
    }
    this.staleCopies = [];
    return recovered;
  }

  private async recoverStaleCopiesOf(id: string): Promise<void> {
    const mine = this.staleCopies.filter((copy) => copy.id === id);
    this.staleCopies = this.staleCopies.filter((copy) => copy.id !== id);
    for (const copy of mine) await moveToRecovered(this, copy);
  }

  /** Remember the file a card is served from, by id and the id by file (a load, a write, the watcher after a hand edit). */
  adopt(card: Card, file: string, hash: string): void {
    const before = this.known.get(card.id);
    if (before && before.file !== file && this.fileIds.get(before.file) === card.id) this.fileIds.delete(before.file);
    this.known.set(card.id, { file, hash });
    this.fileIds.set(file, card.id);
    if (!this.paths.isCanonicalFile(file, card)) this.servedFiles.set(card, this.relative(file));
  }

  /** Forget every card's file: a load adopts them all afresh. */
  private forgetAllFiles(): void {
    this.known.clear();
    this.fileIds.clear();
  }

  /** Forget a card's file (it was removed). */
  forget(id: string): void {
    const known = this.known.get(id);
    if (known && this.fileIds.get(known.file) === id) this.fileIds.delete(known.file);
    this.known.delete(id);
  }

  /** The id of the card served from an absolute file path, if any. */
  cardIdAt(file: string): string | undefined {
    return this.fileIds.get(file);
  }

  /** The id a card read from `file` is served as: a card that had to take a new id keeps it. */
  servedId(file: string, card: Card): Card {
    const alias = this.aliases.get(file);
    return alias && alias.claimed === card.id ? { ...card, id: alias.servedAs } : card;
  }

  /** Serve the card of `file` under a new id (its claimed one is another card's). */
  alias(file: string, claimed: string, servedAs: string, sharedWith: string): void {
    this.aliases.set(file, { claimed, servedAs });
    this.duplicateIds = [
      ...this.duplicateIds.filter((d) => d.servedAs !== servedAs),
      { path: this.relative(file), id: claimed, servedAs, sharedWith: this.relative(sharedWith) },
    ];
  }

  /** Where git-ignored local state lives (the index cache among it). */
  get stateDir(): string {
    return path.join(this.kanbanDir, '.state');
  }

  /**
   * Written a moment after the load (see LaterIndexCacheWrite); `close` starts it at once and waits
   * for it. A short-lived process (a `kanban` command) closes right after its answer, and used to
   * exit before the write ended: no command ever left a cache, so every call read and parsed every
   * card file (1.4 s at 10,000 cards).
   */
  private readonly indexCacheWrite = new LaterIndexCacheWrite();

  /** Every `<board>/<status>/<id>.md` under the boards folder. */
  listCardFiles(): Promise<string[]> {
    return listCardFiles(path.join(this.kanbanDir, 'boards'));
  }

  /** The same, listed on another thread, with each file's size and mtime when `stamp` (see cardListing.ts). */
  listCardFilesStamped(stamp: true): Promise<StampedCardListing>;
  listCardFilesStamped(stamp: boolean): Promise<CardListing>;
  listCardFilesStamped(stamp: boolean): Promise<CardListing> {
    return listCardFilesOffThread(path.join(this.kanbanDir, 'boards'), stamp);
  }

  /** Read and parse one card file given its absolute path. */
  async readCardFile(file: string): Promise<ReadResult> {
    const location = this.locate(file);
    if (!location) return { invalid: { path: this.relative(file), reason: 'not in a <board>/<status>/ folder' } };
    try {
      const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
      return {
        card: this.servedId(file, parseCard(text, { ...location, fileTime: stat.mtime.toISOString() })),
        hash: fingerprint(text),
        text,
      };
    } catch (error) {
      return { invalid: unreadable(this.relative(file), error) };
    }
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
      this.forget(card.id);
      const elsewhere = await this.findCardFile(card.id);
      const changes: ExternalChange[] = [{ kind: 'remove', boardId: card.boardId, id: card.id }];
      if (elsewhere) {
        const moved = await this.readCardFile(elsewhere);
        if ('card' in moved) {
          this.adopt(moved.card, elsewhere, moved.hash);
          changes.splice(0, 1, { kind: 'upsert', card: moved.card });
        }
      }
      throw new StaleFileError(
        `${relative} was moved or removed on disk since the service read it; nothing was written. The board now shows the files as they are: apply your change again.`,
        relative,
        changes,
        null,
      );
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
    // The board's first card file: a board started without `kanban init` gets its .gitignore.
    this.gitignoreChecked ??= createKanbanGitignoreIfMissing(this.kanbanDir).catch((error: Error) =>
      log.warn(`kanban: cannot write .kanban/.gitignore: ${error.message}`),
    );
    await this.gitignoreChecked;
    const text = serializeCard(card);
    const file = this.absolutePath(card);
    this.ownWrites.set(file, { text, card });
    const created = await createFileExclusive(file, text);
    if (!created) this.ownWrites.delete(file);
    else this.adopt(card, file, fingerprint(text));
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
    if (oldFile !== file && this.aliases.delete(oldFile)) {
      this.duplicateIds = this.duplicateIds.filter((d) => d.servedAs !== card.id);
      log.warn(
        `kanban: renamed ${this.relative(oldFile)} to ${this.relative(file)}: the card it holds is ${card.id} (another card has the id its file claimed)`,
      );
    }
    this.adopt(card, file, fingerprint(text));
    if (this.staleCopies.some((copy) => copy.id === previous.id)) await this.recoverStaleCopiesOf(previous.id);
  }

  async remove(card: Card): Promise<void> {
    const file = this.known.get(card.id)?.file ?? this.absolutePath(card);
    if (!this.unchangedNow(card)) await this.refuseChanged(card);
    this.ownWrites.set(file, { text: '', card: null });
    rmSync(file, { force: true });
    this.forget(card.id);
    if (this.aliases.delete(file)) this.duplicateIds = this.duplicateIds.filter((d) => d.servedAs !== card.id);
    // A torn move's leftover of a deleted card must not bring it back at the next start.
    if (this.staleCopies.some((copy) => copy.id === card.id)) await this.recoverStaleCopiesOf(card.id);
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
    throw new FileConflictError(
      `the file of card ${card.id} changed while it was being written; nothing was written. Apply your change again.`,
    );
  }

  /** The file of a card id in any board or status folder (another process may have claimed the id elsewhere). */
  async findCardFile(id: string): Promise<string | null> {
    return findCardFileIn(path.join(this.kanbanDir, 'boards'), id);
  }

  async close(): Promise<void> {
    await this.indexCacheWrite.close();
  }
}
