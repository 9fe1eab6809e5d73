import { log } from '../../core/log';
import type { LogEntry, LogOwner, LogStore } from '../logStore';
import type { SqlDatabase } from './sqlDatabase';
import { LOCKING_READ } from './sqlClaimStore';

/** The board's own log is stored under this card id, which no card has. */
const BOARD_LOG = '';

/**
 * Card and board logs in the card database (MySQL, PostgreSQL): one row per entry, in the order of
 * the table's growing sequence, so an entry appended through one instance is read through all.
 */
export class SqlLogStore implements LogStore {
  constructor(private readonly db: SqlDatabase) {}

  async append(owner: LogOwner, entry: LogEntry): Promise<void> {
    await this.db.transaction((tx) =>
      tx.run('INSERT INTO kanban_logs (board_id, card_id, body) VALUES (?, ?, ?)', [
        owner.boardId,
        owner.cardId ?? BOARD_LOG,
        JSON.stringify(entry),
      ]),
    );
  }

  async read(owner: LogOwner): Promise<LogEntry[]> {
    const rows = await this.db.all<{ body: string }>(
      'SELECT body FROM kanban_logs WHERE board_id = ? AND card_id = ? ORDER BY seq',
      [owner.boardId, owner.cardId ?? BOARD_LOG],
    );
    const entries: LogEntry[] = [];
    for (const row of rows) {
      try {
        entries.push(JSON.parse(row.body));
      } catch {
        log.warn(`kanban: skipped an unreadable log entry of ${owner.boardId}/${owner.cardId ?? '(board)'}`);
      }
    }
    return entries;
  }

  async clear(owner: LogOwner): Promise<void> {
    await this.db.transaction((tx) =>
      tx.run('DELETE FROM kanban_logs WHERE board_id = ? AND card_id = ?', [owner.boardId, owner.cardId ?? BOARD_LOG]),
    );
  }

  /**
   * Under the lock of the schema row (which every instance's adoption takes, so two never
   * interleave), the log is rewritten as `entries` then what it held, in one transaction: the older
   * entries come first, as they were read before. Entries it already holds are not added again.
   */
  async adoptOlder(owner: LogOwner, entries: LogEntry[]): Promise<void> {
    const key = [owner.boardId, owner.cardId ?? BOARD_LOG];
    const older = entries.map((entry) => JSON.stringify(entry));
    await this.db.transaction(async (tx) => {
      await tx.all(`SELECT version FROM kanban_schema WHERE part = ?${LOCKING_READ[this.db.dialect]}`, ['cards']);
      const held = (
        await tx.all<{ body: string }>(
          'SELECT body FROM kanban_logs WHERE board_id = ? AND card_id = ? ORDER BY seq',
          key,
        )
      ).map((row) => row.body);
      if (holdsAll(held, older)) return;
      await tx.run('DELETE FROM kanban_logs WHERE board_id = ? AND card_id = ?', key);
      for (const body of [...older, ...held])
        await tx.run('INSERT INTO kanban_logs (board_id, card_id, body) VALUES (?, ?, ?)', [...key, body]);
    });
  }

  async move(from: LogOwner, to: LogOwner): Promise<void> {
    await this.db.transaction((tx) =>
      tx.run('UPDATE kanban_logs SET board_id = ?, card_id = ? WHERE board_id = ? AND card_id = ?', [
        to.boardId,
        to.cardId ?? BOARD_LOG,
        from.boardId,
        from.cardId ?? BOARD_LOG,
      ]),
    );
  }
}

/** Whether `held` contains every one of `wanted`, each as many times as it appears there. */
function holdsAll(held: string[], wanted: string[]): boolean {
  const counts = new Map<string, number>();
  for (const body of held) counts.set(body, (counts.get(body) ?? 0) + 1);
  for (const body of wanted) {
    const left = counts.get(body) ?? 0;
    if (left === 0) return false;
    counts.set(body, left - 1);
  }
  return true;
}
