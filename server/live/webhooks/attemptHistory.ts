import type { Static } from '@sinclair/typebox';
import type { WebhookDeliverySchema } from '../../core/shapes/webhook';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../core/atomicFile';
import { ensureStateDir } from '../../storage/state/fileCardStateStore';
import { log } from '../../core/log';

export type AttemptStatus = AttemptRecord['status'];

/** One attempt (or a decision not to attempt) as `GET /webhooks/{id}/deliveries` shows it. */
export type AttemptRecord = Static<typeof WebhookDeliverySchema>;

export const HISTORY_LIMIT = 50;
/** Bursts of attempts are written together; the file is a diagnostic aid, not a ledger. */
const WRITE_DELAY_MS = 250;

/**
 * The last attempts per webhook, newest first, kept in memory and mirrored to
 * `.kanban/.state/webhooks/history.json` so the list survives a restart.
 */
export class AttemptHistory {
  private byWebhook = new Map<string, AttemptRecord[]>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly stateDir: string) {}

  get file(): string {
    return path.join(this.stateDir, 'webhooks', 'history.json');
  }

  async load(): Promise<void> {
    const text = await fs.readFile(this.file, 'utf8').catch(() => null);
    if (text === null) return;
    try {
      const parsed = JSON.parse(text) as Record<string, AttemptRecord[]>;
      for (const [id, records] of Object.entries(parsed)) {
        if (Array.isArray(records)) this.byWebhook.set(id, records.slice(0, HISTORY_LIMIT));
      }
    } catch {
      log.warn(`kanban: ${this.file} is not valid JSON; webhook delivery history starts empty`);
    }
  }

  list(webhookId: string): AttemptRecord[] {
    return [...(this.byWebhook.get(webhookId) ?? [])];
  }

  record(webhookId: string, entry: AttemptRecord): void {
    const records = this.byWebhook.get(webhookId) ?? [];
    records.unshift(entry);
    if (records.length > HISTORY_LIMIT) records.length = HISTORY_LIMIT;
    this.byWebhook.set(webhookId, records);
    this.scheduleWrite();
  }

  /** Drop the history of a webhook that no longer exists. */
  forget(webhookId: string): void {
    if (this.byWebhook.delete(webhookId)) this.scheduleWrite();
  }

  /** Write now whatever is waiting (on stop). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.startWrite();
    }
    await this.writing;
  }

  private scheduleWrite(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startWrite();
    }, WRITE_DELAY_MS);
    this.timer.unref();
  }

  private startWrite(): void {
    const snapshot = JSON.stringify(Object.fromEntries(this.byWebhook), null, 1) + '\n';
    this.writing = this.writing
      .then(async () => {
        await ensureStateDir(this.stateDir);
        await writeFileAtomic(this.file, snapshot);
      })
      .catch((error) => log.error('kanban: could not save webhook delivery history:', (error as Error).message));
  }
}
