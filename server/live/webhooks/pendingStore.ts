import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isTempFile, writeFileAtomic } from '../../core/atomicFile';
import { ensureStateDir } from '../../storage/state/fileCardStateStore';
import { log } from '../../core/log';

/** A delivery not yet acknowledged by its receiver nor given up on. */
export interface PendingDelivery {
  /** Delivery id: the body's `id` and the `X-Webhook-Delivery` header, the same on every attempt. */
  id: string;
  webhookId: string;
  event: string;
  /** The exact bytes sent (and signed) on every attempt, fixed when the event happened. */
  rawBody: string;
  /** Attempts made so far. */
  attempts: number;
  /** Epoch milliseconds of the next attempt. */
  nextAttemptAt: number;
}

/** Earlier releases wrote one delivery per file; such files are still read. */
const SINGLE_FILE = /^[0-9a-f-]{36}\.json$/;
const BATCH_FILE = /^batch-[0-9a-z]+-[0-9]+\.json$/;

/** Deliveries that will share one file and one fsync, and the promise their savers wait on. */
interface Batch {
  items: Map<string, PendingDelivery>;
  written: Promise<void>;
  done(): void;
}

function newBatch(): Batch {
  let done!: () => void;
  const written = new Promise<void>((resolve) => (done = resolve));
  return { items: new Map(), written, done };
}

function isPendingDelivery(value: unknown): value is PendingDelivery {
  const d = value as PendingDelivery;
  return typeof d === 'object' && d !== null && typeof d.id === 'string' && typeof d.webhookId === 'string'
    && typeof d.event === 'string' && typeof d.rawBody === 'string'
    && Number.isInteger(d.attempts) && typeof d.nextAttemptAt === 'number';
}

/** A later attempt count (or, for the same count, a later schedule) is the newer version. */
function isNewer(a: PendingDelivery, b: PendingDelivery): boolean {
  return a.attempts > b.attempts || (a.attempts === b.attempts && a.nextAttemptAt > b.nextAttemptAt);
}

/**
 * Pending deliveries under `.kanban/.state/webhooks/pending/`, written by group commit: a save
 * starts a batch write at once when none is running; saves made while one runs go together into
 * the next. So a lone event costs one durable write and no waiting timer, and under load the
 * fsyncs do not multiply with the number of events or webhooks (each batch is one file).
 *
 * A file is deleted once none of the deliveries it holds is current any more (delivered, given up
 * on, or saved again in a newer file). Batches and removals are applied by one loop, in the order
 * asked, so a removal can never be overtaken by an older save.
 */
export class PendingStore {
  /** Saved since the running write (if any) took its batch. */
  private next = newBatch();
  /** Whether anyone waits on `next` (an emptied batch must still answer its savers). */
  private nextAsked = false;
  /** Settled deliveries whose files may now be deleted, applied after the running write. */
  private removals = new Set<string>();
  /** The file holding each delivery's latest written version. */
  private fileOf = new Map<string, string>();
  /** The ids whose latest version each file holds. */
  private holders = new Map<string, Set<string>>();
  /** The write loop while it runs. */
  private loop: Promise<void> | null = null;
  /** The shared wait of `flush` while it runs. */
  private flushing: Promise<void> | null = null;
  /** File deletions in flight; nothing waits on them but `flush`. */
  private deleting = new Set<Promise<void>>();
  private batchSeq = 0;
  private readonly runTag = Date.now().toString(36);
  private stateReady: Promise<void> | null = null;

  constructor(private readonly stateDir: string) {}

  get dir(): string {
    return path.join(this.stateDir, 'webhooks', 'pending');
  }

  async loadAll(): Promise<PendingDelivery[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const latest = new Map<string, { delivery: PendingDelivery; file: string }>();
    const readable: string[] = [];
    for (const name of names) {
      if (isTempFile(name)) {
        // Left by a crash mid-write; the complete file (if any) is beside it.
        await fs.rm(path.join(this.dir, name), { force: true });
        continue;
      }
      if (!SINGLE_FILE.test(name) && !BATCH_FILE.test(name)) continue;
      const deliveries = await this.readFile(name);
      if (!deliveries) continue;
      readable.push(name);
      for (const delivery of deliveries) {
        const known = latest.get(delivery.id);
        if (!known || isNewer(delivery, known.delivery)) latest.set(delivery.id, { delivery, file: name });
      }
    }
    for (const [id, { file }] of latest) this.attach(id, file);
    // Files whose every delivery has a newer version elsewhere are done with.
    for (const name of readable) if (!this.holders.has(name)) await this.removeFile(name);
    return [...latest.values()].map((entry) => entry.delivery);
  }

