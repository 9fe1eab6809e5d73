import type { InstanceInfo, SharedConfigStore, SharedEventStore } from '../cardStore';
import { log } from '../../core/log';
import { InstanceRegistry } from '../sql/instanceRegistry';
import { sharedEventStore } from '../sql/sqlEventLog';
import { SqlSharedConfig } from '../sql/sqlSharedConfig';
import { SqlCardStateStore } from '../sql/sqlCardStateStore';
import { SqliteCardStore, openWithParts, type SqliteLocation } from './sqliteCardStore';
import type { SqliteDatabase } from './sqliteDatabase';
import { SqliteWebhookStore } from './sqliteWebhookStore';

/**
 * `card.storage: sqlite` with `shared: true`: several server processes on one machine over one
 * file share everything MySQL instances share (sql/): the workspace configuration, the list of
 * live instances, the global event log (so every process's WebSocket clients follow one revision),
 * card state (the default `card.state`) and webhook deliveries with their leases, log and secrets. Only the
 * SQL layer differs (sqliteSchema.ts, part "shared"; sqliteWebhookStore.ts); the logic is MySQL's.
 */
export class SharedSqliteCardStore extends SqliteCardStore {
  private readonly registry: InstanceRegistry;
  private readonly config: SqlSharedConfig;
  private readonly events: SharedEventStore;
  private readonly webhooks: SqliteWebhookStore;
  private readonly cardState: SqlCardStateStore;

  private constructor(sqlite: SqliteDatabase, location: SqliteLocation, pollIntervalMs: number) {
    super(sqlite, location, pollIntervalMs);
    this.registry = new InstanceRegistry(sqlite, this.origin);
    this.config = new SqlSharedConfig(sqlite);
    this.events = sharedEventStore(sqlite, this.origin);
    this.webhooks = new SqliteWebhookStore(sqlite, this.origin);
    this.cardState = new SqlCardStateStore(sqlite, this.origin, pollIntervalMs, this.label);
  }

  sharedCardState(): SqlCardStateStore {
    return this.cardState;
  }

  sharedWebhooks(): SqliteWebhookStore {
    return this.webhooks;
  }

  sharedConfig(): SharedConfigStore {
    return this.config;
  }

  sharedEvents(): SharedEventStore {
    return this.events;
  }

  instances(): InstanceInfo[] {
    return this.registry.live();
  }

  describe(): Record<string, unknown> {
    return { ...super.describe(), shared: true };
  }

  async close(): Promise<void> {
    await this.registry.stop();
    await this.cardState.close();
    await super.close();
  }

  static async open(location: SqliteLocation, pollIntervalMs: number): Promise<SharedSqliteCardStore> {
    const sqlite = await openWithParts(location, ['cards', 'claims', 'shared', 'cardState']);
    if (sqlite.db.driver === 'wasm') {
      // The WebAssembly build keeps the file to itself (exclusive locking, wasmOwner.ts): sharing
      // still works, with this one process; say so rather than let a second server fail unexplained.
      log.warn(
        `kanban: ${location.sqlitePath} is shared (shared: true) but SQLite runs on its WebAssembly build here, which keeps the file to this process alone: other server processes cannot open it until this one closes. Install better-sqlite3 for several processes at once`,
      );
    }
    const store = new SharedSqliteCardStore(sqlite, location, pollIntervalMs);
    await store.registry.start();
    return store;
  }
}
