import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SerialQueue, type SqlDatabase, type SqlTransaction, type SqlValue } from '../sql/sqlDatabase';

/** How long a writer waits for another process's write lock before giving up. */
const BUSY_TIMEOUT_MS = 10_000;

type DriverConstructor = typeof BetterSqlite3;

/** Why the SQLite driver or file could not be used; the factory adds which setting it came from. */
export class SqliteOpenError extends Error {}

let driver: DriverConstructor | null = null;

/**
 * better-sqlite3 is a native module and an optional dependency: it is required only here, when a
 * SQLite provider is configured, so the default Markdown set-up never loads it.
 */
export function loadSqliteDriver(): DriverConstructor {
  if (driver) return driver;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    driver = require('better-sqlite3') as DriverConstructor;
  } catch (error) {
    throw new SqliteOpenError(
      `the native module better-sqlite3 cannot be loaded (${firstLine(error)}); install it with "npm install better-sqlite3" for this Node version`,
    );
  }
  return driver;
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/**
 * Switching a new file to WAL needs it to itself, and SQLite answers "database is locked" at once
 * instead of waiting when another process is doing the same (two servers starting over one new
 * file): try again until the busy timeout.
 */
async function switchToWal(db: BetterSqlite3.Database): Promise<void> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Open (creating when missing) a database file in WAL mode, safe for several processes. */
export async function openSqliteFile(file: string): Promise<BetterSqlite3.Database> {
  const Driver = loadSqliteDriver();
  await fs.mkdir(path.dirname(file), { recursive: true }).catch((error: Error) => {
    throw new SqliteOpenError(`cannot create the folder ${path.dirname(file)}: ${error.message}`);
  });
  let db: BetterSqlite3.Database;
  try {
    db = new Driver(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new SqliteOpenError(`cannot open ${file}: ${firstLine(error)}`);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    await switchToWal(db);
    // With WAL, NORMAL still never corrupts; a power cut can only lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
  } catch (error) {
    db.close();
    throw new SqliteOpenError(`cannot use ${file}: ${firstLine(error)}`);
  }
  return db;
}

/** better-sqlite3 behind the shared async SqlDatabase interface. */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  private statements = new Map<string, BetterSqlite3.Statement>();
  private queue = new SerialQueue();
  private closed = false;

  constructor(readonly db: BetterSqlite3.Database) {}

  private statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private runNow(sql: string, params: SqlValue[]): number {
    return this.statement(sql).run(...params).changes;
  }

  private allNow<T>(sql: string, params: SqlValue[]): T[] {
    return this.statement(sql).all(...params) as T[];
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    return this.allNow<T>(sql, params);
  }

  /**
   * BEGIN IMMEDIATE takes the write lock up front, so two processes never both read and then
   * fail to upgrade; the busy timeout makes the second one wait instead of failing.
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      const tx: SqlTransaction = {
        run: async (sql, params = []) => this.runNow(sql, params),
        all: async <R>(sql: string, params: SqlValue[] = []) => this.allNow<R>(sql, params),
      };
      this.db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(tx);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  isDuplicateKey(error: unknown): boolean {
    const code = (error as { code?: string })?.code;
    return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.run(async () => undefined);
    this.db.close();
  }
}
