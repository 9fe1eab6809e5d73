/**
 * The part of a SQLite connection the providers use. better-sqlite3 (native) has exactly this shape;
 * the WebAssembly driver (wasmSqlite.ts) is adapted to it, so the stores never know which one runs.
 */
export type SqliteParam = string | number | bigint | boolean | null | Uint8Array;

export interface SqliteRunResult {
  changes: number;
}

export interface SqliteStatement {
  run(...params: SqliteParam[]): SqliteRunResult;
  all(...params: SqliteParam[]): unknown[];
  /** The first row, or undefined when there is none. */
  get(...params: SqliteParam[]): unknown;
  /** Rows as their first column's value instead of objects. */
  pluck(): SqliteStatement;
}

/** A synchronous transaction; `immediate` takes the write lock at BEGIN. */
export interface SqliteTransaction<T> {
  (): T;
  immediate(): T;
}

export interface SqliteConnection {
  /** Which driver runs it: `native` (better-sqlite3) or `wasm` (SQLite compiled to WebAssembly). */
  readonly driver: SqliteDriverName;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  pragma(source: string): unknown;
  transaction<T>(work: () => T): SqliteTransaction<T>;
  readonly inTransaction: boolean;
  /** False once closed. */
  readonly open: boolean;
  /** A consistent copy of the whole database in `file`, taken while it stays in use. */
  backup(file: string): Promise<unknown>;
  close(): void;
}

export type SqliteDriverName = 'native' | 'wasm';

/** Why the SQLite driver or file could not be used; the factory adds which setting it came from. */
export class SqliteOpenError extends Error {
  /** The cause's code (SQLITE_FULL, ENOSPC...), so a full disk is told apart from a broken file. */
  readonly code: unknown;

  constructor(message: string, cause?: unknown) {
    super(message);
    this.code = (cause as { code?: unknown } | null)?.code;
  }
}

export function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
