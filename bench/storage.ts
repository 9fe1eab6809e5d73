import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { labelDefinitions } from './dataset';

export const STORAGES = ['markdown', 'sqlite', 'mysql', 'postgres'] as const;
export type StorageKind = (typeof STORAGES)[number];
/** The storages several instances can share. */
export type SharedStorageKind = 'mysql' | 'sqlite' | 'postgres';

const MYSQL_CONNECTION = { host: '127.0.0.1', user: 'root', password: '' } as const;
const POSTGRES_CONNECTION = { host: '127.0.0.1', port: 5432, user: 'postgres' } as const;

/** The storage a bench run uses: what goes into `.kanban.json`, and what to clean up afterwards. */
export interface BenchStorage {
  kind: StorageKind;
  plugins: Record<string, unknown>;
  /** Removes anything the run left outside the workspace folder (the MySQL or PostgreSQL database). */
  dispose(): Promise<void>;
  /** The PostgreSQL database's committed and rolled-back transactions so far (postgres only). */
  transactions?(): Promise<number>;
}

/**
 * Storage for several instances, each with its own workspace folder: the MySQL database, or one
 * SQLite file outside the folders that every instance opens with `shared: true`.
 */
export async function prepareSharedStorage(kind: SharedStorageKind): Promise<BenchStorage> {
  if (kind !== 'sqlite') return prepareStorage(kind);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-bench-shared-'));
  return {
    kind,
    plugins: {
      'card.storage': { provider: 'sqlite', options: { sqlitePath: path.join(dir, 'team.db'), shared: true } },
    },
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

export async function prepareStorage(kind: StorageKind): Promise<BenchStorage> {
  if (kind === 'markdown') return { kind, plugins: {}, dispose: async () => {} };
  if (kind === 'sqlite') {
    return {
      kind,
      plugins: { 'card.storage': { provider: 'sqlite', options: { sqlitePath: '.kanban/kanban.db' } } },
      dispose: async () => {},
    };
  }
  const database = `kanban_bench_${randomBytes(4).toString('hex')}`;
  if (kind === 'postgres') return preparePostgres(database);
  // A user creates the database before pointing the provider at it; so does the bench.
  await runMysql(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
  return {
    kind,
    plugins: { 'card.storage': { provider: 'mysql', options: { database, ...MYSQL_CONNECTION } } },
    dispose: () => dropMysqlDatabase(database),
  };
}

async function preparePostgres(database: string): Promise<BenchStorage> {
  await runPostgres('postgres', `CREATE DATABASE "${database}" ENCODING 'UTF8'`);
  return {
    kind: 'postgres',
    plugins: { 'card.storage': { provider: 'postgres', options: { database, ...POSTGRES_CONNECTION } } },
    // FORCE: a server child stopped a moment ago may still hold a connection.
    dispose: async () => void (await runPostgres('postgres', `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)),
    transactions: async () => {
      const rows = await runPostgres(
        database,
        `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = '${database}'`,
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}

/** One statement on the local PostgreSQL, on a connection of its own. Names interpolated by callers are ours (hex only). */
async function runPostgres(database: string, sql: string): Promise<Record<string, unknown>[]> {
  // Loaded lazily so other runs never need the PostgreSQL client.
  const pg = await import('pg');
  const client = new pg.Client({ ...POSTGRES_CONNECTION, database });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `cannot reach PostgreSQL at ${POSTGRES_CONNECTION.host}:${POSTGRES_CONNECTION.port} as ${POSTGRES_CONNECTION.user}: ${(error as Error).message}`,
    );
  }
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

async function dropMysqlDatabase(database: string): Promise<void> {
  await runMysql(`DROP DATABASE IF EXISTS \`${database}\``);
}

/** One statement on the local MariaDB. Names interpolated by callers are ours (hex only). */
async function runMysql(sql: string): Promise<void> {
  // Loaded lazily so markdown runs never need the MySQL client.
  const mysql = await import('mysql2/promise');
  let connection;
  try {
    connection = await mysql.createConnection(MYSQL_CONNECTION);
  } catch (error) {
    throw new Error(
      `cannot reach MariaDB at ${MYSQL_CONNECTION.host}:3306 as ${MYSQL_CONNECTION.user}: ${(error as Error).message}`,
    );
  }
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/** `.kanban.json` for the bench workspace: label definitions with groups, the storage plugin, and `extra` (e.g. boards). */
export async function writeWorkspaceConfig(
  root: string,
  storage: BenchStorage,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const config = { version: 2, labels: labelDefinitions(), plugins: storage.plugins, ...extra };
  await fs.writeFile(path.join(root, '.kanban.json'), `${JSON.stringify(config, null, 2)}\n`);
}
