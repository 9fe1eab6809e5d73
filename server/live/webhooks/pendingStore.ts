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

const DELIVERY_FILE = /^[0-9a-f-]{36}\.json$/;

function isPendingDelivery(value: unknown): value is PendingDelivery {
  const d = value as PendingDelivery;
  return typeof d === 'object' && d !== null && typeof d.id === 'string' && typeof d.webhookId === 'string'
    && typeof d.event === 'string' && typeof d.rawBody === 'string'
    && Number.isInteger(d.attempts) && typeof d.nextAttemptAt === 'number';
}

/**
 * One file per pending delivery under `.kanban/.state/webhooks/pending/`, so enqueueing writes one
 * small file rather than rewriting a growing queue. Writes for the same delivery are chained, so a
 * removal can never be overtaken by an older save.
 */
export class PendingStore {
  private chains = new Map<string, Promise<void>>();
  private stateReady: Promise<void> | null = null;

  constructor(private readonly stateDir: string) {}

  get dir(): string {
    return path.join(this.stateDir, 'webhooks', 'pending');
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  async loadAll(): Promise<PendingDelivery[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const loaded: PendingDelivery[] = [];
    for (const name of names) {
      if (isTempFile(name)) {
        // Left by a crash mid-write; the complete file (if any) is beside it.
        await fs.rm(path.join(this.dir, name), { force: true });
        continue;
      }
      if (!DELIVERY_FILE.test(name)) continue;
      const file = path.join(this.dir, name);
      const parsed = await fs.readFile(file, 'utf8').then(JSON.parse).catch(() => null);
      if (isPendingDelivery(parsed) && `${parsed.id}.json` === name) loaded.push(parsed);
      else console.warn(`kanban: ignoring unreadable pending webhook delivery ${file}`);
    }
    return loaded;
  }

  save(delivery: PendingDelivery): Promise<void> {
    const text = JSON.stringify(delivery) + '\n';
    return this.chain(delivery.id, async () => {
      await this.ensureDir();
      await writeFileAtomic(this.fileOf(delivery.id), text);
    });
  }

  remove(id: string): Promise<void> {
    return this.chain(id, () => fs.rm(this.fileOf(id), { force: true }));
  }

  /** Wait for every write started so far. */
  async flush(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }

  private ensureDir(): Promise<void> {
    this.stateReady ??= ensureStateDir(this.stateDir).then(() => fs.mkdir(this.dir, { recursive: true })).then(() => undefined);
    return this.stateReady;
  }

  private chain(id: string, write: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(id) ?? Promise.resolve();
    const next = previous.then(write).catch((error) => {
      // The queue keeps working from memory; only durability across a restart is at risk.
      console.error(`kanban: could not persist webhook delivery ${id}:`, (error as Error).message);
    });
    this.chains.set(id, next);
    void next.then(() => {
      if (this.chains.get(id) === next) this.chains.delete(id);
    });
    return next;
  }
}
