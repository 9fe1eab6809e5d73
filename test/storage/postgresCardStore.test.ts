import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createPostgresTestDatabase, postgresPlugin, type PostgresTestDatabase } from './helpers/postgres';
import { describeDatabaseServer, startFailure } from './helpers/databaseServerSuite';

describeDatabaseServer({
  provider: 'postgres',
  product: 'PostgreSQL',
  defaults: ['127.0.0.1', 5432, 'postgres'],
  plugin: postgresPlugin,
  createDatabase: createPostgresTestDatabase,
  noTls: /the PostgreSQL server's TLS cannot be used/,
  watch: 'push',
});

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

  it('when the url is not a postgres URL, then start-up fails naming the url setting', async () => {
    const message = await startFailure({ provider: 'postgres', options: { url: 'mysql://127.0.0.1/kanban' } });
    assert.match(message, /must start with postgres:\/\/ or postgresql:\/\//);
    assert.match(message, /plugins\["card\.storage"\]\.options\.url/);
  });
});
