import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, MYSQL_HOST, MYSQL_PORT, type TestDatabase } from './helpers/mysql';
import { TcpProxy } from './helpers/tcpProxy';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef';
const as = (token: string) => ({ authorization: `Bearer ${token}` });

/** Each machine's .kanban.json: how to connect, and who the tokens belong to. */
function instanceConfig(database: string, extra: Record<string, unknown> = {}) {
  return configWith({
    'card.storage': mysqlPlugin(database, { pollIntervalMs: 100 }),
    'auth.identity': {
      provider: 'token',
      options: {
        tokens: [
          { token: ALICE, subject: 'alice', role: 'editor' },
          { token: BOB, subject: 'bob', role: 'editor' },
        ],
      },
    },
    ...extra,
  });
}

/** The card's state for one reader, as one instance lists it (the list path, not a single GET). */
async function listedState(
  server: TestServer,
  token: string,
  taskId: string,
): Promise<{ unread: boolean; open: boolean }> {
  const tasks = okData(await server.api('GET', '/api/tasks', undefined, as(token))) as {
    id: string;
    cardState: { unread: boolean; open: boolean };
  }[];
  const task = tasks.find((t) => t.id === taskId);
  assert.ok(task, `task ${taskId} is not listed`);
  return task.cardState;
}

/** Wait until the instance lists the card with this state for the reader. */
async function untilListed(
  server: TestServer,
  token: string,
  taskId: string,
  expected: { unread?: boolean; open?: boolean },
  what: string,
) {
  await eventually(async () => {
    const state = await listedState(server, token, taskId);
    for (const [key, value] of Object.entries(expected))
      assert.equal(state[key as 'unread' | 'open'], value, `${what}: ${key}`);
  }, 10_000);
}

