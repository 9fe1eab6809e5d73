import type { RunControl } from '../core/progress';
import { ValidationError } from '../core/errors';
import type { MigrateToMysqlBody, MigrateToPostgresBody } from '../core/shapes/requests/dataMoves';
import { environmentReference } from '../storage/providerOptions';
import { createCardStore } from '../storage/providers';
import { SqlCardStore } from '../storage/sql/sqlCardStore';
import { migrate, MigrationError, refuseUnknownSource, type MigrationResult } from './migration';
import { writeDatabaseTarget } from './migrationWriters';
import type { Workspace } from './workspace';

type DatabaseProvider = 'postgres' | 'mysql';

const NAMES: Record<DatabaseProvider, string> = { postgres: 'PostgreSQL', mysql: 'MySQL' };

/** POST /api/storage/migrate-to-postgres: the current store -> a PostgreSQL database, all or nothing. */
export function migrateToPostgres(
  ws: Workspace,
  body: MigrateToPostgresBody,
  run: RunControl = {},
): Promise<MigrationResult> {
  return migrateToDatabase(ws, 'postgres', body.options, run);
}

/** POST /api/storage/migrate-to-mysql: the current store -> a MySQL database, all or nothing. */
export function migrateToMysql(
  ws: Workspace,
  body: MigrateToMysqlBody,
  run: RunControl = {},
): Promise<MigrationResult> {
  return migrateToDatabase(ws, 'mysql', body.options, run);
}

/**
 * The options go to `.kanban.json` as given: a `${NAME}` password stays a reference, resolved only
 * where the store is opened. The database must hold no cards: other instances may already serve
 * it, and what they hold is not this migration's to replace.
 */
function migrateToDatabase(
  ws: Workspace,
  provider: DatabaseProvider,
  options: Record<string, unknown>,
  run: RunControl,
): Promise<MigrationResult> {
  const name = NAMES[provider];
  const plugin = { provider, options };
  refuseForeignEnvironment(options);
  return migrate(ws, run, async () => {
    if (ws.store.provider === provider)
      throw new ValidationError(`cards are already stored in ${name}; nothing to migrate`);
    refuseUnknownSource(ws, `migrate-to-${provider}`);
    return {
      action: `migrate-to-${provider}`,
      to: provider,
      targetName: `the ${name} database`,
      plugin,
      open: () => openEmptyDatabase(ws, plugin, name),
      write: (target, cards, report, signal) => writeDatabaseTarget(target, cards, report, signal),
      discard: async (target) => {
        await target?.close().catch(() => undefined);
      },
    };
  });
}

/** What a migration's options may read from the server's environment: variables named for it. */
const ENV_PREFIX = 'KANBAN_';

/**
 * A `${NAME}` option is read from the server's environment when the store opens, and a caller names
 * the host too: any variable would reach a database server of the caller's choosing. Only
 * variables meant for the board (`KANBAN_...`) may be named.
 */
function refuseForeignEnvironment(options: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(options)) {
    const name = environmentReference(value);
    if (name !== null && !name.startsWith(ENV_PREFIX))
      throw new ValidationError(
        `options.${key} names the environment variable ${name}; a migration may only read variables whose names start with ${ENV_PREFIX} (e.g. ${ENV_PREFIX}DB_PASSWORD)`,
      );
  }
}

async function openEmptyDatabase(
  ws: Workspace,
  plugin: { provider: DatabaseProvider; options: Record<string, unknown> },
  name: string,
): Promise<SqlCardStore> {
  const store = await createCardStore({
    root: ws.root,
    kanbanDir: ws.kanbanDir,
    plugins: { 'card.storage': plugin },
  });
  if (!(store instanceof SqlCardStore)) throw new Error(`card.storage ${plugin.provider} is not a database store`);
  const { cards, invalid } = await store.loadAll();
  const held = cards.length + invalid.length;
  if (held > 0) {
    await store.close().catch(() => undefined);
    throw new MigrationError(
      `the ${name} database ${store.label} already holds ${held} card(s); migrate into an empty database, or point this workspace at that one by editing card.storage in .kanban.json`,
    );
  }
  return store;
}
