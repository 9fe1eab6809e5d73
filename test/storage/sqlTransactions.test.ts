import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { configWith, setUpCardProvider, type CardProviderSetup } from './helpers/cardProviders';

interface CardRow {
  priority: string;
  assignee: string | null;
  modified: string;
}

/**
 * Raw access to the database behind the server: read a card row, count change-log rows, and add or
 * drop a trigger that refuses the change-log row of one card (the last statement of every mutation).
 */
interface RawDatabase {
  row(id: string): Promise<CardRow>;
  changeRows(): Promise<number>;
  refuseChangesOf(id: string): Promise<void>;
  allowChanges(): Promise<void>;
}

function sqliteAccess(server: TestServer): RawDatabase {
  const open = () => new Database(path.join(server.root, '.kanban', 'kanban.db'));
  const withDb = async <T>(work: (db: Database.Database) => T): Promise<T> => {
    const db = open();
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  return {
    row: (id) =>
      withDb(
        (db) => db.prepare('SELECT priority, assignee, modified FROM kanban_cards WHERE id = ?').get(id) as CardRow,
      ),
    changeRows: () => withDb((db) => (db.prepare('SELECT COUNT(*) AS n FROM kanban_changes').get() as { n: number }).n),
    refuseChangesOf: (id) =>
      withDb((db) => {
        db.exec(
          `CREATE TRIGGER refuse_change BEFORE INSERT ON kanban_changes WHEN NEW.card_id = '${id}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
        );
      }),
    allowChanges: () => withDb((db) => void db.exec('DROP TRIGGER refuse_change')),
  };
}

function mysqlAccess(provider: CardProviderSetup): RawDatabase {
  const database = provider.database;
  if (!database) throw new Error('the mysql set-up has no database');
  return {
    row: async (id) =>
      (await database.query<CardRow>('SELECT priority, assignee, modified FROM kanban_cards WHERE id = ?', [id]))[0],
    changeRows: async () =>
      Number((await database.query<{ n: number }>('SELECT COUNT(*) AS n FROM kanban_changes'))[0].n),
    refuseChangesOf: async (id) => {
      await database.query(
        `CREATE TRIGGER refuse_change BEFORE INSERT ON kanban_changes FOR EACH ROW BEGIN
           IF NEW.card_id = ${JSON.stringify(id)} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF;
         END`,
      );
    },
    allowChanges: async () => void (await database.query('DROP TRIGGER refuse_change')),
  };
}

function postgresAccess(provider: CardProviderSetup): RawDatabase {
  const database = provider.database;
  if (!database) throw new Error('the postgres set-up has no database');
  return {
    row: async (id) =>
      (await database.query<CardRow>('SELECT priority, assignee, modified FROM kanban_cards WHERE id = ?', [id]))[0],
    changeRows: async () =>
      Number((await database.query<{ n: string }>('SELECT COUNT(*) AS n FROM kanban_changes'))[0].n),
    refuseChangesOf: async (id) => {
      await database.query(
        `CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.card_id = '${id.replace(/'/g, "''")}' THEN RAISE EXCEPTION 'refused by the test'; END IF;
           RETURN NEW;
         END $$`,
      );
      await database.query(
        'CREATE TRIGGER refuse_change BEFORE INSERT ON kanban_changes FOR EACH ROW EXECUTE FUNCTION refuse_change()',
      );
    },
    allowChanges: async () => void (await database.query('DROP FUNCTION refuse_change() CASCADE')),
  };
}

const SERVER_ACCESS = { mysql: mysqlAccess, postgres: postgresAccess } as const;

/**
 * One transaction per mutation: when the database refuses the last statement of a change (its
 * change-log row), the card row written just before it is rolled back too, and the service keeps
 * serving what is stored.
 */
for (const providerName of ['sqlite', 'mysql', 'postgres'] as const) {
  describe(`card.storage ${providerName}: one transaction per mutation`, function () {
    this.timeout(30_000);
    let provider: CardProviderSetup;
    let server: TestServer;
    let raw: RawDatabase;

    beforeEach(async () => {
      provider = await setUpCardProvider(providerName);
      server = await startTestServer({ config: configWith(provider.plugins) });
      raw = providerName === 'sqlite' ? sqliteAccess(server) : SERVER_ACCESS[providerName](provider);
    });
    afterEach(async () => {
      await server?.close();
      await provider?.cleanup();
    });

    it('when the database refuses part of an update, then none of it is stored and the card reads as before', async () => {
      const card = await createTask(server, { content: '# Guarded\n', priority: 'low' });
      const before = await raw.row(card.id);
      const logged = await raw.changeRows();
      await raw.refuseChangesOf(card.id);

      const refused = await server.api('PUT', `/api/tasks/${card.id}`, { priority: 'high', assignee: 'Ana' });
      assert.equal(refused.body?.ok, false, 'the update was reported as failed');
      assert.deepEqual(await raw.row(card.id), before, 'the card row is as it was');
      assert.equal(await raw.changeRows(), logged);
      const read = okData(await server.api('GET', `/api/tasks/${card.id}`));
      assert.deepEqual([read.priority, read.assignee], ['low', null]);

      await raw.allowChanges();
      okData(await server.api('PUT', `/api/tasks/${card.id}`, { priority: 'high', assignee: 'Ana' }));
      const after = await raw.row(card.id);
      assert.deepEqual([after.priority, after.assignee], ['high', 'Ana']);
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${card.id}`)).priority, 'high');
    });

    it('when the database refuses one card of a label rename, then no card is renamed and the label keeps its name', async () => {
      okData(await server.api('PUT', '/api/labels/urgent', { color: '#ef4444' }));
      const cards = [];
      for (const title of ['First', 'Second', 'Third'])
        cards.push(await createTask(server, { content: `# ${title}\n`, labels: ['urgent'] }));
      await raw.refuseChangesOf(cards[2].id);

      const refused = await server.api('PATCH', '/api/labels/urgent', { newName: 'hot' });
      assert.equal(refused.body?.ok, false, 'the rename was reported as failed');
      for (const card of cards) {
        assert.deepEqual(
          okData(await server.api('GET', `/api/tasks/${card.id}`)).labels,
          ['urgent'],
          `${card.id} as served`,
        );
      }
      assert.deepEqual(Object.keys(okData(await server.api('GET', '/api/labels'))), ['urgent']);
      await server.restart();
      for (const card of cards) {
        assert.deepEqual(
          okData(await server.api('GET', `/api/tasks/${card.id}`)).labels,
          ['urgent'],
          `${card.id} as stored`,
        );
      }
    });
  });
}
