import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { numberedPlaceholders } from '../../server/storage/postgres/postgresDatabase';
import { createCardStore } from '../../server/storage/providers';
import type { PostgresCardStore } from '../../server/storage/postgres/postgresCardStore';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createPostgresTestDatabase, postgresPlugin, POSTGRES_HOST, POSTGRES_PORT } from './helpers/postgres';
import type { PostgresTestDatabase } from './helpers/postgres';

const roots: string[] = [];

async function open(plugin: { provider: string; options: Record<string, unknown> }): Promise<PostgresCardStore> {
  const root = await makeTempDir();
  roots.push(root);
  return (await createCardStore({
    root,
    kanbanDir: `${root}/.kanban`,
    plugins: { 'card.storage': plugin },
  })) as PostgresCardStore;
}

describe('the postgres provider: placeholders', () => {
  it('when shared SQL is numbered for PostgreSQL, then each ? outside quotes becomes $n in order', () => {
    assert.equal(
      numberedPlaceholders(`SELECT a FROM t WHERE b = ? AND c = '?' AND "d?" = ? LIMIT ?`),
      `SELECT a FROM t WHERE b = $1 AND c = '?' AND "d?" = $2 LIMIT $3`,
    );
  });
});

describe('the postgres provider: opening a database', function () {
  this.timeout(30_000);
  let database: PostgresTestDatabase;

  beforeEach(async () => {
    database = await createPostgresTestDatabase();
  });
  afterEach(async () => {
    await database?.drop();
    for (const root of roots.splice(0)) await fs.rm(root, { recursive: true, force: true });
  });

  it('when it is given a url instead of the parts, then it opens that database and names it without the password', async () => {
    const url = `postgres://postgres:unused-secret@${POSTGRES_HOST}:${POSTGRES_PORT}/${database.name}`;
    const store = await open({ provider: 'postgres', options: { url } });
    try {
      assert.equal(store.label, `postgres ${database.name}@${POSTGRES_HOST}:${POSTGRES_PORT}`);
      assert.doesNotMatch(JSON.stringify(store.describe()), /unused-secret/);
      const [row] = await database.query<{ version: number }>('SELECT version FROM kanban_schema WHERE part = ?', [
        'cards',
      ]);
      assert.equal(row.version, 6);
    } finally {
      await store.close();
    }
  });

  it('when the database was written by a newer schema, then it is refused with the version in the message', async () => {
    await (await open(postgresPlugin(database.name))).close();
    await database.query("UPDATE kanban_schema SET version = 99 WHERE part = 'cards'");
    await assert.rejects(
      open(postgresPlugin(database.name)),
      /card tables have schema version 99, newer than this service knows \(6\); update the service/,
    );
  });

  it('when both url and connection parts are given, then the setting is refused before connecting', async () => {
    await assert.rejects(
      open({ provider: 'postgres', options: { url: 'postgres://127.0.0.1/x', database: database.name } }),
      /give either url or the connection parts, not both/,
    );
  });

  it('when no server answers on the port, then the message names the server and the host setting', async () => {
    await assert.rejects(
      open(postgresPlugin(database.name, { port: 1 })),
      (error: Error) =>
        /cannot reach the PostgreSQL server at 127\.0\.0\.1:1/.test(error.message) && /host/.test(error.message),
    );
  });
});

describe('the postgres provider: what the status answers say', function () {
  this.timeout(30_000);
  let database: PostgresTestDatabase;
  let server: TestServer | undefined;

  before(async () => {
    database = await createPostgresTestDatabase();
    server = await startTestServer({ config: configWith({ 'card.storage': postgresPlugin(database.name) }) });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('when card state lives in the postgres database, then the card-state status names postgres as its backend', async () => {
    const status = okData(await server!.api('GET', '/api/card-state/status'));
    assert.equal(status.provider, 'postgres');
    assert.equal(status.backend, 'postgres');
  });
});
