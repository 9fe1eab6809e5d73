import type * as MySql from 'mysql2/promise';
import { MysqlDatabase, MysqlOpenError, loadMysqlDriver } from './mysqlDatabase';
import { errorCode } from '../sql/pooledSqlDatabase';
import { ensureMysqlSchema } from './mysqlSchema';
import { CONNECT_TIMEOUT_MS, ServerCardStore, poolCreatingDatabase, tlsOptions } from '../sql/serverCardStore';
import type { DatabaseServerSettings } from '../sql/serverCardStore';
import { MysqlWebhookStore } from './mysqlWebhookStore';

export interface MysqlSettings extends DatabaseServerSettings {
  password: string;
}

/** What a failed connection means for the user, and which setting to look at. */
function explain(error: unknown, settings: MysqlSettings): MysqlOpenError {
  const e = error as { code?: string; message?: string; sqlState?: string };
  const cause = e.message ?? String(error);
  // SQLSTATE 28000 is every flavour of "access denied" (MySQL and MariaDB use different codes).
  if (e.sqlState === '28000')
    return new MysqlOpenError(
      `the MySQL server refused user "${settings.user}"; check user and password (${cause})`,
      'user',
    );
  switch (e.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
      return new MysqlOpenError(
        `cannot reach the MySQL server at ${settings.host}:${settings.port} (${cause})`,
        'host',
      );
    case 'ER_DBACCESS_DENIED_ERROR':
      return new MysqlOpenError(
        `user "${settings.user}" may not use database "${settings.database}" (${cause})`,
        'database',
      );
    case 'HANDSHAKE_NO_SSL_SUPPORT':
      return new MysqlOpenError(`the MySQL server does not offer TLS (${cause})`, 'ssl');
    default:
      return new MysqlOpenError(
        `cannot use MySQL database "${settings.database}" at ${settings.host}:${settings.port} (${cause})`,
        'database',
      );
  }
}

function poolOptions(settings: MysqlSettings, withDatabase: boolean): MySql.PoolOptions {
  const ssl = tlsOptions(settings.ssl);
  return {
    host: settings.host,
    port: settings.port,
    user: settings.user,
    password: settings.password,
    ...(withDatabase ? { database: settings.database } : {}),
    ...(ssl ? { ssl } : {}),
    charset: 'UTF8MB4_BIN',
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionLimit: 8,
    waitForConnections: true,
  };
}

/** Create the database when it does not exist yet (schema on first use). */
async function createDatabase(driver: typeof MySql, settings: MysqlSettings): Promise<void> {
  const connection = await driver.createConnection(poolOptions(settings, false));
  try {
    await connection.query(
      `CREATE DATABASE IF NOT EXISTS ${connection.escapeId(settings.database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`,
    );
  } finally {
    await connection.end();
  }
}

/** `card.storage: mysql`: the cards of every server pointed at the same database are the same cards. */
export class MysqlCardStore extends ServerCardStore<MysqlWebhookStore> {
  private constructor(db: MysqlDatabase, settings: MysqlSettings, pollIntervalMs: number) {
    super(db, settings, pollIntervalMs, (origin) => new MysqlWebhookStore(db, origin));
  }

  static async open(settings: MysqlSettings, pollIntervalMs: number): Promise<MysqlCardStore> {
    const driver = loadMysqlDriver();
    let pool: MySql.Pool | undefined;
    try {
      pool = await poolCreatingDatabase(
        () => driver.createPool(poolOptions(settings, true)),
        (error) => errorCode(error) === 'ER_BAD_DB_ERROR',
        () => createDatabase(driver, settings),
      );
      const db = new MysqlDatabase(pool, `${settings.host}:${settings.port}`);
      await ensureMysqlSchema(db);
      const store = new MysqlCardStore(db, settings, pollIntervalMs);
      await store.registry.start();
      return store;
    } catch (error) {
      await pool?.end().catch(() => undefined);
      if (error instanceof MysqlOpenError) throw error;
      throw explain(error, settings);
    }
  }
}
