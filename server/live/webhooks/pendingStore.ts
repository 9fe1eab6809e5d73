import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isTempFile, writeFileAtomic } from '../../core/atomicFile';
import { ensureStateDir } from '../../storage/state/fileCardStateStore';

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
/**
 * Deliveries saved within this window share one file and one fsync. An event with three webhooks
 * would otherwise cost three durable writes, competing for the disk with the card writes of the
 * API. Enqueueing never waited for the write, so the crash window is not wider in kind.
 */
const GATHER_MS = 20;

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
 * Pending deliveries under `.kanban/.state/webhooks/pending/`, written in batches: each file holds
 * the deliveries saved within a few milliseconds. A file is deleted once none of the deliveries it
 * holds is current any more (delivered, given up on, or saved again in a newer file). Every write
 * and removal runs in one chain, so a removal can never be overtaken by an older save.
 */
export class PendingStore {
  /** Saved since the last batch was written. */
  private waiting = new Map<string, PendingDelivery>();
  /** The file holding each delivery's latest written version. */
  private fileOf = new Map<string, string>();
  /** The ids whose latest version each file holds. */
  private holders = new Map<string, Set<string>>();
  private work: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private written: (() => void) | null = null;
  private nextWrite: Promise<void> | null = null;
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
    const parsed: unknown = await fs.readFile(file, 'utf8').then(JSON.parse).catch(() => null);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    const valid = list.every(isPendingDelivery) && (BATCH_FILE.test(name) || `${(parsed as PendingDelivery).id}.json` === name);
    if (valid) return list as PendingDelivery[];
    console.warn(`kanban: ignoring unreadable pending webhook delivery file ${file}`);
    return null;
  }

  /** Record a new or changed delivery; resolves once it is on disk. */
  save(delivery: PendingDelivery): Promise<void> {
    this.waiting.set(delivery.id, { ...delivery });
    if (!this.nextWrite) {
      this.nextWrite = new Promise<void>((resolve) => (this.written = resolve));
      this.timer = setTimeout(() => this.startWrite(), GATHER_MS);
    }
    return this.nextWrite;
  }

  remove(id: string): Promise<void> {
    return this.enqueue(() => this.removeNow(id));
  }

  /** Write whatever waits now and wait for every write started so far. */
  async flush(): Promise<void> {
    if (this.timer) this.startWrite();
    await this.work;
  }

  private startWrite(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const done = this.written;
    this.written = null;
    this.nextWrite = null;
    void this.enqueue(() => this.writeBatch()).then(() => done?.());
  }

  private async writeBatch(): Promise<void> {
    if (this.waiting.size === 0) return;
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    await this.ensureDir();
    const name = `batch-${this.runTag}-${++this.batchSeq}.json`;
    await writeFileAtomic(path.join(this.dir, name), JSON.stringify(batch) + '\n');
    const emptied = batch.flatMap((delivery) => this.attach(delivery.id, name));
    for (const file of emptied) await this.removeFile(file);
  }

  private async removeNow(id: string): Promise<void> {
    // Not written yet: it never needs to be.
    this.waiting.delete(id);
    const emptied = this.detach(id);
    if (emptied) await this.removeFile(emptied);
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

  private ensureDir(): Promise<void> {
    this.stateReady ??= ensureStateDir(this.stateDir).then(() => fs.mkdir(this.dir, { recursive: true })).then(() => undefined);
    return this.stateReady;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.work.then(step).catch((error) => {
      // The queue keeps working from memory; only durability across a restart is at risk.
      console.error('kanban: could not persist pending webhook deliveries:', (error as Error).message);
    });
    this.work = next;
    return next;
  }
}
