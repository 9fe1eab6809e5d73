import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, MYSQL_HOST, MYSQL_PORT, type TestDatabase } from './helpers/mysql';
import { TcpProxy } from './helpers/tcpProxy';

describe('card.storage mysql: the database goes away and comes back', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: TestServer | undefined;

  beforeEach(async () => {
    database = await createTestDatabase();
    proxy = new TcpProxy(MYSQL_HOST, MYSQL_PORT);
    await proxy.start();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await proxy.stop();
    await database.drop();
  });

  it('when the database cannot be reached, then writes answer 503 at once naming it, reads go on from memory, and writes work again once it is back', async () => {
    server = await startTestServer({
      config: configWith({ 'card.storage': mysqlPlugin(database.name, { port: proxy.port }) }),
    });
    const before = await createTask(server, 'Written before the outage');

    await proxy.stop();
    const started = Date.now();
    const refused = await server.api('POST', '/api/tasks', { content: '# Written during the outage\n' });
    const waited = Date.now() - started;
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    const message = (refused.body as { error: string }).error;
    assert.match(message, new RegExp(`MySQL database at ${MYSQL_HOST}:${proxy.port} cannot be reached`));
    assert.match(message, /nothing was changed/);
    assert.ok(waited < 15_000, `the refusal took ${waited} ms`);
    const moved = await server.api('PATCH', `/api/tasks/${before.id}/move`, { status: 'done' });
    assert.equal(moved.status, 503);
    assert.equal(
      okData(await server.api('GET', `/api/tasks/${before.id}`)).status,
      before.status,
      'the card is unchanged and still readable',
    );
    assert.equal((await server.api('GET', '/api/tasks')).status, 200);

    await proxy.start();
    const after = await createTask(server, 'Written after the outage');
    const [row] = await database.query('SELECT COUNT(*) AS n FROM kanban_cards WHERE id IN (?, ?)', [
      before.id,
      after.id,
    ]);
    assert.equal(Number(row.n), 2);
    const titles = okData(await server.api('GET', '/api/tasks')).map((t: { title: string }) => t.title);
    assert.deepEqual(titles.filter((t: string) => /outage/.test(t)).sort(), [
      'Written after the outage',
      'Written before the outage',
    ]);
  });
});
