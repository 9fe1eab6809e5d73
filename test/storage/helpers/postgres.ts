import { randomBytes } from 'node:crypto';
import * as pg from 'pg';
import { numberedPlaceholders } from '../../../server/storage/postgres/postgresDatabase';

export const POSTGRES_HOST = '127.0.0.1';
export const POSTGRES_PORT = 5432;

const PREREQUISITE =
  `these tests need the PostgreSQL server on ${POSTGRES_HOST}:${POSTGRES_PORT} with user postgres and trust authentication; ` +
  'start it with: pg_ctlcluster 15 main start';

async function connect(database: string): Promise<pg.Client> {
  const client = new pg.Client({
    host: POSTGRES_HOST,
    port: POSTGRES_PORT,
    user: 'postgres',
    database,
    connectionTimeoutMillis: 5000,
  });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`${PREREQUISITE} (${(error as Error).message})`);
  }
  // A connection the test leaves open while the server restarts must not crash mocha.
  client.on('error', () => undefined);
  return client;
}

export interface PostgresTestDatabase {
  name: string;
  /** Run one statement against the test database (for checks the API cannot make); `?` placeholders as for MySQL. */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, uniquely named database on the local server; drop() removes it. Fails (never skips) when the server is down. */
export async function createPostgresTestDatabase(): Promise<PostgresTestDatabase> {
  const name = `kanban_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await connect('postgres');
  await admin.query(`CREATE DATABASE "${name}" ENCODING 'UTF8'`);
  const client = await connect(name);
  return {
    name,
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(numberedPlaceholders(sql), params)).rows as T[];
    },
    async drop() {
      await client.end().catch(() => undefined);
      // WITH (FORCE): a server under test that was killed may leave its connections behind for a moment.
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

export function postgresPlugin(database: string, extra: Record<string, unknown> = {}) {
  return {
    provider: 'postgres',
    options: { database, host: POSTGRES_HOST, port: POSTGRES_PORT, user: 'postgres', ...extra },
  };
}
