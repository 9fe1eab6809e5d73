import type * as Pg from 'pg';
import { PostgresDatabase, PostgresOpenError, loadPostgresDriver } from './postgresDatabase';
import { ensurePostgresSchema } from './postgresSchema';
import { CONNECT_TIMEOUT_MS, ServerCardStore, poolCreatingDatabase, tlsOptions } from '../sql/serverCardStore';
import type { DatabaseServerSettings } from '../sql/serverCardStore';
import { errorCode } from '../sql/pooledSqlDatabase';
import { PostgresWebhookStore } from './postgresWebhookStore';
import { LISTENER_APPLICATION_NAME, PostgresNotifier } from './postgresNotifier';

export interface PostgresSettings extends DatabaseServerSettings {
  /** A connection URL (postgres://user:password@host:port/database?sslmode=...), when given instead of the parts. */
  url?: string;
  password: string;
}
/** The database every server has, to connect to while the configured one is created. */
const MAINTENANCE_DATABASE = 'postgres';

/** What a failed connection means for the user, and which setting to look at. */
function explain(error: unknown, settings: PostgresSettings): PostgresOpenError {
  const e = error as { code?: string; message?: string };
  const cause = e.message ?? String(error);
  // pg says "The server does not support SSL connections", or the certificate check fails: no code to go by.
  if (settings.ssl !== false && /\bSSL\b|certificate/i.test(cause))
    return new PostgresOpenError(`the PostgreSQL server's TLS cannot be used (${cause})`, 'ssl');
  switch (e.code) {
    case '28P01':
    case '28000':
      return new PostgresOpenError(
        `the PostgreSQL server refused user "${settings.user}"; check user and password (${cause})`,
        settings.url ? 'url' : 'user',
      );
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return new PostgresOpenError(
        `cannot reach the PostgreSQL server at ${settings.host}:${settings.port} (${cause})`,
        settings.url ? 'url' : 'host',
      );
    case '42501':
      return new PostgresOpenError(
        `user "${settings.user}" may not create or use database "${settings.database}" (${cause})`,
        settings.url ? 'url' : 'database',
      );
    default:
      return new PostgresOpenError(
        `cannot use PostgreSQL database "${settings.database}" at ${settings.host}:${settings.port} (${cause})`,
        settings.url ? 'url' : 'database',
      );
  }
}

/**
 * pg hands BIGINT (and COUNT) back as strings, since they may exceed a JavaScript number. The
 * stores' BIGINTs are versions and sequence numbers, far below 2^53, so this pool reads them as
 * numbers; the driver's global parsers stay as they are for any other user of pg in the process.
 */
function numberParsingTypes(driver: typeof Pg): Pg.CustomTypesConfig {
  const getTypeParser = ((oid: number, format?: string) =>
    oid === driver.types.builtins.INT8
      ? (value: string) => Number(value)
      : driver.types.getTypeParser(oid, format as 'text')) as Pg.CustomTypesConfig['getTypeParser'];
  return { getTypeParser };
}

function poolOptions(driver: typeof Pg, settings: PostgresSettings, database: string): Pg.PoolConfig {
  const ssl = tlsOptions(settings.ssl);
  const where: Pg.PoolConfig = settings.url
    ? { connectionString: withDatabase(settings.url, database) }
    : {
        host: settings.host,
        port: settings.port,
        user: settings.user,
        // Empty means none given: pg then looks at PGPASSWORD and ~/.pgpass, as psql does.
        password: settings.password || undefined,
        database,
      };
  return {
    ...where,
    ...(ssl ? { ssl } : {}),
    types: numberParsingTypes(driver),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    max: 8,
  };
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** The connection that listens for other instances' changes: the pool's settings, named, kept alive. */
function listenerClient(driver: typeof Pg, settings: PostgresSettings): Pg.Client {
  const { max: _max, ...options } = poolOptions(driver, settings, settings.database);
  // Keepalive probes notice a connection cut without a word (a network gone), which idle LISTEN would not.
  return new driver.Client({ ...options, application_name: LISTENER_APPLICATION_NAME, keepAlive: true });
}

/** A pool whose idle connections may die with the server without taking the process along. */
function createPool(driver: typeof Pg, settings: PostgresSettings, database: string): Pg.Pool {
  const pool = new driver.Pool(poolOptions(driver, settings, database));
  // An idle client whose server went away: the pool drops it and the next query connects afresh.
  pool.on('error', () => undefined);
  return pool;
}

/** Create the database when it does not exist yet (schema on first use). */
async function createDatabase(driver: typeof Pg, settings: PostgresSettings): Promise<void> {
  const pool = createPool(driver, settings, MAINTENANCE_DATABASE);
  try {
    await pool.query(`CREATE DATABASE "${settings.database.replace(/"/g, '""')}" ENCODING 'UTF8'`);
  } catch (error) {
    // Another instance created it first (42P04, or the catalogue's unique index when both raced).
    const code = (error as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw error;
  } finally {
    await pool.end();
  }
}

/** `card.storage: postgres`: the cards of every server pointed at the same database are the same cards. */
export class PostgresCardStore extends ServerCardStore<PostgresWebhookStore> {
  private constructor(db: PostgresDatabase, settings: PostgresSettings, pollIntervalMs: number) {
    super(db, settings, pollIntervalMs, (origin) => new PostgresWebhookStore(db, origin));
  }

  static async open(settings: PostgresSettings, pollIntervalMs: number): Promise<PostgresCardStore> {
    const driver = loadPostgresDriver();
    let pool: Pg.Pool | undefined;
    let notifier: PostgresNotifier | null = null;
    try {
      pool = await poolCreatingDatabase(
        () => createPool(driver, settings, settings.database),
        // 3D000: the database does not exist.
        (error) => errorCode(error) === '3D000',
        () => createDatabase(driver, settings),
      );
      const where = `${settings.host}:${settings.port}`;
      notifier = new PostgresNotifier(() => listenerClient(driver, settings), `postgres ${where}`);
      const db = new PostgresDatabase(pool, where, notifier);
      await ensurePostgresSchema(db);
      await notifier.start();
      const store = new PostgresCardStore(db, settings, pollIntervalMs);
      await store.registry.start();
      return store;
    } catch (error) {
      await notifier?.stop();
      await pool?.end().catch(() => undefined);
      if (error instanceof PostgresOpenError) throw error;
      throw explain(error, settings);
    }
  }
}
