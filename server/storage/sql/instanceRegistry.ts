import * as os from 'node:os';
import { log } from '../../core/log';
import type { InstanceInfo } from '../cardStore';
import type { SqlDatabase } from './sqlDatabase';
import { insertReplacing } from './sqlSharedConfig';

/** How often an instance says it is alive, and how long after its last word it counts as gone. */
const HEARTBEAT_MS = 5000;
const GONE_AFTER_MS = 15_000;

interface InstanceRow {
  id: string;
  host: string;
  pid: number;
  started: string;
  last_seen: string;
}

/**
 * The service instances working over one shared database (MySQL, or one SQLite file): each
 * writes a heartbeat row and reads the others' on the same beat, so `GET /api/workspace` can list
 * who is live without a query per request. A row left by a crashed instance ages out; a clean stop deletes it.
 */
export class InstanceRegistry {
  private readonly self: InstanceInfo;
  private known: InstanceInfo[];
  private timer: NodeJS.Timeout | null = null;
  private failing = false;

  constructor(
    private readonly db: SqlDatabase,
    id: string,
  ) {
    const now = new Date().toISOString();
    this.self = { id, host: os.hostname(), pid: process.pid, started: now, lastSeen: now, self: true };
    this.known = [this.self];
  }

  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** The live instances as of the last beat, this one first. */
  live(): InstanceInfo[] {
    return this.known;
  }

  private async beat(): Promise<void> {
    const now = new Date();
    this.self.lastSeen = now.toISOString();
    try {
      const row = [this.self.id, this.self.host, this.self.pid, this.self.started, this.self.lastSeen];
      await this.db.transaction((tx) => tx.run(upsertInstance(this.db), row));
      const since = new Date(now.getTime() - GONE_AFTER_MS).toISOString();
      const rows = await this.db.all<InstanceRow>(
        'SELECT id, host, pid, started, last_seen FROM kanban_instances WHERE last_seen >= ? ORDER BY started, id',
        [since],
      );
      const others = rows
        .filter((r) => r.id !== this.self.id)
        .map((r) => ({
          id: r.id,
          host: r.host,
          pid: Number(r.pid),
          started: r.started,
          lastSeen: r.last_seen,
          self: false,
        }));
      this.known = [this.self, ...others];
      if (this.failing) log.warn('kanban: the instance heartbeat reaches the database again');
      this.failing = false;
    } catch (error) {
      if (!this.failing)
        log.warn(`kanban: the instance heartbeat cannot reach the database: ${(error as Error).message}`);
      this.failing = true;
      this.known = [this.self];
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.db
      .transaction((tx) => tx.run('DELETE FROM kanban_instances WHERE id = ?', [this.self.id]))
      .catch(() => undefined);
  }
}

/** Insert this instance's row, or refresh its heartbeat when it is there, in each dialect's words (PostgreSQL's are SQLite's). */
function upsertInstance(db: SqlDatabase): string {
  const insert = 'INSERT INTO kanban_instances (id, host, pid, started, last_seen) VALUES (?, ?, ?, ?, ?)';
  return insertReplacing(db, insert, 'id', ['last_seen']);
}
