import type * as Pg from 'pg';
import type { ChangeKind } from '../changeSource';
import { DatabaseOpenError, PooledSqlDatabase, SOCKET_UNREACHABLE, driverMissing } from '../sql/pooledSqlDatabase';
import type { PooledConnection, ServerErrorDialect, StatementResult } from '../sql/pooledSqlDatabase';
import type { SqlTransaction, SqlValue } from '../sql/sqlDatabase';
import { CHANGES_CHANNEL, notificationPayload, type PostgresNotifier } from './postgresNotifier';

type Driver = typeof Pg;

/** Why PostgreSQL could not be used; `setting` names the option a user should look at. */
export class PostgresOpenError extends DatabaseOpenError {}

/** pg is required only when a PostgreSQL provider is configured. */
export function loadPostgresDriver(): Driver {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('pg') as Driver;
  } catch (error) {
    throw new PostgresOpenError(driverMissing('pg', error));
  }
}

/** Socket errors, and the SQLSTATE classes of a server shutting down or refusing connections. */
const UNREACHABLE_CODES = new Set(SOCKET_UNREACHABLE);
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Whether a driver error says the database server is gone (down, restarting, network cut). */
export function isUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (e?.code !== undefined && (UNREACHABLE_CODES.has(e.code) || UNREACHABLE_STATES.has(e.code))) return true;
  // pg reports a connection that ended mid-query, or a connect that timed out, only in words.
  return /Connection terminated|connection timeout/i.test(e?.message ?? '');
}

function ignoreError(): void {}

/** How many statement texts keep their translated form (the stores use a few dozen). */
const TRANSLATED_KEEP = 500;
const translated = new Map<string, string>();

/**
 * The shared SQL text with `?` placeholders, as PostgreSQL's `$1..$n`. Question marks inside
 * quoted literals or identifiers stay as they are. Translated once per distinct text.
 */
export function numberedPlaceholders(sql: string): string {
  const known = translated.get(sql);
  if (known !== undefined) return known;
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else {
      out += ch === '?' ? `$${++n}` : ch;
    }
  }
  if (translated.size >= TRANSLATED_KEEP) translated.clear();
  translated.set(sql, out);
  return out;
}

const POSTGRES_ERRORS: ServerErrorDialect = {
  product: 'PostgreSQL',
  // The server gave up this transaction to let another one through (serialization failure, deadlock).
  retryable: new Set(['40001', '40P01']),
  duplicateKey: '23505',
  isUnreachable,
};

function statementResult(answer: Pg.QueryResult): StatementResult {
  return { rows: answer.rows, affectedRows: answer.rowCount ?? 0 };
}

/** A pg pool behind the shared async SqlDatabase interface; writers announce, `changes` pushes. */
export class PostgresDatabase extends PooledSqlDatabase {
  readonly dialect = 'postgres' as const;

  /**
   * `where`: host:port, for the message a person reads when the server cannot be reached.
   * `changes`: the listener of other instances' announcements (none: readers poll), stopped by close.
   */
  constructor(
    readonly pool: Pg.Pool,
    where = 'the configured host',
    readonly changes?: PostgresNotifier,
  ) {
    super(POSTGRES_ERRORS, where);
  }

  /** PostgreSQL sends a notification at commit, and never for a transaction rolled back. */
  async announce(tx: SqlTransaction, kind: ChangeKind, seq?: number): Promise<void> {
    await tx.all('SELECT pg_notify(?, ?)', this.notification(kind, seq));
  }

  /** The parameters of `pg_notify(?, ?)` telling the other instances that `kind` has news. */
  notification(kind: ChangeKind, seq?: number): [string, string] {
    return [CHANGES_CHANNEL, notificationPayload(kind, seq, this.changes?.sender ?? '')];
  }

  protected async poolQuery(sql: string, params: SqlValue[]): Promise<StatementResult> {
    return statementResult(await this.pool.query(numberedPlaceholders(sql), params));
  }

  protected async connect(): Promise<PooledConnection> {
    const client = await this.pool.connect();
    // The pool stops listening for errors of a client it hands out: a connection that dies between
    // two statements would emit an unhandled 'error' and end the process. The next statement fails instead.
    client.on('error', ignoreError);
    return {
      query: async (sql, params) => statementResult(await client.query(numberedPlaceholders(sql), params)),
      begin: async () => void (await client.query('BEGIN')),
      commit: async () => void (await client.query('COMMIT')),
      rollback: async () => void (await client.query('ROLLBACK')),
      release: (broken) => {
        client.removeListener('error', ignoreError);
        client.release(broken);
      },
    };
  }

  async close(): Promise<void> {
    await this.changes?.stop();
    await this.pool.end();
  }
}
