import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer } from '../../../server/server';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/testServer';
import { createTask, okData } from '../../helpers/envelope';
import { configWith } from './cardProviders';

/** A test database on the local server: a fresh name, `?` placeholders, dropped after the test. */
export interface ServerTestDatabase {
  name: string;
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** What the shared suite needs to know of one database server provider. */
export interface DatabaseServerUnderTest {
  provider: 'mysql' | 'postgres';
  /** The product's name in its messages. */
  product: string;
  /** Host, port and user when only the database is given. */
  defaults: [string, number, string];
  plugin(database: string, extra?: Record<string, unknown>): unknown;
  createDatabase(): Promise<ServerTestDatabase>;
  /** What start-up says when TLS is asked for and the server offers none. */
  noTls: RegExp;
  /** How other instances' changes reach this one: PostgreSQL pushes them, MySQL is polled. */
  watch: 'poll' | 'push';
}

/** The message a server fails to start with over `plugin` as card.storage (it must fail). */
export async function startFailure(plugin: unknown): Promise<string> {
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

/** What MySQL and PostgreSQL as card.storage do alike: defaults, and start-up failures that name the setting. */
export function describeDatabaseServer(db: DatabaseServerUnderTest): void {
  const { provider } = db;

  describe(`card.storage ${provider}: the connection defaults`, function () {
    this.timeout(30_000);
    let database: ServerTestDatabase;
    let server: TestServer | undefined;
    beforeEach(async () => {
      database = await db.createDatabase();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await database.drop();
    });

    it('when only database is set, then host, port and user default to a local server and TLS is off', async () => {
      server = await startTestServer({
        config: configWith({ 'card.storage': { provider, options: { database: database.name } } }),
      });
      const card = await createTask(server, 'Defaults');
      const { card: storage } = okData(await server.api('GET', '/api/storage'));
      assert.deepEqual([storage.host, storage.port, storage.user, storage.ssl], [...db.defaults, false]);
      const [row] = await database.query('SELECT id FROM kanban_cards WHERE id = ?', [card.id]);
      assert.equal(row.id, card.id);
    });

    it(`when the storage is described, then cards and card state say their changes are ${db.watch === 'push' ? 'pushed' : 'polled'}`, async () => {
      server = await startTestServer({ config: configWith({ 'card.storage': db.plugin(database.name) }) });
      const storage = okData(await server.api('GET', '/api/storage'));
      assert.deepEqual([storage.card.watch, storage.cardState.watch], [db.watch, db.watch]);
    });
  });

  describe(`card.storage ${provider}: start-up failures`, function () {
    this.timeout(30_000);

    it('when the server cannot be reached, then start-up fails naming the provider, the host setting and the cause', async () => {
      const message = await startFailure(db.plugin('kanban_unreachable', { port: 1 }));
      assert.match(
        message,
        new RegExp(
          `card\\.storage provider "${provider}" cannot start: cannot reach the ${db.product} server at 127\\.0\\.0\\.1:1 \\(.*ECONNREFUSED`,
        ),
      );
      assert.match(message, /plugins\["card\.storage"\]\.options\.host/);
    });

    it('when no database is given, then start-up fails naming the database setting', async () => {
      const message = await startFailure({ provider, options: { host: '127.0.0.1' } });
      assert.match(
        message,
        new RegExp(`card\\.storage provider "${provider}" cannot start: the option "database" is required`),
      );
      assert.match(message, /plugins\["card\.storage"\]\.options\.database/);
    });

    it('when the user is refused, then start-up fails naming the user setting', async () => {
      const message = await startFailure(
        db.plugin('kanban_refused', { user: 'no_such_user_kanban', password: 'wrong' }),
      );
      assert.match(message, /refused user "no_such_user_kanban"/);
      assert.match(message, /plugins\["card\.storage"\]\.options\.user/);
    });

    it('when ssl is true and the server offers no TLS, then start-up fails naming the ssl setting', async () => {
      // The servers of these tests run without TLS, so asking for TLS must fail, not fall back.
      const message = await startFailure(db.plugin('kanban_tls', { ssl: true }));
      assert.match(message, new RegExp(`card\\.storage provider "${provider}" cannot start: `));
      assert.match(message, db.noTls);
      assert.match(message, /plugins\["card\.storage"\]\.options\.ssl/);
    });
  });
}
