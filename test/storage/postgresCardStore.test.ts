import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer } from '../../server/server';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createPostgresTestDatabase, postgresPlugin, type PostgresTestDatabase } from './helpers/postgres';

async function startFailure(plugin: unknown): Promise<string> {
  const root = await makeTempDir();
  try {
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith({ 'card.storage': plugin })));
    const running = await startServer({ root, port: 0, watch: false }).catch((error: Error) => error);
    if (!(running instanceof Error)) {
      await running.close();
      assert.fail('the server started');
    }
    return running.message;
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

describe('card.storage postgres: the database', function () {
  this.timeout(30_000);
  let database: PostgresTestDatabase;
  let server: TestServer | undefined;
  beforeEach(async () => {
    database = await createPostgresTestDatabase();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await database.drop();
  });

  it('when only database is set, then host, port and user default to a local server and TLS is off', async () => {
    server = await startTestServer({
      config: configWith({ 'card.storage': { provider: 'postgres', options: { database: database.name } } }),
    });
    const card = await createTask(server, 'Defaults');
    const { card: storage } = okData(await server.api('GET', '/api/storage'));
    assert.deepEqual([storage.host, storage.port, storage.user, storage.ssl], ['127.0.0.1', 5432, 'postgres', false]);
    const [row] = await database.query('SELECT id FROM kanban_cards WHERE id = ?', [card.id]);
    assert.equal(row.id, card.id);
  });

  it('when the url comes from the environment, then the storage names its database and never the password', async () => {
    process.env.KANBAN_TEST_DATABASE_URL = `postgres://postgres:not-needed@127.0.0.1:5432/${database.name}`;
    try {
      const plugin = { provider: 'postgres', options: { url: '${KANBAN_TEST_DATABASE_URL}' } };
      server = await startTestServer({ config: configWith({ 'card.storage': plugin }) });
      const storage = okData(await server.api('GET', '/api/storage'));
      assert.equal(storage.card.database, database.name);
      assert.ok(!JSON.stringify(storage).includes('not-needed'), JSON.stringify(storage));
    } finally {
      delete process.env.KANBAN_TEST_DATABASE_URL;
    }
  });
});

describe('card.storage postgres: start-up failures', function () {
  this.timeout(30_000);

  it('when the server cannot be reached, then start-up fails naming the provider, the host setting and the cause', async () => {
    const message = await startFailure(postgresPlugin('kanban_unreachable', { port: 1 }));
    assert.match(
      message,
      /card\.storage provider "postgres" cannot start: cannot reach the PostgreSQL server at 127\.0\.0\.1:1 \(.*ECONNREFUSED/,
    );
    assert.match(message, /plugins\["card\.storage"\]\.options\.host/);
  });

  it('when neither url nor database is given, then start-up fails naming the database setting', async () => {
    const message = await startFailure({ provider: 'postgres', options: { host: '127.0.0.1' } });
    assert.match(message, /card\.storage provider "postgres" cannot start: the option "database" is required/);
    assert.match(message, /plugins\["card\.storage"\]\.options\.database/);
  });

  it('when the user is refused, then start-up fails naming the user setting', async () => {
    const message = await startFailure(postgresPlugin('kanban_refused', { user: 'no_such_user_kanban' }));
    assert.match(message, /refused user "no_such_user_kanban"/);
    assert.match(message, /plugins\["card\.storage"\]\.options\.user/);
  });

  it('when ssl is true and the server offers no TLS, then start-up fails naming the ssl setting', async () => {
    // The PostgreSQL of these tests runs with ssl = off, so asking for TLS must fail, not fall back.
    const message = await startFailure(postgresPlugin('kanban_tls', { ssl: true }));
    assert.match(message, /card\.storage provider "postgres" cannot start: the PostgreSQL server's TLS cannot be used/);
    assert.match(message, /plugins\["card\.storage"\]\.options\.ssl/);
  });

  it('when the url is not a postgres URL, then start-up fails naming the url setting', async () => {
    const message = await startFailure({ provider: 'postgres', options: { url: 'mysql://127.0.0.1/kanban' } });
    assert.match(message, /must start with postgres:\/\/ or postgresql:\/\//);
    assert.match(message, /plugins\["card\.storage"\]\.options\.url/);
  });
});
