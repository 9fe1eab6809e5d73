import { promises as fs, statSync, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { isTempFile } from '../core/atomicFile';
import { mapWithLimit } from '../core/concurrency';
import type { ExternalChange } from '../storage/cardStore';
import { MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import { settleChangedCardFile } from './cardFileChanges';
import { stampAt } from '../storage/markdown/cardListing';
import { ClaimWatcher } from './claimWatcher';
import { applyExternalChangesNow, applyExternalConfigNow } from '../service/external';
import type { Workspace } from '../service/workspace';
import { log } from '../core/log';

/** Card files stat-ed per turn of the event loop when comparing them with the load. */
const STAT_SLICE = 1024;

/** Card files read at once when a batch of changes arrives. */
const READ_CONCURRENCY = 16;

export interface FileWatcherOptions {
  /** Quiet time before a batch is applied; bursts (git checkout) become one batch. */
  debounceMs?: number;
  /** A batch is applied at the latest this long after its first change, even during a long burst. */
  maxWaitMs?: number;
}

/**
 * Keeps the index in step with `.kanban/` card files and `.kanban.json` edited outside the service.
 * Paths are collected and applied in batches through the mutation queue.
 */
export class FileWatcher {
  /** Watched folders; the inode tells a folder from one removed and made again under its name. */
  private folders = new Map<string, { watcher: FSWatcher; depth: number; ino: number }>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt = 0;
  private running: Promise<void> = Promise.resolve();
  /** The folder looks, one after another (see syncFolders), and those not started yet, by folder. */
  private syncs: Promise<void> = Promise.resolve();
  private syncsWaiting = new Map<string, Promise<void>>();
  private closed = false;
  /** Files that failed to parse and are read once more shortly after (see scheduleRecheck). */
  private rechecking = new Set<string>();
  private recheckTimer: NodeJS.Timeout | null = null;
  /** Claims live outside `.kanban/` (the git common directory): watched on their own. */
  private claims: ClaimWatcher;

  constructor(
    private readonly ws: Workspace,
    private readonly options: FileWatcherOptions = {},
  ) {
    this.claims = new ClaimWatcher(ws);
  }

  /**
   * One `fs.watch` per folder (root, .kanban, boards, each board, each status folder), never per
   * file: a status folder reports its files by name, so a write costs one event. (A general-purpose
   * watcher re-lists and stats a whole folder on every change, which made each write O(cards).)
   */
  async start(): Promise<void> {
    const { root } = this.ws;
    this.watchFolder(root, -1);
    await this.watchTree(this.ws.kanbanDir, 0);
    this.claims.start();
    this.ws.watching = true;
    this.syncs = this.syncs
      .then(() => this.lookSinceLoad())
      .catch((error) => log.error('kanban: comparing the card files with the load failed:', error));
  }

  /**
   * Files that changed after the load read them and before the folders were watched (another
   * command writing while a large board loads) would otherwise be missed until edited again: each
   * file whose size or mtime differs from the load's, and each the load read that is gone, is
   * looked at as a change. Only stats, in slices; files read only when they changed.
   */
  private async lookSinceLoad(): Promise<void> {
    const store = this.ws.store;
    if (!(store instanceof MarkdownCardStore)) return;
    const stamps = store.takeLoadStamps();
    if (!stamps) return;
    const broken = new Set(this.ws.invalidFiles.map((f) => f.path));
    // On another thread: the first requests after a start are answered meanwhile.
    const { files, stamps: stampsNow } = await store.listCardFilesStamped(true);
    for (let i = 0; i < files.length; i += STAT_SLICE) {
      for (let n = i; n < Math.min(i + STAT_SLICE, files.length); n++) {
        const file = files[n];
        const key = store.relative(file);
        const then = stamps.get(key);
        stamps.delete(key);
        if (broken.has(key)) continue;
        const now = stampAt(stampsNow, n);
        if (!then || !now || then.size !== now.size || then.mtimeMs !== now.mtimeMs) this.onChange('change', file);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const key of stamps.keys()) this.onChange('unlink', path.join(store.root, key));
  }

  /** Depth -1 is the workspace root, 0 `.kanban`, 1 `boards`, 2 a board, 3 a status folder. */
  private watchFolder(dir: string, depth: number): boolean {
    if (this.closed || this.folders.has(dir)) return this.folders.has(dir);
    let watcher: FSWatcher;
    let ino: number;
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) =>
        this.onFolderEvent(dir, depth, name === null ? null : String(name)),
      );
      ino = statSync(dir).ino;
    } catch {
      return false; // gone already: its parent's event brings it back if it reappears
    }
    watcher.on('error', () => this.unwatchTree(dir));
    this.folders.set(dir, { watcher, depth, ino });
    return true;
  }

  /** Watch a folder and the folders below it that can hold cards. */
  private async watchTree(dir: string, depth: number): Promise<void> {
    if (!this.watchFolder(dir, depth) || depth >= 3) return;
    for (const child of await this.childFolders(dir, depth)) await this.watchTree(path.join(dir, child), depth + 1);
  }

  private unwatchTree(dir: string): void {
    for (const [folder, entry] of this.folders) {
      if (folder === dir || folder.startsWith(dir + path.sep)) {
        entry.watcher.close();
        this.folders.delete(folder);
      }
    }
  }

  /** Sub-folders of a folder that the next level watches. */
  private async childFolders(dir: string, depth: number): Promise<string[]> {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isDirectory() && this.isWatchedChild(depth, e.name)).map((e) => e.name);
  }

  private isWatchedChild(depth: number, name: string): boolean {
    if (depth === -1) return name === '.kanban';
    if (depth === 0) return name === 'boards';
    return !name.startsWith('.') && !(depth === 2 && (name === 'attachments' || name === 'logs'));
  }

  private onFolderEvent(dir: string, depth: number, name: string | null): void {
    if (this.closed) return;
    if (depth >= 0 && name === path.basename(dir)) {
      // A watch reports its own folder's removal under the folder's name; a folder made again
      // under that name is a new one the old watch never sees. Look again from the parent.
      this.unwatchTree(dir);
      this.onChange('unlinkDir', dir);
      void this.syncFolders(path.dirname(dir), depth - 1);
      return;
    }
    if (depth === 3) {
      if (name === null) this.onChange('addDir', dir);
      else if (name.endsWith('.md') && !isTempFile(name)) this.onChange('change', path.join(dir, name));
      return;
    }
    if (depth === -1 && name === path.basename(this.ws.configPath)) {
      this.onChange('change', this.ws.configPath);
      return;
    }
    if (name !== null && !this.isWatchedChild(depth, name)) return;
    void this.syncFolders(dir, depth);
  }

  /**
   * A folder appeared or vanished under `dir`: follow it, and have its cards looked at. Looks run
   * one at a time: two at once could interleave their awaits, and a look that listed a folder while
   * it was gone (a whole `boards/` replaced) would then unwatch the new tree another look had just
   * followed, and a later hand edit there would go unseen. A look asked for while one for the same
   * folder waits its turn is that one: it lists the folder when it runs, so it sees both changes.
   */
  private syncFolders(dir: string, depth: number): Promise<void> {
    const waiting = this.syncsWaiting.get(dir);
    if (waiting) return waiting;
    const turn = this.syncs.then(() => {
      this.syncsWaiting.delete(dir);
      return this.closed ? undefined : this.syncFoldersNow(dir, depth);
    });
    this.syncsWaiting.set(dir, turn);
    this.syncs = turn.catch((error) => log.error(`kanban: following the folders in ${dir} failed:`, error));
    return turn;
  }

  private async syncFoldersNow(dir: string, depth: number): Promise<void> {
    const present = new Set((await this.childFolders(dir, depth)).map((name) => path.join(dir, name)));
    for (const [folder, entry] of this.folders) {
      if (entry.depth === depth + 1 && path.dirname(folder) === dir && !present.has(folder)) {
        this.unwatchTree(folder);
        this.onChange('unlinkDir', folder);
      }
    }
    for (const folder of present) {
      const held = this.folders.get(folder);
      // Removed and made again between two looks (rm -r then mkdir): the old watch sees nothing.
      if (
        held &&
        (await fs.stat(folder).then(
          (s) => s.ino,
          () => held.ino,
        )) === held.ino
      )
        continue;
      if (held) this.unwatchTree(folder);
      await this.watchTree(folder, depth + 1);
      this.onChange('addDir', folder);
    }
  }

  private onChange(event: string, changed: string): void {
    if (this.closed) return;
    if (changed === this.ws.configPath || (changed.endsWith('.md') && event !== 'addDir')) {
      // A real change earns a broken file another recheck.
      this.rechecking.delete(changed);
      this.pending.add(changed);
    } else if (event === 'unlinkDir' || event === 'addDir') {
      // A folder moved or removed as a whole (git checkout, mv): look at what the index holds there.
      this.pending.add(changed + path.sep);
    } else {
      return;
    }
    this.schedule();
  }

  private schedule(): void {
    const now = Date.now();
    if (!this.timer) this.firstPendingAt = now;
    if (this.timer) clearTimeout(this.timer);
    const debounce = this.options.debounceMs ?? 40;
    const wait = Math.max(0, Math.min(debounce, this.firstPendingAt + (this.options.maxWaitMs ?? 300) - now));
    this.timer = setTimeout(() => this.applyPending(), wait);
  }

  private applyPending(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending];
    this.pending.clear();
    this.running = this.running
      .then(() => this.applyBatch(batch))
      .catch((error) => log.error('kanban: applying file changes failed:', error));
  }

  /**
   * Apply every change that happened before this call, now rather than after the quiet time: a
   * request that arrives right after a hand edit or a checkout is answered from the new files. The
   * turn of the event loop first lets the kernel's pending notices reach their watchers (they were
   * queued when the files changed, before the request was even sent).
   */
  async catchUp(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    for (;;) {
      await this.syncs;
      if (this.pending.size) this.applyPending();
      await this.running;
      if (!this.pending.size && !this.timer) return;
    }
  }

  /** Resolves once every change seen so far has been applied (for tests and tools). */
  async settled(): Promise<void> {
    await this.syncs;
    while (this.timer || this.pending.size) await new Promise((r) => setTimeout(r, 10));
    await this.running;
  }

  /**
   * Files are read inside the mutation queue: read outside it, a file could be read, then rewritten
   * by the API, and the stale text applied after, undoing the newer change.
   */
  private applyBatch(paths: string[]): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.ws.mutate(() => this.applyBatchNow(paths));
  }

  private async applyBatchNow(paths: string[]): Promise<void> {
    if (paths.includes(this.ws.configPath)) {
      const text = await fs.readFile(this.ws.configPath, 'utf8').catch(() => null);
      applyExternalConfigNow(this.ws, text);
    }
    const store = this.ws.store;
    if (!(store instanceof MarkdownCardStore)) return;
    const files = new Set(paths.filter((p) => p.endsWith('.md')));
    for (const dir of paths.filter((p) => p.endsWith(path.sep))) {
      for (const card of this.ws.index.allCards()) {
        const file = store.known.get(card.id)?.file ?? store.absolutePath(card);
        if (file.startsWith(dir)) files.add(file);
      }
      for (const file of await store.listCardFiles()) if (file.startsWith(dir)) files.add(file);
    }
    const changes = await this.readChanges(store, [...files]);
    if (changes.length) applyExternalChangesNow(this.ws, changes);
  }

  private async readChanges(store: MarkdownCardStore, files: string[]): Promise<ExternalChange[]> {
    const upserts: ExternalChange[] = [];
    const removals: ExternalChange[] = [];
    // Read in parallel (a checkout changes hundreds of files), then applied one by one in order.
    const cardFiles = files.filter((file) => store.locate(file));
    const reads = await mapWithLimit(cardFiles, READ_CONCURRENCY, (file) => store.readCardFile(file));
    const prefetched = new Map(cardFiles.map((file, i) => [file, reads[i]]));
    const queue = [...cardFiles];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const location = store.locate(file);
      if (!location) continue;
      const result = prefetched.get(file) ?? (await store.readCardFile(file));
      prefetched.delete(file);
      if (this.isOwnEcho(store, file, 'text' in result ? result.text : null)) continue;
      const relative = store.filePathOf(location);
      if ('card' in result) {
        this.rechecking.delete(file);
        this.ws.invalidFiles = this.ws.invalidFiles.filter((f) => f.path !== relative);
        const known = store.known.get(result.card.id);
        // The file the card is served from, with the text it was read with: nothing changed (a
        // second look at a moved file must not undo the status its folder gave it).
        if (known?.file === file && known.hash === result.hash) continue;
        const card = await settleChangedCardFile(store, file, result);
        // Not the file the card was served from (none when a removal in this batch came first).
        if (card) upserts.push({ kind: 'upsert', card, relocated: known?.file !== file });
        else this.reportSecondCopy(store, relative, result.card.id);
        continue;
      }
      const exists = await fs.stat(file).then(
        () => true,
        () => false,
      );
      if (exists) {
        // The last good version stays served until the file parses again.
        this.ws.invalidFiles = [...this.ws.invalidFiles.filter((f) => f.path !== relative), result.invalid];
        log.warn(`kanban: ${relative} no longer parses (${result.invalid.reason}); serving its last good version`);
        this.scheduleRecheck(file);
        continue;
      }
      this.rechecking.delete(file);
      this.ws.invalidFiles = this.ws.invalidFiles.filter((f) => f.path !== relative);
      // Only a removal of the file the card is served from removes it (a move leaves the id elsewhere).
      const servedId = store.cardIdAt(file) ?? location.id;
      if (store.known.get(servedId)?.file !== file) continue;
      // Moved rather than removed (its new file not looked at yet), or a second copy that was
      // ignored while this one existed: that file takes over.
      const elsewhere = await store.findCardFile(servedId);
      if (elsewhere) {
        queue.push(elsewhere);
        continue;
      }
      store.forget(servedId);
      removals.push({ kind: 'remove', boardId: location.boardId, id: servedId });
    }
    // A card moved by hand shows up as a new file plus a removed old one: that is a move, not a delete.
    const upserted = new Set(upserts.map((u) => (u.kind === 'upsert' ? u.card.id : '')));
    return [...upserts, ...removals.filter((r) => r.kind === 'remove' && !upserted.has(r.id))];
  }

  /**
   * A second file with a known card's id (an editor saved a card's old path after the card moved):
   * never a second card, and never silent. It stays listed until one of the two files goes.
   */
  private reportSecondCopy(store: MarkdownCardStore, relative: string, id: string): void {
    const known = store.known.get(id);
    const servedFrom = known ? store.relative(known.file) : 'another file';
    const reason = `a second copy of card ${id}, which is served from ${servedFrom}; delete one of the two files (this one is ignored meanwhile)`;
    this.ws.invalidFiles = [
      ...this.ws.invalidFiles.filter((f) => f.path !== relative),
      { path: relative, reason, ...(known ? { duplicateOf: servedFrom } : {}) },
    ];
  }

  /**
   * The file holds exactly what this service last wrote there, and the index still holds the card
   * written: nothing to apply, and no need to parse (an API write used to cost a second YAML parse
   * and two serializations here).
   */
  private isOwnEcho(store: MarkdownCardStore, file: string, text: string | null): boolean {
    const own = store.ownWrites.get(file);
    if (!own || !own.card || this.ws.index.findById(own.card.id) !== own.card) return false;
    if (text !== own.text) return false;
    store.ownWrites.delete(file);
    this.rechecking.delete(file);
    // Our write replaced a file that was reported broken: it is no longer.
    const relative = store.filePathOf(own.card);
    if (this.ws.invalidFiles.some((f) => f.path === relative))
      this.ws.invalidFiles = this.ws.invalidFiles.filter((f) => f.path !== relative);
    return true;
  }

  /**
   * An editor that saves by truncating then writing can be caught between the two, and the change
   * that completes the file has been seen to go unapplied under load (most recently right after a
   * folder was replaced and newly followed). A file that fails to parse is therefore read once more
   * a little later; a file that stays broken is not polled again.
   */
  private scheduleRecheck(file: string): void {
    if (this.rechecking.has(file)) return;
    this.rechecking.add(file);
    if (this.recheckTimer) return;
    this.recheckTimer = setTimeout(() => {
      this.recheckTimer = null;
      if (this.closed) return;
      for (const again of this.rechecking) this.pending.add(again);
      this.schedule();
    }, 250);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    if (this.timer) clearTimeout(this.timer);
    for (const { watcher } of this.folders.values()) watcher.close();
    this.folders.clear();
    this.claims.close();
    await this.running.catch(() => undefined);
    this.ws.watching = false;
  }
}
