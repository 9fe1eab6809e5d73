import type * as Pg from 'pg';
import { ServiceUnavailableError } from '../../core/errors';
import type { ChangeKind } from '../changeSource';
import type { SqlDatabase, SqlTransaction, SqlValue } from '../sql/sqlDatabase';
import { CHANGES_CHANNEL, notificationPayload, type PostgresNotifier } from './postgresNotifier';

type Driver = typeof Pg;

/** Why PostgreSQL could not be used; `setting` names the option a user should look at. */
export class PostgresOpenError extends Error {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

/** Retried: the server gave up this transaction to let another one through (serialization failure, deadlock). */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 6;

/** pg is required only when a PostgreSQL provider is configured. */
export function loadPostgresDriver(): Driver {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('pg') as Driver;
  } catch (error) {
    throw new PostgresOpenError(
      `the module pg cannot be loaded (${(error as Error).message.split('\n')[0]}); install it with "npm install pg"`,
    );
  }
}

/** Socket errors, and the SQLSTATE classes of a server shutting down or refusing connections. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
]);
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

/** A pg pool behind the shared async SqlDatabase interface; writers announce, `changes` pushes. */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;

  /**
   * `where`: host:port, for the message a person reads when the server cannot be reached.
   * `changes`: the listener of other instances' announcements (none: readers poll), stopped by close.
   */
  constructor(
    readonly pool: Pg.Pool,
    private readonly where = 'the configured host',
    readonly changes?: PostgresNotifier,
  ) {}

  /** PostgreSQL sends a notification at commit, and never for a transaction rolled back. */
  async announce(tx: SqlTransaction, kind: ChangeKind, seq?: number): Promise<void> {
    await tx.all('SELECT pg_notify(?, ?)', this.notification(kind, seq));
  }

  /** The parameters of `pg_notify(?, ?)` telling the other instances that `kind` has news. */
  notification(kind: ChangeKind, seq?: number): [string, string] {
    return [CHANGES_CHANNEL, notificationPayload(kind, seq, this.changes?.sender ?? '')];
  }

  /** The driver's error, or a 503 saying the database is unreachable (the pool reconnects later). */
  private unavailable(error: unknown): unknown {
    if (!isUnreachable(error)) return error;
    const code = (error as { code?: string }).code ?? 'connection lost';
    return new ServiceUnavailableError(
      `the PostgreSQL database at ${this.where} cannot be reached (${code}); nothing was changed. The service reconnects by itself: try again when the database is back`,
    );
  }

  async all<T>(sql: string, params: SqlValue[] = []): Promise<T[]> {
    try {
      return (await this.pool.query(numberedPlaceholders(sql), params)).rows as T[];
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** One statement on its own (autocommit); answers the rows it touched. */
  async run(sql: string, params: SqlValue[] = []): Promise<number> {
    try {
      return (await this.pool.query(numberedPlaceholders(sql), params)).rowCount ?? 0;
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
      const client = await this.pool.connect();
      let broken: Error | undefined;
      // The pool stops listening for errors of a client it hands out: a connection that dies between
      // two statements would emit an unhandled 'error' and end the process. The next statement fails instead.
      client.on('error', ignoreError);
      try {
        await client.query('BEGIN');
        const tx: SqlTransaction = {
          run: async (sql, params = []) => (await client.query(numberedPlaceholders(sql), params)).rowCount ?? 0,
          all: async <R>(sql: string, params: SqlValue[] = []) =>
            (await client.query(numberedPlaceholders(sql), params)).rows as R[],
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A client whose ROLLBACK fails is in an unknown state: the pool must not hand it out again.
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        const code = (error as { code?: string }).code;
        if (!code || !RETRYABLE.has(code) || attempt >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
      } finally {
        client.removeListener('error', ignoreError);
        client.release(broken);
      }
    }
  }

  isDuplicateKey(error: unknown): boolean {
    return (error as { code?: string })?.code === '23505';
  }

  async close(): Promise<void> {
    await this.changes?.stop();
    await this.pool.end();
  }
}
