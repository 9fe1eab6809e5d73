import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startServer } from '../../server/server';
import { makeTempDir, startTestServer, listFiles, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { lastJson, runFixture } from './helpers/child';

const sqliteConfig = (options: Record<string, unknown> = {}) =>
  configWith({ 'card.storage': { provider: 'sqlite', options } });

describe('card.storage sqlite: the database file', function () {
  this.timeout(30_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('when no sqlitePath is set, then cards go to .kanban/kanban.db in WAL mode and no card file is written', async () => {
    server = await startTestServer({ config: sqliteConfig() });
    const card = await createTask(server, 'In the database');
    const file = path.join(server.root, '.kanban', 'kanban.db');
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      const row = db.prepare('SELECT board_id, status FROM kanban_cards WHERE id = ?').get(card.id);
      assert.deepEqual(row, { board_id: 'default', status: 'backlog' });
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'kanban_cards'")
        .all();
      assert.ok(
        indexes.some((i: any) => i.name === 'kanban_cards_board_status'),
        'cards are indexed by board and status',
      );
    } finally {
      db.close();
    }
    const cardFiles = (await listFiles(path.join(server.root, '.kanban'))).filter((f) => f.endsWith('.md'));
    assert.deepEqual(cardFiles, []);
    const storage = okData(await server.api('GET', '/api/storage'));
    assert.equal(storage.card.sqlitePath, '.kanban/kanban.db');
    assert.equal(storage.card.file, file);
  });

  it('when sqlitePath names another file, then that file holds the cards', async () => {
    server = await startTestServer({ config: sqliteConfig({ sqlitePath: 'data/cards.sqlite' }) });
    const card = await createTask(server, 'Elsewhere');
    const db = new Database(path.join(server.root, 'data', 'cards.sqlite'), { readonly: true });
    try {
      assert.equal((db.prepare('SELECT COUNT(*) AS n FROM kanban_cards WHERE id = ?').get(card.id) as any).n, 1);
    } finally {
      db.close();
    }
  });

  it('when the older storage/config layout names sqlite, then it is used', async () => {
    const config = {
      ...configWith({}),
      storage: { 'card.storage': { provider: 'sqlite', config: { sqlitePath: 'legacy.db' } } },
    };
    server = await startTestServer({ config });
    await createTask(server, 'Legacy layout');
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'sqlite');
    await fs.access(path.join(server.root, 'legacy.db'));
  });

  it('when a comment is stored, then it is a row of its own, not part of the card row', async () => {
    server = await startTestServer({ config: sqliteConfig() });
    const card = await createTask(server, 'Comment rows');
    okData(await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'ana', content: 'hello' }), 201);
    const db = new Database(path.join(server.root, '.kanban', 'kanban.db'), { readonly: true });
    try {
      assert.deepEqual(db.prepare('SELECT card_id, author, content FROM kanban_comments').all(), [
        { card_id: card.id, author: 'ana', content: 'hello' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('card.storage sqlite: start-up failures', function () {
  this.timeout(30_000);

  it('when sqlitePath is a folder, then start-up fails naming the provider, the setting and the cause', async () => {
    const root = await makeTempDir();
    await fs.mkdir(path.join(root, 'adir'));
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(sqliteConfig({ sqlitePath: 'adir' })));
    await assert.rejects(startServer({ root, port: 0, watch: false }), (error: Error) => {
      assert.match(error.message, /card\.storage provider "sqlite"/);
      assert.match(error.message, /plugins\["card\.storage"\]\.options\.sqlitePath/);
      assert.match(error.message, /cannot open/);
      return true;
    });
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when sqlitePath is a file that is not a database, then start-up fails and the file is untouched', async () => {
    const root = await makeTempDir();
    await fs.writeFile(path.join(root, 'notes.db'), 'just some text, not SQLite\n'.repeat(100));
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(sqliteConfig({ sqlitePath: 'notes.db' })));
    await assert.rejects(
      startServer({ root, port: 0, watch: false }),
      /card\.storage provider "sqlite" cannot start: .*not a database.*sqlitePath/,
    );
    assert.equal(await fs.readFile(path.join(root, 'notes.db'), 'utf8'), 'just some text, not SQLite\n'.repeat(100));
    await fs.rm(root, { recursive: true, force: true });
  });

  it("when the native module cannot be loaded, then the server starts on SQLite's WebAssembly build (as inside VS Code); forced to the native driver, it fails naming better-sqlite3 and the setting", async () => {
    const root = await makeTempDir();
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(sqliteConfig()));
    const fallback = lastJson(
      await runFixture('startAndReport.ts', [root], { BLOCK_MODULES: 'better-sqlite3' }, ['blockModules.cjs']),
    );
    assert.deepEqual(fallback, { started: true, loaded: ['node-sqlite3-wasm'] });
    const report = lastJson(
      await runFixture(
        'startAndReport.ts',
        [root],
        { BLOCK_MODULES: 'better-sqlite3', KANBAN_SQLITE_DRIVER: 'native' },
        ['blockModules.cjs'],
      ),
    );
    assert.equal(report.started, false);
    assert.match(
      report.error,
      /card\.storage provider "sqlite" cannot start: the native module better-sqlite3 cannot be loaded/,
    );
    assert.match(report.error, /plugins\["card\.storage"\]/);
    await fs.rm(root, { recursive: true, force: true });
  });

  for (const namespace of ['attachment.storage', 'card.state']) {
    it(`when ${namespace} is sqlite and neither SQLite driver can be loaded, then start-up fails naming ${namespace}`, async () => {
      const root = await makeTempDir();
      await fs.writeFile(
        path.join(root, '.kanban.json'),
        JSON.stringify(configWith({ [namespace]: { provider: 'sqlite', options: {} } })),
      );
      const report = lastJson(
        await runFixture('startAndReport.ts', [root], { BLOCK_MODULES: 'better-sqlite3,node-sqlite3-wasm' }, [
          'blockModules.cjs',
        ]),
      );
      assert.equal(report.started, false);
      assert.match(
        report.error,
        new RegExp(
          `^${namespace.replace('.', '\\.')} provider "sqlite" cannot start: neither SQLite driver can be loaded`,
        ),
      );
      assert.match(report.error, new RegExp(`plugins\\["${namespace.replace('.', '\\.')}"\\]\\.options\\.sqlitePath`));
      await fs.rm(root, { recursive: true, force: true });
    });
  }

  it('when the default Markdown set-up starts, then no optional provider module is loaded, and it starts without them', async () => {
    const root = await makeTempDir();
    const loaded = lastJson(await runFixture('startAndReport.ts', [root]));
    assert.deepEqual(loaded, { started: true, loaded: [] });
    const blocked = lastJson(
      await runFixture(
        'startAndReport.ts',
        [root],
        { BLOCK_MODULES: 'better-sqlite3,node-sqlite3-wasm,mysql2,mysql2/promise,@aws-sdk/client-s3' },
        ['blockModules.cjs'],
      ),
    );
    assert.equal(blocked.started, true, blocked.error);
    // The same probe does see the driver once SQLite is configured.
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(sqliteConfig()));
    assert.deepEqual(lastJson(await runFixture('startAndReport.ts', [root])), {
      started: true,
      loaded: ['better-sqlite3'],
    });
    await fs.rm(root, { recursive: true, force: true });
  });
});
