import { watch, type FSWatcher } from 'chokidar';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isTempFile } from '../core/atomicFile';
import type { ExternalChange } from '../storage/cardStore';
import { MarkdownCardStore } from '../storage/markdown/markdownCardStore';
import { applyExternalChangesNow, applyExternalConfigNow } from '../service/external';
import type { Workspace } from '../service/workspace';

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
  private watchers: FSWatcher[] = [];
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstPendingAt = 0;
  private running: Promise<void> = Promise.resolve();
  private closed = false;
  /** Files that failed to parse and are read once more shortly after (see scheduleRecheck). */
  private rechecking = new Set<string>();
  private recheckTimer: NodeJS.Timeout | null = null;

  constructor(private readonly ws: Workspace, private readonly options: FileWatcherOptions = {}) {}

  async start(): Promise<void> {
    const { root, kanbanDir, configPath } = this.ws;
    // The root is watched one level deep only: enough to see .kanban.json and .kanban/ appear.
    const rootWatcher = watch(root, {
      depth: 0,
      ignoreInitial: true,
      ignored: (p: string) => p !== root && p !== configPath && p !== kanbanDir,
    });
    const kanbanWatcher = watch(kanbanDir, {
      ignoreInitial: true,
      ignored: (p: string) => this.isIgnored(p),
    });
    for (const watcher of [rootWatcher, kanbanWatcher]) {
      watcher.on('all', (event, changed) => this.onChange(event, changed));
      watcher.on('error', (error) => console.warn(`kanban: file watcher error: ${(error as Error).message}`));
    }
    rootWatcher.on('addDir', (dir) => {
      if (dir === kanbanDir) kanbanWatcher.add(kanbanDir);
    });
    this.watchers = [rootWatcher, kanbanWatcher];
    await Promise.all(this.watchers.map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve()))));
    this.ws.watching = true;
  }

  private isIgnored(p: string): boolean {
    const relative = path.relative(this.ws.kanbanDir, p).split(path.sep);
    if (relative[0] === '.state' || isTempFile(p)) return true;
    // Under boards/<board>/: only status folders and their .md files matter.
    if (relative[0] === 'boards' && relative.length >= 3 && (relative[2] === 'attachments' || relative[2] === 'logs')) return true;
    return false;
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
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = [...this.pending];
      this.pending.clear();
      this.running = this.running.then(() => this.applyBatch(batch)).catch((error) => console.error('kanban: applying file changes failed:', error));
    }, wait);
  }

  /** Resolves once every change seen so far has been applied (for tests and tools). */
  async settled(): Promise<void> {
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
        const file = store.absolutePath(card);
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
    for (const file of files) {
      const location = store.locate(file);
      if (!location) continue;
      const relative = store.filePathOf(location);
      const result = await store.readCardFile(file);
      if ('card' in result) {
        this.rechecking.delete(file);
        this.ws.invalidFiles = this.ws.invalidFiles.filter((f) => f.path !== relative);
        upserts.push({ kind: 'upsert', card: result.card });
        continue;
      }
      const exists = await fs.stat(file).then(() => true, () => false);
      if (exists) {
        // The last good version stays served until the file parses again.
        this.ws.invalidFiles = [...this.ws.invalidFiles.filter((f) => f.path !== relative), result.invalid];
        console.warn(`kanban: ${relative} no longer parses (${result.invalid.reason}); serving its last good version`);
        this.scheduleRecheck(file);
      } else {
        this.rechecking.delete(file);
        this.ws.invalidFiles = this.ws.invalidFiles.filter((f) => f.path !== relative);
        const held = this.ws.index.get(location.boardId, location.id);
        // Only a removal of the file the index points at removes the card (a move leaves the id elsewhere).
        if (held && held.status === location.status) removals.push({ kind: 'remove', boardId: location.boardId, id: location.id });
      }
    }
    // A card moved by hand shows up as a new file plus a removed old one: that is a move, not a delete.
    const upserted = new Set(upserts.map((u) => (u.kind === 'upsert' ? u.card.id : '')));
    return [...upserts, ...removals.filter((r) => r.kind === 'remove' && !upserted.has(r.id))];
  }

  /**
   * An editor that saves by truncating then writing can be caught between the two, and the watcher
   * may drop the second change event (same mtime, or throttled). A file that fails to parse is
   * therefore read once more a little later; a file that stays broken is not polled again.
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
    await Promise.all(this.watchers.map((w) => w.close()));
    await this.running.catch(() => undefined);
    this.ws.watching = false;
  }
}
