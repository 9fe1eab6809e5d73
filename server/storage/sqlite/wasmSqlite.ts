import type {
  SqliteConnection,
  SqliteParam,
  SqliteRunResult,
  SqliteStatement,
  SqliteTransaction,
} from './sqliteConnection';
import { SqliteOpenError, firstLine } from './sqliteConnection';
import { refuseWhileOthersOwn, removeOwner, writeOwner } from './wasmOwner';

/**
 * SQLite compiled to WebAssembly (node-sqlite3-wasm), for where the native better-sqlite3 cannot
 * load: VS Code's extension host runs on Electron, whose module ABI no build in this package
 * matches. It reads and writes the same database file through Node's fs. It has no shared-memory
 * index, so it opens a file in exclusive locking mode (WAL then works from its own memory) and one
 * process has the file at a time; wasmOwner.ts keeps native processes away meanwhile.
 */
interface WasmStatement {
  run(values?: unknown): { changes: number };
  all(values?: unknown): Record<string, unknown>[];
  get(values?: unknown): Record<string, unknown> | null;
  finalize(): void;
}

interface WasmDatabase {
  exec(sql: string): void;
  all(sql: string, values?: unknown): Record<string, unknown>[];
  prepare(sql: string): WasmStatement;
  readonly inTransaction: boolean;
  close(): void;
}

type WasmDriver = new (file: string) => WasmDatabase;

let driver: WasmDriver | null = null;

function loadWasmDriver(): WasmDriver {
  if (driver) return driver;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    driver = (require('node-sqlite3-wasm') as { Database: WasmDriver }).Database;
  } catch (error) {
    throw new SqliteOpenError(
      `neither SQLite driver can be loaded: the WebAssembly one failed too (${firstLine(error)})`,
    );
  }
  return driver;
}

/** The driver's errors carry only a message; give them the codes better-sqlite3 uses. */
function withCode(error: unknown): unknown {
  if (!(error instanceof Error) || 'code' in error) return error;
  const code = /database is (locked|busy)/i.test(error.message)
    ? 'SQLITE_BUSY'
    : /UNIQUE constraint failed/i.test(error.message)
      ? 'SQLITE_CONSTRAINT_UNIQUE'
      : /constraint failed/i.test(error.message)
        ? 'SQLITE_CONSTRAINT'
        : 'SQLITE_ERROR';
  return Object.assign(error, { code });
}

function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw withCode(error);
  }
}

/** Blobs come back as Uint8Array; the stores expect Buffers, as better-sqlite3 gives. */
function asBuffers(row: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(row)) {
    const value = row[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value))
      row[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return row;
}

class Statement implements SqliteStatement {
  constructor(
    private readonly statement: WasmStatement,
    private readonly plucked = false,
  ) {}

  private shape(row: Record<string, unknown>): unknown {
    const converted = asBuffers(row);
    return this.plucked ? Object.values(converted)[0] : converted;
  }

  run(...params: SqliteParam[]): SqliteRunResult {
    return guarded(() => ({ changes: this.statement.run(params).changes }));
  }

  all(...params: SqliteParam[]): unknown[] {
    return guarded(() => this.statement.all(params).map((row) => this.shape(row)));
  }

  get(...params: SqliteParam[]): unknown {
    return guarded(() => {
      const row = this.statement.get(params);
      return row ? this.shape(row) : undefined;
    });
  }

  pluck(): SqliteStatement {
    return new Statement(this.statement, true);
  }
}

/** One connection per file and process, shared by the stores that use the file (see the header). */
class SharedConnection {
  users = 0;
  private statements = new Map<string, WasmStatement>();
  private savepoints = 0;

  constructor(
    readonly file: string,
    readonly db: WasmDatabase,
  ) {}

  /** Prepared once per SQL text: a WebAssembly statement is freed only by finalize. */
  prepare(sql: string): SqliteStatement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = guarded(() => this.db.prepare(sql));
      this.statements.set(sql, statement);
    }
    return new Statement(statement);
  }

  /** Nested calls become savepoints, as better-sqlite3 does. */
  transaction<T>(work: () => T, begin: string): T {
    const nested = this.db.inTransaction;
    const name = `nested_${++this.savepoints}`;
    guarded(() => this.db.exec(nested ? `SAVEPOINT ${name}` : begin));
    try {
      const result = work();
      guarded(() => this.db.exec(nested ? `RELEASE ${name}` : 'COMMIT'));
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : 'ROLLBACK');
      throw error;
    }
  }

  close(): void {
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
    this.db.close();
  }
}

/** Connections by file, as promises so that two stores opening one file at once share one. */
const open = new Map<string, Promise<SharedConnection>>();

async function connect(file: string): Promise<SharedConnection> {
  const Driver = loadWasmDriver();
  await refuseWhileOthersOwn(file);
  let db: WasmDatabase;
  try {
    db = new Driver(file);
  } catch (error) {
    throw new SqliteOpenError(`cannot open ${file}: ${firstLine(error)}`, error);
  }
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.all('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
    // Take the lock now rather than at the first write, so no native process starts in between.
    db.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (error) {
    db.close();
    throw new SqliteOpenError(`cannot use ${file}: ${firstLine(error)}`, error);
  }
  await writeOwner(file);
  return new SharedConnection(file, db);
}

export async function openWasmSqlite(file: string): Promise<SqliteConnection> {
  let pending = open.get(file);
  if (!pending) {
    pending = connect(file);
    open.set(file, pending);
    pending.catch(() => open.delete(file));
  }
  const shared = await pending;
  shared.users++;
  return handle(shared);
}

function handle(shared: SharedConnection): SqliteConnection {
  let closed = false;
  const transaction = <T>(work: () => T): SqliteTransaction<T> =>
    Object.assign(() => shared.transaction(work, 'BEGIN'), {
      immediate: () => shared.transaction(work, 'BEGIN IMMEDIATE'),
    });
  return {
    driver: 'wasm',
    prepare: (sql) => shared.prepare(sql),
    exec: (sql) => guarded(() => shared.db.exec(sql)),
    pragma: (source) => guarded(() => shared.db.all(`PRAGMA ${source}`)),
    transaction,
    get inTransaction() {
      return shared.db.inTransaction;
    },
    get open() {
      return !closed;
    },
    backup: async (target) => guarded(() => shared.db.all('VACUUM INTO ?', [target])),
    close: () => {
      if (closed) return;
      closed = true;
      if (--shared.users > 0) return;
      open.delete(shared.file);
      shared.close();
      removeOwner(shared.file);
    },
  };
}
