import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin, type PostgresTestDatabase } from './helpers/postgres';

/** The card columns a version-1 database lacks. */
const ADDED = ['blocked_by', 'archived_at', 'version', 'deleted_from', 'links'];

describe('card tables written by an older service (schema version 1)', function () {
  this.timeout(60_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('when a version-1 SQLite file is opened, then its cards are kept, the new columns are added and new cards are stored', async () => {
    const config = configWith({ 'card.storage': { provider: 'sqlite', options: {} } });
    server = await startTestServer({ config });
    const old = await createTask(server, 'Written by version 1');
    const root = server.root;
    await server.running.close(); // the workspace stays for the second start
    server = undefined;

    const file = path.join(root, '.kanban', 'kanban.db');
    const db = new Database(file);
    for (const column of ADDED) db.exec(`ALTER TABLE kanban_cards DROP COLUMN ${column}`);
    db.prepare("UPDATE kanban_schema SET version = 1 WHERE part = 'cards'").run();
    db.close();

    server = await startTestServer({ root, config });
    assert.equal(okData(await server.api('GET', `/api/tasks/${old.id}`)).title, 'Written by version 1');
    // The old row got a version, so the checked write goes through.
    okData(await server.api('PUT', `/api/tasks/${old.id}`, { priority: 'high' }));
    const fresh = await createTask(server, 'Written by version 2');
    assert.equal(okData(await server.api('GET', `/api/tasks/${fresh.id}`)).title, 'Written by version 2');

    const check = new Database(file, { readonly: true });
    try {
      const columns = (check.prepare('PRAGMA table_info(kanban_cards)').all() as { name: string }[]).map((c) => c.name);
      for (const column of ADDED) assert.ok(columns.includes(column), `${column} in ${columns.join(', ')}`);
      assert.equal(
        (check.prepare("SELECT version FROM kanban_schema WHERE part = 'cards'").get() as { version: number }).version,
        5,
      );
    } finally {
      check.close();
    }
  });

  describe('over MySQL', () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await database.drop();
    });

    it('when version-1 tables are found, then their cards are kept, the new columns are added once and new cards are stored', async () => {
      const config = configWith({ 'card.storage': mysqlPlugin(database.name) });
      server = await startTestServer({ config });
      const old = await createTask(server, 'Written by version 1');
      await server.close();
      server = undefined;
      for (const column of ADDED) await database.query(`ALTER TABLE kanban_cards DROP COLUMN ${column}`);
      await database.query("UPDATE kanban_schema SET version = 1 WHERE part = 'cards'");

      // Two instances starting together race to upgrade; both must come up.
      const [first, second] = await Promise.all([startTestServer({ config }), startTestServer({ config })]);
      try {
        assert.equal(okData(await second.api('GET', `/api/tasks/${old.id}`)).title, 'Written by version 1');
        okData(await second.api('PUT', `/api/tasks/${old.id}`, { priority: 'high' }));
        const fresh = await createTask(first, 'Written by version 2');
        assert.equal(okData(await first.api('GET', `/api/tasks/${fresh.id}`)).title, 'Written by version 2');
      } finally {
        await first.close();
        await second.close();
      }
      const columns = await database.query(
        'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database.name, 'kanban_cards'],
      );
      for (const column of ADDED) assert.equal(columns.filter((c: any) => c.name === column).length, 1, column);
      const [row] = await database.query("SELECT version FROM kanban_schema WHERE part = 'cards'");
      assert.equal(Number(row.version), 6);
    });

    it('when version-4 tables are found, then the attachment and log tables are added and files and logs go to them', async () => {
      const config = configWith({ 'card.storage': mysqlPlugin(database.name) });
      await startOnVersion4(config, (sql) => database.query(sql));
      server = await startTestServer({ config });
      await assertFilesAndLogsInDatabase(server, (sql) => database.query(sql));
    });
  });

  describe('over PostgreSQL', () => {
    let database: PostgresTestDatabase;
    beforeEach(async () => {
      database = await createPostgresTestDatabase();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await database.drop();
    });

    it('when version-4 tables are found, then the attachment and log tables are added and files and logs go to them', async () => {
      const config = configWith({ 'card.storage': postgresPlugin(database.name) });
      await startOnVersion4(config, (sql) => database.query(sql));
      // Two instances starting together race to upgrade; both must come up.
      const [first, second] = await Promise.all([startTestServer({ config }), startTestServer({ config })]);
      await second.close();
      server = first;
      await assertFilesAndLogsInDatabase(server, (sql) => database.query(sql));
    });
  });
});

type Query = (sql: string) => Promise<any[]>;

/** A database as a version-4 service left it: its tables, without those of versions 5 and 6. */
async function startOnVersion4(config: unknown, query: Query): Promise<void> {
  const first = await startTestServer({ config });
  await first.close();
  for (const table of ['kanban_attachments', 'kanban_attachment_chunks', 'kanban_logs'])
    await query(`DROP TABLE ${table}`);
  await query('ALTER TABLE kanban_cards DROP COLUMN links');
  await query("UPDATE kanban_schema SET version = 4 WHERE part = 'cards'");
}

async function assertFilesAndLogsInDatabase(server: TestServer, query: Query): Promise<void> {
  const card = await createTask(server, 'After the upgrade');
  okData(
    await server.api('POST', `/api/tasks/${card.id}/attachments`, {
      files: [{ name: 'a.txt', data: Buffer.from('in the database').toString('base64') }],
    }),
  );
  okData(await server.api('POST', `/api/tasks/${card.id}/logs`, { text: 'logged' }), 201);
  assert.equal((await query('SELECT filename FROM kanban_attachments')).length, 1);
  assert.equal((await query('SELECT body FROM kanban_logs')).length, 1);
  // The links column came back with the upgrade: a sub-card is stored.
  const child = await createTask(server, { content: '# A sub-card\n', parent: card.id });
  assert.equal(okData(await server.api('GET', `/api/tasks/${child.id}`)).parent, card.id);
  const [row] = await query("SELECT version FROM kanban_schema WHERE part = 'cards'");
  assert.equal(Number(row.version), 6);
}
