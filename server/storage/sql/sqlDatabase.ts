import type { ChangeKind, ChangeSource } from '../changeSource';

/** A parameter value both drivers bind the same way. */
export type SqlValue = string | number | null | Buffer;

/** Statements inside one open transaction. */
export interface SqlTransaction {
  /** Run a write; answers the number of rows it touched. */
  run(sql: string, params?: SqlValue[]): Promise<number>;
  all<T>(sql: string, params?: SqlValue[]): Promise<T[]>;
}

/**
 * The little the SQL stores need from a database: reads, all-or-nothing transactions and a way to
 * recognise a taken key. The SQLite, MySQL and PostgreSQL adapters implement it; the SQL text is
 * shared (all take `?` placeholders; the PostgreSQL adapter numbers them), only the schema and a
 * few clauses differ, each chosen by `dialect`.
 */
export interface SqlDatabase {
  readonly dialect: 'sqlite' | 'mysql' | 'postgres';
  all<T>(sql: string, params?: SqlValue[]): Promise<T[]>;
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  isDuplicateKey(error: unknown): boolean;
  close(): Promise<void>;
  /**
   * Tell other processes, when `tx` commits, that the log or table of `kind` has news (up to `seq`
   * when known). Only a database that can push (PostgreSQL) has it; the others' readers poll.
   */
  announce?(tx: SqlTransaction, kind: ChangeKind, seq?: number): Promise<void>;
  /** See ChangeSource: present exactly when `announce` is. */
  readonly changes?: ChangeSource;
}

/** A promise chain that runs tasks one at a time (one connection, one transaction at a time). */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
