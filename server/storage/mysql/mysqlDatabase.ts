import type * as MySql from 'mysql2/promise';
import type { SqlDatabase, SqlTransaction, SqlValue } from '../sql/sqlDatabase';

type Driver = typeof MySql;

/** Why MySQL could not be used; `setting` names the option a user should look at. */
export class MysqlOpenError extends Error {
  constructor(message: string, readonly setting?: string) {
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
    throw new MysqlOpenError(`the module mysql2 cannot be loaded (${(error as Error).message.split('\n')[0]}); install it with "npm install mysql2"`);
  }
}

/** A mysql2 pool behind the shared async SqlDatabase interface. */
export class MysqlDatabase implements SqlDatabase {
  readonly dialect = 'mysql' as const;

  constructor(readonly pool: MySql.Pool) {}

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    const [rows] = await this.pool.query(sql, params);
    return rows as T[];
  }

  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
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
