import { ServiceUnavailableError } from '../../core/errors';
import type { SqlDatabase, SqlTransaction, SqlValue } from './sqlDatabase';

/** Why a database server could not be used; `setting` names the option a user should look at. */
export class DatabaseOpenError extends Error {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

/** The message of a driver module that is not installed, with the command that installs it. */
export function driverMissing(module: string, error: unknown): string {
  return `the module ${module} cannot be loaded (${(error as Error).message.split('\n')[0]}); install it with "npm install ${module}"`;
}

/** Socket errors: the server, not the statement, is the problem (both drivers report them so). */
export const SOCKET_UNREACHABLE: readonly string[] = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
];

/** What a statement answers, in the same words for every driver. */
export interface StatementResult {
  rows: unknown[];
  affectedRows: number;
}

/** One connection of the pool, lent for one transaction. */
export interface PooledConnection {
  query(sql: string, params: SqlValue[]): Promise<StatementResult>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** `broken`: the rollback failed, so the connection is in an unknown state and must not be lent again. */
  release(broken?: Error): void;
}

/** What tells one server's errors apart: the rest of a pooled database is the same for each. */
export interface ServerErrorDialect {
  /** The product's name in messages: `MySQL`, `PostgreSQL`. */
  product: string;
  /** Codes of a transaction the server gave up to let another through (deadlock): run it again. */
  retryable: ReadonlySet<string>;
  /** The code of a taken unique key. */
  duplicateKey: string;
  /** Whether a driver error says the server is gone (down, restarting, network cut). */
  isUnreachable(error: unknown): boolean;
}

const MAX_ATTEMPTS = 6;

/** The driver error's code, when it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * A database server's connection pool behind the shared async SqlDatabase interface: statements
 * outside a transaction run in autocommit, transactions that lost a deadlock are tried again, and
 * a server that cannot be reached answers 503 (the pool reconnects later by itself).
 */
export abstract class PooledSqlDatabase implements SqlDatabase {
  abstract readonly dialect: 'mysql' | 'postgres';

  /** `where`: host:port, for the message a person reads when the server cannot be reached. */
  protected constructor(
    private readonly errors: ServerErrorDialect,
    private readonly where: string,
  ) {}

  /** One statement on the pool, outside any transaction. */
  protected abstract poolQuery(sql: string, params: SqlValue[]): Promise<StatementResult>;
  protected abstract connect(): Promise<PooledConnection>;
  abstract close(): Promise<void>;

  /** The driver's error, or a 503 saying the database is unreachable. */
  private unavailable(error: unknown): unknown {
    if (!this.errors.isUnreachable(error)) return error;
    const code = errorCode(error) ?? 'connection lost';
    return new ServiceUnavailableError(
      `the ${this.errors.product} database at ${this.where} cannot be reached (${code}); nothing was changed. The service reconnects by itself: try again when the database is back`,
    );
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    try {
      return (await this.poolQuery(sql, params)).rows as T[];
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** One statement on its own (autocommit); answers the rows it touched. */
  async run(sql: string, params: SqlValue[] = []): Promise<number> {
    try {
      return (await this.poolQuery(sql, params)).affectedRows;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    try {
      return await this.transactionAttempts(work);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async transactionAttempts<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const connection = await this.connect();
      let broken: Error | undefined;
      try {
        await connection.begin();
        const tx: SqlTransaction = {
          run: async (sql, params = []) => (await connection.query(sql, params)).affectedRows,
          all: async <R>(sql: string, params: SqlValue[] = []) => (await connection.query(sql, params)).rows as R[],
        };
        const result = await work(tx);
        await connection.commit();
        return result;
      } catch (error) {
        await connection.rollback().catch((rollbackError: Error) => (broken = rollbackError));
        const code = errorCode(error);
        if (!code || !this.errors.retryable.has(code) || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
      } finally {
        connection.release(broken);
      }
    }
  }

  isDuplicateKey(error: unknown): boolean {
    return errorCode(error) === this.errors.duplicateKey;
  }
}
