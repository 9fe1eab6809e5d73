import { SqlCardStore } from '../sql/sqlCardStore';
import { SqliteDatabase, openSqliteFile } from './sqliteDatabase';
import { ensureSqliteSchema, type SqlitePart } from './sqliteSchema';

export const DEFAULT_SQLITE_PATH = '.kanban/kanban.db';

export interface SqliteLocation {
  /** As configured (`sqlitePath`), workspace-relative unless absolute. */
  sqlitePath: string;
  /** Resolved against the workspace root. */
  absolutePath: string;
}

/** `card.storage: sqlite`: cards and comments in one SQLite file, shared safely by several processes. */
export class SqliteCardStore extends SqlCardStore {
  readonly sqlitePath: string;
  readonly absolutePath: string;

  protected constructor(
    protected readonly sqlite: SqliteDatabase,
    location: SqliteLocation,
    pollIntervalMs: number,
  ) {
    super(sqlite, {
      provider: 'sqlite',
      label: `sqlite ${location.sqlitePath}`,
      pollIntervalMs,
      details: { sqlitePath: location.sqlitePath, file: location.absolutePath, driver: sqlite.db.driver },
    });
    this.sqlitePath = location.sqlitePath;
    this.absolutePath = location.absolutePath;
  }

  async countCards(): Promise<number> {
    const rows = await this.sqlite.all<{ n: number }>('SELECT COUNT(*) AS n FROM kanban_cards');
    return Number(rows[0]?.n ?? 0);
  }

  /** A consistent copy of the whole file, taken while it stays in use (before a migration overwrites it). */
  async backupTo(file: string): Promise<void> {
    await this.sqlite.db.backup(file);
  }

  static async open(location: SqliteLocation, pollIntervalMs: number): Promise<SqliteCardStore> {
    return new SqliteCardStore(await openWithParts(location, ['cards', 'claims']), location, pollIntervalMs);
  }
}

/** Open the file and create the parts' tables (closing it again when that fails). */
export async function openWithParts(location: SqliteLocation, parts: SqlitePart[]): Promise<SqliteDatabase> {
  const db = await openSqliteFile(location.absolutePath);
  try {
    for (const part of parts) ensureSqliteSchema(db, part);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteDatabase(db);
}
