import type * as MySql from 'mysql2/promise';
import { DatabaseOpenError, PooledSqlDatabase, SOCKET_UNREACHABLE, driverMissing } from '../sql/pooledSqlDatabase';
import type { PooledConnection, ServerErrorDialect, StatementResult } from '../sql/pooledSqlDatabase';
import type { SqlValue } from '../sql/sqlDatabase';

type Driver = typeof MySql;

/** Why MySQL could not be used; `setting` names the option a user should look at. */
export class MysqlOpenError extends DatabaseOpenError {}

/** mysql2 is required only when a MySQL provider is configured. */
export function loadMysqlDriver(): Driver {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('mysql2/promise') as Driver;
  } catch (error) {
    throw new MysqlOpenError(driverMissing('mysql2', error));
  }
}

/** Error codes that mean the server, not the statement, is the problem. */
const UNREACHABLE = new Set([
  ...SOCKET_UNREACHABLE,
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

const MYSQL_ERRORS: ServerErrorDialect = {
  product: 'MySQL',
  // InnoDB picks a victim when two writers wait on each other.
  retryable: new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']),
  duplicateKey: 'ER_DUP_ENTRY',
  isUnreachable,
};

/** mysql2 answers rows for a read and a header (affectedRows) for a write. */
function statementResult(answer: unknown): StatementResult {
  return Array.isArray(answer)
    ? { rows: answer, affectedRows: 0 }
    : { rows: [], affectedRows: (answer as MySql.ResultSetHeader).affectedRows };
}

/** A mysql2 pool behind the shared async SqlDatabase interface. */
export class MysqlDatabase extends PooledSqlDatabase {
  readonly dialect = 'mysql' as const;

  /** `where`: host:port, for the message a person reads when the server cannot be reached. */
  constructor(
    readonly pool: MySql.Pool,
    where = 'the configured host',
  ) {
    super(MYSQL_ERRORS, where);
  }

  protected async poolQuery(sql: string, params: SqlValue[]): Promise<StatementResult> {
    const [answer] = await this.pool.query(sql, params);
    return statementResult(answer);
  }

  protected async connect(): Promise<PooledConnection> {
    const connection = await this.pool.getConnection();
    return {
      query: async (sql, params) => statementResult((await connection.query(sql, params))[0]),
      begin: () => connection.beginTransaction(),
      commit: () => connection.commit(),
      rollback: () => connection.rollback(),
      // mysql2's pool drops a connection that died by itself; a failed rollback changes nothing here.
      release: () => connection.release(),
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
