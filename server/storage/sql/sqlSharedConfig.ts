import type { SharedConfigStore, SharedConfigVersion } from '../cardStore';
import type { ChangeSource } from '../changeSource';
import type { SqlDatabase } from './sqlDatabase';

const NAME = 'workspace';

/**
 * The workspace configuration every instance over one shared database (MySQL, or one SQLite file)
 * shares: one row holding the
 * document (JSON, as .kanban.json writes it) and a version that grows by one per write, so a write
 * based on an older version is refused instead of undoing another instance's change.
 */
export class SqlSharedConfig implements SharedConfigStore {
  constructor(private readonly db: SqlDatabase) {}

  get changes(): ChangeSource | undefined {
    return this.db.changes;
  }

  async read(): Promise<SharedConfigVersion | null> {
    const [row] = await this.db.all<{ body: string; version: number }>(
      'SELECT body, version FROM kanban_config WHERE name = ?',
      [NAME],
    );
    return row ? { text: row.body, version: Number(row.version) } : null;
  }

  async version(): Promise<number | null> {
    const [row] = await this.db.all<{ version: number }>('SELECT version FROM kanban_config WHERE name = ?', [NAME]);
    return row ? Number(row.version) : null;
  }

  async seed(text: string): Promise<SharedConfigVersion & { seeded: boolean }> {
    // Insert unless present: of several instances starting together over an empty database, one seeds.
    const insert = insertIgnoring(this.db, 'kanban_config (name, body, version) VALUES (?, ?, 1)');
    const seeded = await this.db.transaction(async (tx) => {
      const inserted = (await tx.run(insert, [NAME, text])) === 1;
      if (inserted) await this.db.announce?.(tx, 'config', 1);
      return inserted;
    });
    const stored = await this.read();
    if (!stored) throw new Error('the shared configuration row vanished right after it was written');
    return { ...stored, seeded };
  }

  async write(text: string, expected: number): Promise<number | null> {
    const changed = await this.db.transaction(async (tx) => {
      const rows = await tx.run(
        'UPDATE kanban_config SET body = ?, version = version + 1 WHERE name = ? AND version = ?',
        [text, NAME, expected],
      );
      if (rows === 1) await this.db.announce?.(tx, 'config', expected + 1);
      return rows;
    });
    return changed === 1 ? expected + 1 : null;
  }
}

/** `INSERT INTO <into>` that skips a row whose key is taken, in each dialect's words. */
export function insertIgnoring(db: SqlDatabase, into: string): string {
  switch (db.dialect) {
    case 'mysql':
      return `INSERT IGNORE INTO ${into}`;
    case 'sqlite':
      return `INSERT OR IGNORE INTO ${into}`;
    case 'postgres':
      return `INSERT INTO ${into} ON CONFLICT DO NOTHING`;
  }
}

/**
 * `insert` (one row) that, when the row's `key` is taken, overwrites `columns` with the values it
 * tried instead, in each dialect's words (SQLite's are PostgreSQL's).
 */
export function insertReplacing(db: SqlDatabase, insert: string, key: string, columns: string[]): string {
  return db.dialect === 'mysql'
    ? `${insert} ON DUPLICATE KEY UPDATE ${columns.map((c) => `${c} = VALUES(${c})`).join(', ')}`
    : `${insert} ON CONFLICT (${key}) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;
}
