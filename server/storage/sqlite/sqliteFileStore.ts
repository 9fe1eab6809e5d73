import type { SqliteConnection } from './sqliteConnection';
import { openSqliteFile } from './sqliteDatabase';
import { ensureSqliteSchema, type SqlitePart } from './sqliteSchema';
import type { SqliteLocation } from './sqliteCardStore';

/** Open the SQLite file at `location` with the tables of `part`; closed again if that fails. */
export async function openSqliteWithSchema(location: SqliteLocation, part: SqlitePart): Promise<SqliteConnection> {
  const db = await openSqliteFile(location.absolutePath);
  try {
    ensureSqliteSchema(db, part);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** What the SQLite attachment and card-state stores share: one database file and how to name it. */
export abstract class SqliteFileStore {
  readonly provider = 'sqlite';
  readonly sqlitePath: string;
  readonly absolutePath: string;

  protected constructor(
    protected readonly db: SqliteConnection,
    location: SqliteLocation,
  ) {
    this.sqlitePath = location.sqlitePath;
    this.absolutePath = location.absolutePath;
  }

  describe(): Record<string, unknown> {
    return { sqlitePath: this.sqlitePath, file: this.absolutePath, driver: this.db.driver };
  }
}
