import type { SharedEventStore } from '../cardStore';
import type { SqlDatabase } from './sqlDatabase';

/** One logged event: its global number, the instance that made the change, the event as JSON. */
export interface LoggedEvent {
  seq: number;
  origin: string;
  body: string;
}

/** The newest events kept; older ones are pruned, and a client further behind is told to re-fetch. */
export const EVENT_LOG_KEEP = 10_000;
/** Pruning runs on one append in this many (a DELETE per append would double the write cost). */
const PRUNE_EVERY = 200;

/**
 * `kanban_events`: the one ordered stream of changes of every instance sharing the database
 * (MySQL, or one SQLite file). A number is taken from the `kanban_event_seq` row inside the
 * appending transaction: the row lock (MySQL) or the file's write lock (SQLite's BEGIN IMMEDIATE)
 * makes appenders wait for each other, so numbers commit in increasing order and a rolled-back
 * append gives its number to the next one. A reader therefore never sees a later number before an
 * earlier one, and the numbers have no holes (unlike AUTO_INCREMENT).
 */
export class SqlEventLog {
  private appends = 0;

  constructor(private readonly db: SqlDatabase) {}

  async append(origin: string, body: string): Promise<number> {
    const prune = ++this.appends % PRUNE_EVERY === 0;
    return this.db.transaction(async (tx) => {
      await tx.run("UPDATE kanban_event_seq SET seq = seq + 1 WHERE name = 'events'");
      const rows = await tx.all<{ seq: number }>("SELECT seq FROM kanban_event_seq WHERE name = 'events'");
      const seq = Number(rows[0].seq);
      await tx.run('INSERT INTO kanban_events (seq, origin, body) VALUES (?, ?, ?)', [seq, origin, body]);
      await this.db.announce?.(tx, 'events', seq);
      if (prune) await tx.run('DELETE FROM kanban_events WHERE seq <= ?', [seq - EVENT_LOG_KEEP]);
      return seq;
    });
  }

  /** Events after `seq`, oldest first, up to `through` when given. */
  async after(seq: number, limit: number, through?: number): Promise<LoggedEvent[]> {
    const bound = through === undefined ? '' : ' AND seq <= ?';
    const params = through === undefined ? [seq, limit] : [seq, through, limit];
    const rows = await this.db.all<LoggedEvent>(
      `SELECT seq, origin, body FROM kanban_events WHERE seq > ?${bound} ORDER BY seq LIMIT ?`,
      params,
    );
    return rows.map((r) => ({ seq: Number(r.seq), origin: String(r.origin), body: String(r.body) }));
  }

  /** The last number handed out (0 for an empty log). */
  async head(): Promise<number> {
    const rows = await this.db.all<{ seq: number }>("SELECT seq FROM kanban_event_seq WHERE name = 'events'");
    return Number(rows[0]?.seq ?? 0);
  }

  /** The oldest number still in the log, or null when it is empty. */
  async oldest(): Promise<number | null> {
    const rows = await this.db.all<{ seq: number | null }>('SELECT MIN(seq) AS seq FROM kanban_events');
    return rows[0]?.seq === null || rows[0]?.seq === undefined ? null : Number(rows[0].seq);
  }
}

/** The log as a shared store's event store (see CardStore.sharedEvents), appending as `origin`. */
export function sharedEventStore(db: SqlDatabase, origin: string): SharedEventStore {
  const log = new SqlEventLog(db);
  return {
    origin,
    append: (from, body) => log.append(from, body),
    after: (seq, limit, through) => log.after(seq, limit, through),
    head: () => log.head(),
    oldest: () => log.oldest(),
    changes: db.changes,
  };
}
