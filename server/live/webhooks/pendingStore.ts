import * as fsCallbacks from 'node:fs';
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isTempFile } from '../../core/atomicFile';
import { ensureStateDir } from '../../storage/state/fileCardStateStore';
import { log } from '../../core/log';
import { batchLine, readLines, readSingle, type PendingDelivery } from './pendingLines';

export { rawBodyOf, type PendingDelivery } from './pendingLines';

/** Earlier releases wrote one delivery per file, then one batch per file; both are still read. */
const SINGLE_FILE = /^[0-9a-f-]{36}\.json$/;
const BATCH_FILE = /^batch-[0-9a-z]+-[0-9]+\.json$/;
const SEGMENT_FILE = /^segment-[0-9a-z]+-[0-9]+\.jsonl$/;
/**
 * A segment takes appended batches until it holds this many bytes; then the next batch opens a new
 * one. Small enough that a restart reads little that is settled, large enough that opening a file
 * is rare next to the appends.
 */
const SEGMENT_BYTES = 1 << 20;

/** The file batches are appended to now, kept open between them. */
interface Segment {
  name: string;
  /** Batches go through this descriptor; opened with `O_DSYNC` where the platform has it. */
  fd: number;
  /** Settled notes go through a second descriptor without `O_DSYNC`, opened at the first note. */
  notesFd: number | null;
  bytes: number;
}

/**
 * Appending, created exclusively (names are never reused, so a file of that name is someone
 * else's), and with `O_DSYNC`: each write returns once its data and the file size are on disk,
 * like a write then fdatasync, in one round trip to the thread pool instead of two.
 */
const SEGMENT_FLAGS =
  fsConstants.O_DSYNC === undefined
    ? null
    : fsConstants.O_WRONLY | fsConstants.O_APPEND | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_DSYNC;

/**
 * Append `text` through `fd`. The callback API, not a FileHandle: per batch it costs the main thread
 * about a third of the CPU of `FileHandle.write` (measured: 13-28 against 68-72 µs a line).
 */
function appendText(fd: number, text: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fsCallbacks.write(fd, text, null, 'utf8', (error, written) => {
      if (error) reject(error);
      else if (written !== bytes) reject(new Error(`short write: ${written} of ${bytes} bytes`));
      else resolve();
    }),
  );
}

function syncFile(fd: number, dataOnly: boolean): Promise<void> {
  return new Promise((resolve, reject) =>
    (dataOnly ? fsCallbacks.fdatasync : fsCallbacks.fsync)(fd, (error) => (error ? reject(error) : resolve())),
  );
}

function openFile(file: string, flags: number | string): Promise<number> {
  return new Promise((resolve, reject) =>
    fsCallbacks.open(file, flags, (error, fd) => (error ? reject(error) : resolve(fd))),
  );
}

function closeFile(fd: number | null): Promise<void> {
  return new Promise((resolve) => (fd === null ? resolve() : fsCallbacks.close(fd, () => resolve())));
}

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

/** A later attempt count (or, for the same count, a later schedule) is the newer version. */
function isNewer(a: PendingDelivery, b: PendingDelivery): boolean {
  return a.attempts > b.attempts || (a.attempts === b.attempts && a.nextAttemptAt > b.nextAttemptAt);
}

