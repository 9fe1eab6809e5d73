import type * as MySql from 'mysql2/promise';
import { ServiceUnavailableError } from '../../core/errors';
import type { SqlDatabase, SqlTransaction, SqlValue } from '../sql/sqlDatabase';

type Driver = typeof MySql;

/** Why MySQL could not be used; `setting` names the option a user should look at. */
export class MysqlOpenError extends Error {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

/** Retried, because InnoDB picks a victim when two writers wait on each other. */
const RETRYABLE = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const MAX_ATTEMPTS = 6;

/** mysql2 is required only when a MySQL provider is configured. */
export function loadMysqlDriver(): Driver {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('mysql2/promise') as Driver;
  } catch (error) {
    throw new MysqlOpenError(
      `the module mysql2 cannot be loaded (${(error as Error).message.split('\n')[0]}); install it with "npm install mysql2"`,
    );
  }
}

/** Error codes that mean the server, not the statement, is the problem. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
]);

/** Whether a driver error says the database server is gone (down, restarting, network cut). */
export function isUnreachable(error: unknown): boolean {
  const e = error as { code?: string; fatal?: boolean } | null;
  // mysql2 marks errors that end the connection itself as fatal, whatever their code.
  return (e?.code !== undefined && UNREACHABLE.has(e.code)) || e?.fatal === true;
}

/** A mysql2 pool behind the shared async SqlDatabase interface. */
export class MysqlDatabase implements SqlDatabase {
  readonly dialect = 'mysql' as const;

  /** `where`: host:port, for the message a person reads when the server cannot be reached. */
  constructor(
    readonly pool: MySql.Pool,
    private readonly where = 'the configured host',
  ) {}

  /** The driver's error, or a 503 saying the database is unreachable (the pool reconnects later). */
  private unavailable(error: unknown): unknown {
    if (!isUnreachable(error)) return error;
    const code = (error as { code?: string }).code ?? 'connection lost';
    return new ServiceUnavailableError(
      `the MySQL database at ${this.where} cannot be reached (${code}); nothing was changed. The service reconnects by itself: try again when the database is back`,
    );
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    try {
      const [rows] = await this.pool.query(sql, params);
      return rows as T[];
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
      const connection = await this.pool.getConnection();
      try {
        await connection.beginTransaction();
        const tx: SqlTransaction = {
          run: async (sql, params = []) => {
            const [result] = await connection.query(sql, params);
            return (result as MySql.ResultSetHeader).affectedRows;
          },
          all: async <R>(sql: string, params: SqlValue[] = []) => {
            const [rows] = await connection.query(sql, params);
            return rows as R[];
          },
        };
        const result = await work(tx);
        await connection.commit();
        return result;
      } catch (error) {
        await connection.rollback().catch(() => undefined);
        const code = (error as { code?: string }).code;
        if (!code || !RETRYABLE.has(code) || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
      } finally {
        connection.release();
      }
    }
  }

  isDuplicateKey(error: unknown): boolean {
    return (error as { code?: string })?.code === 'ER_DUP_ENTRY';
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
