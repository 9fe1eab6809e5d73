import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, exists, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';

function stateRows(file: string): { card_id: string; actor: string; opened_at: string | null }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT card_id, actor, opened_at FROM kanban_card_state ORDER BY card_id').all() as never;
  } finally {
    db.close();
  }
}

/** card.state sqlite with each kind of card storage: the state provider does not depend on where cards live. */
const CASES: { cards: string; plugins: Record<string, unknown>; stateFile: string; mysql?: boolean }[] = [
  {
    cards: 'markdown',
    plugins: { 'card.state': { provider: 'sqlite', options: { sqlitePath: '.kanban/.state/state.db' } } },
    stateFile: '.kanban/.state/state.db',
  },
  {
    cards: 'sqlite (the same default file)',
    plugins: { 'card.storage': { provider: 'sqlite', options: {} }, 'card.state': { provider: 'sqlite', options: {} } },
    stateFile: '.kanban/kanban.db',
  },
  {
    cards: 'mysql',
    plugins: { 'card.state': { provider: 'sqlite', options: { sqlitePath: 'state.sqlite' } } },
    stateFile: 'state.sqlite',
    mysql: true,
  },
];

for (const { cards, plugins, stateFile, mysql } of CASES) {
  describe(`card.state sqlite with ${cards} cards`, function () {
    this.timeout(30_000);
    let server: TestServer;
    let database: TestDatabase | undefined;
    beforeEach(async () => {
      database = mysql ? await createTestDatabase() : undefined;
      const cardStorage = database ? { 'card.storage': mysqlPlugin(database.name) } : {};
      server = await startTestServer({ config: configWith({ ...plugins, ...cardStorage }) });
    });
    afterEach(async () => {
      await server?.close();
      await database?.drop();
    });

    it('when a card is opened, then the state is a row in the SQLite file and survives a restart', async () => {
      const card = await createTask(server, 'Opened');
      okData(await server.api('POST', `/api/tasks/${card.id}/open`));
      const rows = stateRows(path.join(server.root, stateFile));
      assert.deepEqual(
        rows.map((r) => [r.card_id, r.actor]),
        [[card.id, 'default']],
      );
      assert.ok(rows[0].opened_at);
      for (const name of ['card-state.json', 'card-state.journal']) {
        assert.equal(
          await exists(path.join(server.root, '.kanban', '.state', name)),
          false,
          `the file store is not used (${name})`,
        );
      }
      await server.restart();
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${card.id}`)).cardState, {
        open: true,
        unread: false,
      });
      const status = okData(await server.api('GET', '/api/card-state/status'));
      assert.equal(status.provider, 'sqlite');
      const storage = okData(await server.api('GET', '/api/storage'));
      assert.deepEqual(
        [storage.card.provider, storage.cardState.provider],
        [mysql ? 'mysql' : cards.split(' ')[0], 'sqlite'],
      );
      assert.equal(storage.cardState.sqlitePath, stateFile);
    });

    it('when a card moves to another board, then its state follows it', async () => {
      const card = await createTask(server, 'Moving state');
      okData(await server.api('POST', `/api/tasks/${card.id}/open`));
      okData(await server.api('POST', `/api/boards/ops/tasks/${card.id}/transfer`, {}));
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/boards/ops/tasks/${card.id}`)).cardState.open, true);
    });

    it('when a card is deleted for good, then its state rows are removed', async () => {
      const kept = await createTask(server, 'Kept');
      const gone = await createTask(server, 'Gone');
      for (const card of [kept, gone]) okData(await server.api('POST', `/api/tasks/${card.id}/open`));
      okData(await server.api('DELETE', `/api/tasks/${gone.id}/permanent`));
      assert.deepEqual(
        stateRows(path.join(server.root, stateFile)).map((r) => r.card_id),
        [kept.id],
      );
    });
  });
}