  /** Unreadable files are reported and left in place for a person to look at. */
  private async readFile(name: string): Promise<PendingDelivery[] | null> {
    const file = path.join(this.dir, name);
    let gone = false;
    const parsed: unknown = await fs.readFile(file, 'utf8').then(JSON.parse).catch((error: NodeJS.ErrnoException) => {
      gone = error.code === 'ENOENT';
      return null;
    });
    // Deleted since the listing (its deliveries were settled): nothing to report.
    if (gone) return null;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    const valid = list.every(isPendingDelivery) && (BATCH_FILE.test(name) || `${(parsed as PendingDelivery).id}.json` === name);
    if (valid) return list as PendingDelivery[];
    log.warn(`kanban: ignoring unreadable pending webhook delivery file ${file}`);
    return null;
  }

  /** Record a new or changed delivery; resolves once it is on disk (fsynced). */
  save(delivery: PendingDelivery): Promise<void> {
    this.next.items.set(delivery.id, { ...delivery });
    this.nextAsked = true;
    this.startLoop();
    return this.next.written;
  }

  /** Forget a settled delivery; resolves once every write and removal asked so far is done. */
  remove(id: string): Promise<void> {
    // Not written yet: it never needs to be.
    this.next.items.delete(id);
    this.removals.add(id);
    this.startLoop();
    return this.flush();
  }

  /**
   * Wait for every write and removal asked so far. Callers at the same time share one wait: a
   * webhook deleted with thousands of pending deliveries settles each one, and a wait per removal
   * would copy the set of deletions in flight thousands of times.
   */
  flush(): Promise<void> {
    this.flushing ??= this.drain();
    return this.flushing;
  }

  private async drain(): Promise<void> {
    // One step first, so that `flush` has recorded this wait before the `finally` below clears it.
    await Promise.resolve();
    try {
      while (this.loop || this.deleting.size > 0) {
        await this.loop;
        await Promise.all([...this.deleting]);
      }
    } finally {
      // In the same step as the last check: anything asked after it starts a new wait.
      this.flushing = null;
    }
  }

  private startLoop(): void {
    // A microtask later, so the deliveries of one event (one per webhook) share the first write.
    this.loop ??= Promise.resolve().then(() => this.runLoop());
  }

  private async runLoop(): Promise<void> {
    try {
      while (this.nextAsked || this.removals.size > 0) {
        this.applyRemovals();
        if (!this.nextAsked) continue;
        const batch = this.next;
        this.next = newBatch();
        this.nextAsked = false;
        await this.writeBatch(batch);
      }
    } finally {
      this.loop = null;
    }
  }

  private async writeBatch(batch: Batch): Promise<void> {
    try {
      if (batch.items.size === 0) return;
      await this.ensureDir();
      const name = `batch-${this.runTag}-${++this.batchSeq}.json`;
      const list = [...batch.items.values()];
      await writeFileAtomic(path.join(this.dir, name), JSON.stringify(list) + '\n');
      for (const delivery of list) for (const emptied of this.attach(delivery.id, name)) this.deleteFile(emptied);
    } catch (error) {
      // The queue keeps working from memory; only durability across a restart is at risk. The
      // savers are answered anyway: a full disk must not hold up the API (decisions.md: Delivery).
      log.error('kanban: could not persist pending webhook deliveries:', (error as Error).message);
    } finally {
      batch.done();
    }
  }

  private applyRemovals(): void {
    for (const id of this.removals) {
      const emptied = this.detach(id);
      if (emptied) this.deleteFile(emptied);
    }
    this.removals.clear();
  }

  /** Point `id` at `file`; answers the file it left if that one now holds nothing current. */
  private attach(id: string, file: string): string[] {
    const emptied = this.detach(id);
    this.fileOf.set(id, file);
    let ids = this.holders.get(file);
    if (!ids) this.holders.set(file, (ids = new Set()));
    ids.add(id);
    return emptied && emptied !== file ? [emptied] : [];
  }

  private detach(id: string): string | null {
    const file = this.fileOf.get(id);
    if (!file) return null;
    this.fileOf.delete(id);
    const ids = this.holders.get(file);
    ids?.delete(id);
    if (ids && ids.size > 0) return null;
    this.holders.delete(file);
    return file;
  }

  private removeFile(name: string): Promise<void> {
    return fs.rm(path.join(this.dir, name), { force: true });
  }

  /** Names are never reused, so a deletion cannot race a later write; it runs beside the loop. */
  private deleteFile(name: string): void {
    const deletion = this.removeFile(name).catch((error) => {
      log.error(`kanban: could not delete settled webhook deliveries ${name}:`, (error as Error).message);
    }).finally(() => this.deleting.delete(deletion));
    this.deleting.add(deletion);
  }

  private ensureDir(): Promise<void> {
    this.stateReady ??= ensureStateDir(this.stateDir)
      .then(() => fs.mkdir(this.dir, { recursive: true }))
      .then(() => undefined, (error) => {
        // Checked again by the next batch: the folder may be fixed (or the disk freed) by then.
        this.stateReady = null;
        throw error;
      });
    return this.stateReady;
  }
}
