import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SerialQueue, type SqlDatabase, type SqlTransaction, type SqlValue } from '../sql/sqlDatabase';
import { log } from '../../core/log';
import {
  SqliteOpenError,
  firstLine,
  type SqliteConnection,
  type SqliteDriverName,
  type SqliteStatement,
} from './sqliteConnection';
import { openWasmSqlite } from './wasmSqlite';
import { refuseWhileWasmOwns } from './wasmOwner';

export { SqliteOpenError } from './sqliteConnection';

/** How long a writer waits for another process's write lock before giving up. */
const BUSY_TIMEOUT_MS = 10_000;

type DriverConstructor = typeof BetterSqlite3;

let nativeDriver: DriverConstructor | null = null;
let nativeFailure: string | null = null;

/**
 * better-sqlite3 is a native module and an optional dependency: it is required only here, when a
 * SQLite provider is configured, so the default Markdown set-up never loads it. Null when it cannot
 * load (not installed, or built for another runtime, as inside VS Code).
 */
function loadNativeDriver(): DriverConstructor | null {
  if (nativeDriver || nativeFailure) return nativeDriver;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    nativeDriver = require('better-sqlite3') as DriverConstructor;
  } catch (error) {
    nativeFailure = firstLine(error);
  }
  return nativeDriver;
}

/**
 * Which driver opens SQLite files: `KANBAN_SQLITE_DRIVER=native|wasm` forces one; by default the
 * native one where it loads (the command line, the server) and WebAssembly elsewhere (VS Code).
 */
function chosenDriver(): SqliteDriverName | 'auto' {
  const wanted = process.env.KANBAN_SQLITE_DRIVER;
  return wanted === 'native' || wanted === 'wasm' ? wanted : 'auto';
}

let fallbackLogged = false;

/** Open (creating when missing) a database file in WAL mode, with whichever driver runs here. */
export async function openSqliteFile(file: string): Promise<SqliteConnection> {
  await fs.mkdir(path.dirname(file), { recursive: true }).catch((error: Error) => {
    throw new SqliteOpenError(`cannot create the folder ${path.dirname(file)}: ${error.message}`);
  });
  const choice = chosenDriver();
  const Native = choice === 'wasm' ? null : loadNativeDriver();
  if (Native) return openNative(Native, file);
  if (choice === 'native') {
    throw new SqliteOpenError(
      `the native module better-sqlite3 cannot be loaded (${nativeFailure}); install it with "npm install better-sqlite3" for this Node version`,
    );
  }
  if (choice === 'auto' && !fallbackLogged) {
    fallbackLogged = true;
    log.info(
      `kanban: SQLite runs on its WebAssembly build here (better-sqlite3 cannot load: ${nativeFailure}); one process at a time can open a database file`,
    );
  }
  try {
    return await openWasmSqlite(file);
  } catch (error) {
    // Name both causes when neither driver loads: the native one is what a user can install.
    if (choice === 'auto' && /neither SQLite driver/.test((error as Error).message)) {
      throw new SqliteOpenError(`${(error as Error).message}; the native better-sqlite3 failed with: ${nativeFailure}`);
    }
    throw error;
  }
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

/** The native driver, in WAL mode: safe for several processes at once. */
async function openNative(Driver: DriverConstructor, file: string): Promise<SqliteConnection> {
  await refuseWhileWasmOwns(file);
  let db: BetterSqlite3.Database;
  try {
    db = new Driver(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new SqliteOpenError(`cannot open ${file}: ${firstLine(error)}`, error);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    await switchToWal(db);
    // With WAL, NORMAL still never corrupts; a power cut can only lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
  } catch (error) {
    db.close();
    throw new SqliteOpenError(`cannot use ${file}: ${firstLine(error)}`, error);
  }
  // better-sqlite3 has the connection's shape already (sqliteConnection.ts was written from it).
  return Object.defineProperty(db, 'driver', { value: 'native' }) as unknown as SqliteConnection;
}

/** A SQLite connection (either driver) behind the shared async SqlDatabase interface. */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  private statements = new Map<string, SqliteStatement>();
  private queue = new SerialQueue();
  private closed = false;

  constructor(readonly db: SqliteConnection) {}

  private statement(sql: string): SqliteStatement {
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
