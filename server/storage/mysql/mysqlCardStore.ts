import type * as MySql from 'mysql2/promise';
import { SqlCardStore } from '../sql/sqlCardStore';
import { MysqlDatabase, MysqlOpenError, loadMysqlDriver } from './mysqlDatabase';
import { ensureMysqlSchema } from './mysqlSchema';
import { InstanceRegistry } from '../sql/instanceRegistry';
import type { InstanceInfo, SharedConfigStore, SharedEventStore } from '../cardStore';
import { sharedEventStore } from '../sql/sqlEventLog';
import { SqlSharedConfig } from '../sql/sqlSharedConfig';
import { SqlCardStateStore } from '../sql/sqlCardStateStore';
import { SqlAttachmentStore } from '../sql/sqlAttachmentStore';
import { SqlLogStore } from '../sql/sqlLogStore';
import { MysqlWebhookStore } from './mysqlWebhookStore';

export interface MysqlSettings {
  database: string;
  host: string;
  port: number;
  user: string;
  password: string;
  /** false, true (verify the server certificate), or mysql2 TLS options. */
  ssl: boolean | Record<string, unknown>;
}

/** Short, so a write fails fast (503) while the database is away instead of hanging the request. */
const CONNECT_TIMEOUT_MS = 3000;

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
  const ssl = settings.ssl === false ? undefined : settings.ssl === true ? { rejectUnauthorized: true } : settings.ssl;
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
export class MysqlCardStore extends SqlCardStore {
  private readonly registry: InstanceRegistry;
  private readonly config: SqlSharedConfig;
  private readonly cardState: SqlCardStateStore;
  private readonly events: SharedEventStore;
  private readonly webhooks: MysqlWebhookStore;
  private readonly attachments: SqlAttachmentStore;
  private readonly logs: SqlLogStore;

  private constructor(db: MysqlDatabase, settings: MysqlSettings, pollIntervalMs: number) {
    super(db, {
      provider: 'mysql',
      label: `mysql ${settings.database}@${settings.host}:${settings.port}`,
      pollIntervalMs,
      details: {
        host: settings.host,
        port: settings.port,
        database: settings.database,
        user: settings.user,
        ssl: settings.ssl !== false,
      },
    });
    this.registry = new InstanceRegistry(db, this.origin);
    this.config = new SqlSharedConfig(db);
    this.cardState = new SqlCardStateStore(db, this.origin, pollIntervalMs, this.label);
    this.events = sharedEventStore(db, this.origin);
    this.webhooks = new MysqlWebhookStore(db, this.origin);
    this.attachments = new SqlAttachmentStore(db, 'mysql', {
      host: settings.host,
      port: settings.port,
      database: settings.database,
    });
    this.logs = new SqlLogStore(db);
  }

  sharedEvents(): SharedEventStore {
    return this.events;
  }

  sharedWebhooks(): MysqlWebhookStore {
    return this.webhooks;
  }

  sharedAttachments(): SqlAttachmentStore {
    return this.attachments;
  }

  sharedLogs(): SqlLogStore {
    return this.logs;
  }

  sharedConfig(): SharedConfigStore {
    return this.config;
  }

  sharedCardState(): SqlCardStateStore {
    return this.cardState;
  }

  instances(): InstanceInfo[] {
    return this.registry.live();
  }

  async close(): Promise<void> {
    await this.registry.stop();
    await this.cardState.close();
    await super.close();
  }

  static async open(settings: MysqlSettings, pollIntervalMs: number): Promise<MysqlCardStore> {
    const driver = loadMysqlDriver();
    let pool = driver.createPool(poolOptions(settings, true));
    try {
      try {
        await pool.query('SELECT 1');
      } catch (error) {
        if ((error as { code?: string }).code !== 'ER_BAD_DB_ERROR') throw error;
        await pool.end();
        await createDatabase(driver, settings);
        pool = driver.createPool(poolOptions(settings, true));
      }
      const db = new MysqlDatabase(pool, `${settings.host}:${settings.port}`);
      await ensureMysqlSchema(db);
      const store = new MysqlCardStore(db, settings, pollIntervalMs);
      await store.registry.start();
      return store;
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof MysqlOpenError) throw error;
      throw explain(error, settings);
    }
  }
}
