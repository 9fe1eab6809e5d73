import { randomBytes } from 'node:crypto';
import * as mysql from 'mysql2/promise';

export const MYSQL_HOST = '127.0.0.1';
export const MYSQL_PORT = 3306;

const PREREQUISITE =
  `these tests need the MariaDB/MySQL server on ${MYSQL_HOST}:${MYSQL_PORT} with user root and an empty password; ` +
  'start it with: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd';

async function connect(): Promise<mysql.Connection> {
  try {
    return await mysql.createConnection({
      host: MYSQL_HOST,
      port: MYSQL_PORT,
      user: 'root',
      password: '',
      connectTimeout: 5000,
    });
  } catch (error) {
    throw new Error(`${PREREQUISITE} (${(error as Error).message})`);
  }
}

export interface TestDatabase {
  name: string;
  /** Run one statement against the test database (for checks the API cannot make). */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh, uniquely named database on the local server; drop() removes it. Fails (never skips) when the server is down. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `kanban_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await connect();
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  await admin.query(`USE \`${name}\``);
  return {
    name,
    async query<T>(sql: string, params: unknown[] = []) {
      const [rows] = await admin.query(sql, params);
      return rows as T[];
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

export function mysqlPlugin(database: string, extra: Record<string, unknown> = {}) {
  return {
    provider: 'mysql',
    options: { database, host: MYSQL_HOST, port: MYSQL_PORT, user: 'root', password: '', ...extra },
  };
}
