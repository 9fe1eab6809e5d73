import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';
import { describeDatabaseServer, startFailure } from './helpers/databaseServerSuite';

describeDatabaseServer({
  provider: 'mysql',
  product: 'MySQL',
  defaults: ['127.0.0.1', 3306, 'root'],
  plugin: mysqlPlugin,
  createDatabase: createTestDatabase,
  noTls: /the MySQL server does not offer TLS/,
  watch: 'poll',
});

describe('card.storage mysql: the database', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let server: TestServer | undefined;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await database.drop();
  });

  it('when the provider starts on an empty database, then it creates utf8mb4 tables keyed by card id and indexed by board and status', async () => {
    server = await startTestServer({ config: configWith({ 'card.storage': mysqlPlugin(database.name) }) });
    const card = await createTask(server, { content: '# Emoji 🚀 and ünïcode\n' });
    const tables = await database.query(
      'SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME',
      [database.name],
    );
    const cardTables = tables.filter((t: any) =>
      ['kanban_cards', 'kanban_comments', 'kanban_changes'].includes(t.name),
    );
    assert.equal(cardTables.length, 3);
    for (const table of cardTables) assert.match(table.collation, /^utf8mb4/);
    const keys = await database.query(
      "SELECT INDEX_NAME AS name, COLUMN_NAME AS col FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'kanban_cards'",
      [database.name],
    );
    assert.ok(keys.some((k: any) => k.name === 'PRIMARY' && k.col === 'id'));
    assert.ok(keys.some((k: any) => k.name === 'kanban_cards_board_status' && k.col === 'status'));
    const [row] = await database.query('SELECT content FROM kanban_cards WHERE id = ?', [card.id]);
    assert.equal(row.content, '# Emoji 🚀 and ünïcode\n');
  });

  it('when the database does not exist yet, then the provider creates it on first use', async () => {
    const name = `${database.name}_new`;
    try {
      server = await startTestServer({ config: configWith({ 'card.storage': mysqlPlugin(name) }) });
      await createTask(server, 'First card');
      const [row] = await database.query('SELECT COUNT(*) AS n FROM ??.kanban_cards', [name]);
      assert.equal(Number(row.n), 1);
    } finally {
      await server?.close();
      server = undefined;
      await database.query('DROP DATABASE IF EXISTS ??', [name]);
    }
  });

  it('when files are attached, then they live in the database, not in local files', async () => {
    server = await startTestServer({ config: configWith({ 'card.storage': mysqlPlugin(database.name) }) });
    const card = await createTask(server, 'Shared files');
    okData(
      await server.api('POST', `/api/tasks/${card.id}/attachments`, {
        files: [{ name: 'a.txt', data: Buffer.from('shared').toString('base64') }],
      }),
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).attachment.provider, 'mysql');
    const [row] = await database.query('SELECT size FROM kanban_attachments WHERE card_id = ?', [card.id]);
    assert.equal(Number(row.size), 'shared'.length);
    const folder = path.join(server.root, '.kanban', 'boards', 'default', 'attachments');
    await assert.rejects(fs.access(folder), 'no local attachment folder');
  });

  it('when attachment.storage localfs is set, then files stay on the local filesystem', async () => {
    server = await startTestServer({
      config: configWith({
        'card.storage': mysqlPlugin(database.name),
        'attachment.storage': { provider: 'localfs', options: {} },
      }),
    });
    const card = await createTask(server, 'Local files');
    okData(
      await server.api('POST', `/api/tasks/${card.id}/attachments`, {
        files: [{ name: 'a.txt', data: Buffer.from('local').toString('base64') }],
      }),
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).attachment.provider, 'localfs');
    const file = path.join(server.root, '.kanban', 'boards', 'default', 'attachments', card.id, 'a.txt');
    assert.equal(await fs.readFile(file, 'utf8'), 'local');
  });

  it('when the storage is described, then host and database are shown and the password never is', async () => {
    const plugin = mysqlPlugin(database.name);
    plugin.options.password = '${KANBAN_TEST_EMPTY_PASSWORD}';
    process.env.KANBAN_TEST_EMPTY_PASSWORD = '';
    try {
      server = await startTestServer({ config: configWith({ 'card.storage': plugin }) });
      const storage = okData(await server.api('GET', '/api/storage'));
      assert.equal(storage.card.database, database.name);
      assert.equal(storage.card.host, '127.0.0.1');
      assert.ok(!JSON.stringify(storage).includes('password'), JSON.stringify(storage));
    } finally {
      delete process.env.KANBAN_TEST_EMPTY_PASSWORD;
    }
  });
});

describe('card.storage mysql: start-up failures', function () {
  this.timeout(30_000);

  for (const [setting, value, cause] of [
    ['ssl', 'yes please', /must be true, false or an object of TLS options/],
    ['port', 'three', /must be a whole number from 1 to 65535/],
    ['host', 42, /must be a string/],
  ] as const) {
    it(`when ${setting} is ${JSON.stringify(value)}, then start-up fails naming that setting`, async () => {
      const message = await startFailure(mysqlPlugin('kanban_bad_option', { [setting]: value }));
      assert.match(message, cause);
      assert.match(message, new RegExp(`plugins\\["card\\.storage"\\]\\.options\\.${setting} in \\.kanban\\.json`));
    });
  }

  it('when the password names an unset environment variable, then start-up fails naming the variable', async () => {
    const message = await startFailure(mysqlPlugin('kanban_env', { password: '${KANBAN_TEST_UNSET_VARIABLE}' }));
    assert.match(message, /environment variable KANBAN_TEST_UNSET_VARIABLE is not set/);
    assert.match(message, /options\.password/);
  });
});