describe('card.storage mysql: card state shared by every instance', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const servers: TestServer[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await database.drop();
  });

  async function twoInstances(): Promise<[TestServer, TestServer]> {
    const first = await startTestServer({ config: instanceConfig(database.name) });
    servers.push(first);
    const second = await startTestServer({ config: instanceConfig(database.name) });
    servers.push(second);
    return [first, second];
  }

  /** A card alice made through one instance, known to both. */
  async function sharedTask(first: TestServer, second: TestServer): Promise<string> {
    const task = okData(await first.api('POST', '/api/tasks', { content: '# Shared state' }, as(ALICE)), 201);
    await eventually(
      async () => assert.equal((await second.api('GET', `/api/tasks/${task.id}`, undefined, as(BOB))).status, 200),
      10_000,
    );
    return task.id;
  }

  it('when alice updates a card through one instance, then it is unread for bob on both instances and never for alice', async () => {
    const [first, second] = await twoInstances();
    const id = await sharedTask(first, second);
    okData(await second.api('POST', `/api/tasks/${id}/read`, undefined, as(BOB)));
    await untilListed(first, BOB, id, { unread: false }, 'bob before alice acts, first instance');

    okData(await first.api('PUT', `/api/tasks/${id}`, { priority: 'high' }, as(ALICE)));
    await untilListed(first, BOB, id, { unread: true }, 'bob on the instance alice used');
    await untilListed(second, BOB, id, { unread: true }, 'bob on the other instance');
    assert.equal((await listedState(first, ALICE, id)).unread, false);
    assert.equal((await listedState(second, ALICE, id)).unread, false);
  });

  it('when bob reads and opens a card through one instance, then it is read and open for him on the other too, and not open for alice', async () => {
    const [first, second] = await twoInstances();
    const id = await sharedTask(first, second);
    okData(await first.api('POST', `/api/tasks/${id}/comments`, { author: 'alice', content: 'look' }, as(ALICE)), 201);
    await untilListed(second, BOB, id, { unread: true }, 'bob after alice commented, other instance');

    const read = okData(await second.api('POST', `/api/tasks/${id}/read`, undefined, as(BOB)));
    assert.equal(read.unread, false);
    await untilListed(first, BOB, id, { unread: false, open: false }, 'bob after reading on the other instance');

    okData(await first.api('POST', `/api/tasks/${id}/open`, undefined, as(BOB)));
    await untilListed(second, BOB, id, { open: true, unread: false }, 'bob after opening on the other instance');
    assert.equal((await listedState(second, ALICE, id)).open, false, 'opening is per actor');
  });

  it('when both instances restart, then the unread and open state is still there, kept in the database and not in .kanban/.state', async () => {
    const [first, second] = await twoInstances();
    const id = await sharedTask(first, second);
    okData(await first.api('POST', `/api/tasks/${id}/open`, undefined, as(BOB)));
    okData(
      await second.api(
        'POST',
        `/api/tasks/${id}/comments`,
        { author: 'alice', content: 'after bob opened' },
        as(ALICE),
      ),
      201,
    );
    await untilListed(first, BOB, id, { unread: true, open: true }, 'bob before the restart');
    // Activity is saved a moment after the answer; the row holding it is what survives.
    await eventually(async () => {
      const rows = await database.query(
        'SELECT last_activity_at FROM kanban_card_state WHERE card_id = ? AND actor = ?',
        [id, 'alice'],
      );
      assert.ok(rows[0]?.last_activity_at, "alice's activity is in the database");
    }, 10_000);

    await first.restart();
    await second.restart();
    for (const server of [first, second]) {
      assert.deepEqual(await listedState(server, BOB, id), { unread: true, open: true });
      assert.deepEqual(await listedState(server, ALICE, id), { unread: false, open: false });
      assert.equal(
        existsSync(path.join(server.root, '.kanban', '.state', 'card-state.journal')),
        false,
        'no card state file',
      );
      const status = okData(await server.api('GET', '/api/card-state/status', undefined, as(BOB)));
      assert.equal(status.backend, 'mysql');
    }
  });

  it('when the database cannot be reached, then open and read answer 503 and the state stays as it was; once it is back they work', async () => {
    const proxy = new TcpProxy(MYSQL_HOST, MYSQL_PORT);
    await proxy.start();
    try {
      const server = await startTestServer({
        config: instanceConfig(database.name, {
          'card.storage': mysqlPlugin(database.name, { port: proxy.port, pollIntervalMs: 100 }),
        }),
      });
      servers.push(server);
      const task = okData(await server.api('POST', '/api/tasks', { content: '# Outage' }, as(ALICE)), 201);
      okData(
        await server.api('POST', `/api/tasks/${task.id}/comments`, { author: 'alice', content: 'look' }, as(ALICE)),
        201,
      );
      assert.deepEqual(await listedState(server, BOB, task.id), { unread: true, open: false });
      // Activity is saved a moment after the answer: cut the database only once it is there.
      await eventually(async () => {
        const rows = await database.query(
          'SELECT 1 FROM kanban_card_state WHERE card_id = ? AND actor = ? AND last_activity_at IS NOT NULL',
          [task.id, 'alice'],
        );
        assert.equal(rows.length, 1);
      }, 10_000);

      await proxy.stop();
      const refused = await server.api('POST', `/api/tasks/${task.id}/open`, undefined, as(BOB));
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.match((refused.body as { error: string }).error, /nothing was changed/);
      assert.deepEqual(
        await listedState(server, BOB, task.id),
        { unread: true, open: false },
        'the refused open left no trace',
      );

      await proxy.start();
      okData(await server.api('POST', `/api/tasks/${task.id}/open`, undefined, as(BOB)));
      assert.deepEqual(await listedState(server, BOB, task.id), { unread: false, open: true });
    } finally {
      await proxy.stop();
    }
  });

  it('when card.state is set explicitly, then that setting wins over the shared default', async () => {
    const server = await startTestServer({
      config: instanceConfig(database.name, { 'card.state': { provider: 'file' } }),
    });
    servers.push(server);
    const status = okData(await server.api('GET', '/api/card-state/status', undefined, as(BOB)));
    assert.equal(status.provider, 'file');
    assert.equal(status.backend, 'file');
  });

  it('when card.state names mysql but the cards are not in MySQL, then the server does not start and says what to set', async () => {
    await assert.rejects(
      startTestServer({ config: { version: 2, plugins: { 'card.state': { provider: 'mysql' } } } }),
      /card\.state[\s\S]*set card\.storage to mysql, or use file or sqlite/,
    );
  });
});
