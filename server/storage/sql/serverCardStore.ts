import type { InstanceInfo, SharedConfigStore, SharedEventStore } from '../cardStore';
import type { SharedWebhookStore } from '../webhookDeliveryStore';
import { InstanceRegistry } from './instanceRegistry';
import { SqlAttachmentStore } from './sqlAttachmentStore';
import { SqlCardStateStore } from './sqlCardStateStore';
import { SqlCardStore } from './sqlCardStore';
import type { SqlDatabase } from './sqlDatabase';
import { sharedEventStore } from './sqlEventLog';
import { SqlLogStore } from './sqlLogStore';
import { SqlSharedConfig } from './sqlSharedConfig';

/** Where a database server is, as both server providers are configured (never the password). */
export interface DatabaseServerSettings {
  database: string;
  host: string;
  port: number;
  user: string;
  /** false, true (verify the server certificate), or the driver's TLS options. */
  ssl: boolean | Record<string, unknown>;
}

/** Short, so a write fails fast (503) while the database is away instead of hanging the request. */
export const CONNECT_TIMEOUT_MS = 3000;

/** The driver's TLS options for the `ssl` setting, or none when TLS is off. */
export function tlsOptions(ssl: DatabaseServerSettings['ssl']): Record<string, unknown> | undefined {
  return ssl === false ? undefined : ssl === true ? { rejectUnauthorized: true } : ssl;
}

/** A pool that can be probed with a statement and ended (both drivers' pools can). */
interface ProbedPool {
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * A pool on the configured database, created first when it does not exist yet (schema on first
 * use). A pool that failed is ended here; the one answered is the caller's to end.
 */
export async function poolCreatingDatabase<P extends ProbedPool>(
  createPool: () => P,
  isMissingDatabase: (error: unknown) => boolean,
  createDatabase: () => Promise<void>,
): Promise<P> {
  const pool = createPool();
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (!isMissingDatabase(error)) throw error;
  }
  await createDatabase();
  return createPool();
}

/**
 * The cards of a database server (MySQL, PostgreSQL), and beside them everything the instances
 * pointed at the same database share: configuration, events, card state, webhook deliveries,
 * attachments, logs and the list of live instances. A provider adds only how to connect.
 */
export abstract class ServerCardStore<Webhooks extends SharedWebhookStore> extends SqlCardStore {
  protected readonly registry: InstanceRegistry;
  private readonly config: SqlSharedConfig;
  private readonly cardState: SqlCardStateStore;
  private readonly events: SharedEventStore;
  private readonly webhooks: Webhooks;
  private readonly attachments: SqlAttachmentStore;
  private readonly logs: SqlLogStore;

  /** `webhooks`: the provider's delivery store for this instance (its origin). */
  protected constructor(
    db: SqlDatabase & { dialect: 'mysql' | 'postgres' },
    settings: DatabaseServerSettings,
    pollIntervalMs: number,
    webhooks: (origin: string) => Webhooks,
  ) {
    super(db, {
      provider: db.dialect,
      label: `${db.dialect} ${settings.database}@${settings.host}:${settings.port}`,
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
    this.webhooks = webhooks(this.origin);
    this.attachments = new SqlAttachmentStore(db, db.dialect, {
      host: settings.host,
      port: settings.port,
      database: settings.database,
    });
    this.logs = new SqlLogStore(db);
  }

  sharedEvents(): SharedEventStore {
    return this.events;
  }

  sharedWebhooks(): Webhooks {
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
}