/**
 * Pending deliveries under `.kanban/.state/webhooks/pending/`, written by group commit: a save
 * starts a batch write at once when none is running; saves made while one runs go together into
 * the next. So a lone event costs one durable write and no waiting timer, and under load the
 * fsyncs do not multiply with the number of events or webhooks.
 *
 * Each batch is one line appended to an open segment file and made durable by the write itself
 * (`O_DSYNC`; fdatasync where the platform lacks it): about half the CPU and the wait of a new file
 * per batch (open, fsync, close, rename), which every acknowledged write with a webhook paid. The
 * line holds each event's body once for all its webhooks (`batchLine`). A crash mid-append leaves
 * a torn last line, whose savers were never answered, so reading skips it. Settled ids are
 * appended as a line of their own (not synced: losing one to a power cut only resends a settled
 * delivery, which at-least-once allows), so a restart does not resend what the rest of a segment
 * settled.
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
  /** The segment batches go to now; opened by the first batch after it is retired. */
  private segment: Segment | null = null;
  /** Ids settled since the last batch was written, to be noted in the next one. */
  private settledUnwritten: string[] = [];
  private readonly runTag = Date.now().toString(36);
  private stateReady: Promise<void> | null = null;

  constructor(private readonly stateDir: string) {}

  get dir(): string {
    return path.join(this.stateDir, 'webhooks', 'pending');
  }

  async loadAll(): Promise<PendingDelivery[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const latest = new Map<string, { delivery: PendingDelivery; file: string }>();
    const settled = new Set<string>();
    const readable: string[] = [];
    const idsIn = new Map<string, PendingDelivery[]>();
    for (const name of names) {
      if (isTempFile(name)) {
        // Left by a crash mid-write; the complete file (if any) is beside it.
        await fs.rm(path.join(this.dir, name), { force: true });
        continue;
      }
      if (!SINGLE_FILE.test(name) && !BATCH_FILE.test(name) && !SEGMENT_FILE.test(name)) continue;
      const content = await this.readFile(name);
      if (!content) continue;
      readable.push(name);
      idsIn.set(name, content.deliveries);
      for (const id of content.settled) settled.add(id);
      for (const delivery of content.deliveries) {
        const known = latest.get(delivery.id);
        if (!known || isNewer(delivery, known.delivery)) latest.set(delivery.id, { delivery, file: name });
      }
    }
    // A settled delivery is never saved again, so a note of it anywhere ends it everywhere.
    for (const id of settled) latest.delete(id);
    for (const [id, { file }] of latest) this.attach(id, file);
    // Files whose every delivery has a newer version elsewhere are done with.
    for (const name of readable) if (!this.holders.has(name)) await this.removeFile(name);
    // A kept file may still hold a settled delivery whose note was in a file just deleted: noted again.
    for (const name of readable) {
      if (!this.holders.has(name)) continue;
      for (const delivery of idsIn.get(name)!) if (settled.has(delivery.id)) this.settledUnwritten.push(delivery.id);
    }
    return [...latest.values()].map((entry) => entry.delivery);
  }

  /** Unreadable files are reported and left in place for a person to look at. */
  private async readFile(name: string): Promise<{ deliveries: PendingDelivery[]; settled: string[] } | null> {
    const file = path.join(this.dir, name);
    const text = await fs
      .readFile(file, 'utf8')
      .catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : ''));
    // Deleted since the listing (its deliveries were settled): nothing to report.
    if (text === null) return null;
    const content = SINGLE_FILE.test(name) ? readSingle(name, text) : readLines(text);
    if (content) return content;
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
        if (!this.nextAsked) {
          await this.noteSettled();
          continue;
        }
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
      const list = [...batch.items.values()];
      const segment = await this.openSegment();
      const settledLine =
        this.settledUnwritten.length > 0 ? JSON.stringify({ settled: this.settledUnwritten }) + '\n' : '';
      const data = settledLine + batchLine(list) + '\n';
      const bytes = Buffer.byteLength(data);
      try {
        await appendText(segment.fd, data, bytes);
        // A new file needs its name (and inode) too; later appends need only the data and size,
        // which an O_DSYNC write has already made durable.
        if (segment.bytes === 0) await syncFile(segment.fd, false);
        else if (SEGMENT_FLAGS === null) await syncFile(segment.fd, true);
      } catch (error) {
        // The file may end in a torn line now: later batches go to a new one.
        this.retireSegment(false);
        throw error;
      }
      this.settledUnwritten = [];
      segment.bytes += bytes;
      for (const delivery of list)
        for (const emptied of this.attach(delivery.id, segment.name)) this.deleteFile(emptied);
      if (segment.bytes >= SEGMENT_BYTES) this.retireSegment(!this.holders.has(segment.name));
    } catch (error) {
      // The queue keeps working from memory; only durability across a restart is at risk. The
      // savers are answered anyway: a full disk must not hold up the API.
      log.error('kanban: could not persist pending webhook deliveries:', (error as Error).message);
    } finally {
      batch.done();
    }
  }

  private async openSegment(): Promise<Segment> {
    if (this.segment) return this.segment;
    await this.ensureDir();
    const name = `segment-${this.runTag}-${++this.batchSeq}.jsonl`;
    const fd = await openFile(path.join(this.dir, name), SEGMENT_FLAGS ?? 'ax');
    this.segment = { name, fd, notesFd: null, bytes: 0 };
    return this.segment;
  }

  /** Stop appending to the current segment; delete it too when it holds nothing current. */
  private retireSegment(deleteIt: boolean): void {
    const segment = this.segment;
    if (!segment) return;
    this.segment = null;
    const closed = Promise.all([closeFile(segment.fd), closeFile(segment.notesFd)]);
    if (deleteIt) this.deleteFile(segment.name, closed);
    else this.track(closed);
  }

  /**
   * Append the settled ids to the open segment, without a sync: a crash of the process leaves them
   * in the page cache; losing them to a power cut only resends settled deliveries. With no segment
   * open they wait for the next batch.
   */
  private async noteSettled(): Promise<void> {
    const segment = this.segment;
    if (!segment || this.settledUnwritten.length === 0) return;
    const line = JSON.stringify({ settled: this.settledUnwritten }) + '\n';
    this.settledUnwritten = [];
    try {
      segment.notesFd ??= await openFile(path.join(this.dir, segment.name), 'a');
      const bytes = Buffer.byteLength(line);
      await appendText(segment.notesFd, line, bytes);
      segment.bytes += bytes;
    } catch (error) {
      log.error('kanban: could not note settled webhook deliveries:', (error as Error).message);
      if (this.segment === segment) this.retireSegment(false);
    }
  }

  /** Finish the writes asked so far and close the open segment: on stop. */
  async close(): Promise<void> {
    await this.flush();
    this.retireSegment(false);
    await this.flush();
  }

  private applyRemovals(): void {
    for (const id of this.removals) {
      // Only a delivery that was written needs its settling noted.
      if (!this.fileOf.has(id)) continue;
      // An older file may still hold an earlier version of it: noted, a restart does not resend it.
      this.settledUnwritten.push(id);
      const emptied = this.detach(id);
      if (emptied === this.segment?.name) this.retireSegment(true);
      else if (emptied) this.deleteFile(emptied);
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

  /**
   * Names are never reused, so a deletion cannot race a later write; it runs beside the loop, after
   * `closed` when the file was a segment still open.
   */
  private deleteFile(name: string, closed: Promise<unknown> = Promise.resolve()): void {
    this.track(
      closed
        .then(() => this.removeFile(name))
        .catch((error) => {
          log.error(`kanban: could not delete settled webhook deliveries ${name}:`, (error as Error).message);
        }),
    );
  }

  /** File work beside the loop that `flush` waits for. */
  private track(work: Promise<unknown>): void {
    const done: Promise<void> = work
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.deleting.delete(done));
    this.deleting.add(done);
  }

  private ensureDir(): Promise<void> {
    this.stateReady ??= ensureStateDir(this.stateDir)
      .then(() => fs.mkdir(this.dir, { recursive: true }))
      .then(
        () => undefined,
        (error) => {
          // Checked again by the next batch: the folder may be fixed (or the disk freed) by then.
          this.stateReady = null;
          throw error;
        },
      );
    return this.stateReady;
  }
}
