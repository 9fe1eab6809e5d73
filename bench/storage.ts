import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { labelDefinitions } from './dataset';

export const STORAGES = ['markdown', 'sqlite', 'mysql'] as const;
export type StorageKind = (typeof STORAGES)[number];

const MYSQL_CONNECTION = { host: '127.0.0.1', user: 'root', password: '' } as const;

/** The storage a bench run uses: what goes into `.kanban.json`, and what to clean up afterwards. */
export interface BenchStorage {
  kind: StorageKind;
  plugins: Record<string, unknown>;
  /** Removes anything the run left outside the workspace folder (the MySQL database). */
  dispose(): Promise<void>;
}

/**
 * Storage for several instances, each with its own workspace folder: the MySQL database, or one
 * SQLite file outside the folders that every instance opens with `shared: true`.
 */
export async function prepareSharedStorage(kind: 'mysql' | 'sqlite'): Promise<BenchStorage> {
  if (kind === 'mysql') return prepareStorage(kind);
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
  // A user creates the database before pointing the provider at it; so does the bench.
  await runMysql(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
  return {
    kind,
    plugins: { 'card.storage': { provider: 'mysql', options: { database, ...MYSQL_CONNECTION } } },
    dispose: () => dropMysqlDatabase(database),
  };
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
