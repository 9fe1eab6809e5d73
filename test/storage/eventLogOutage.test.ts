import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';

/**
 * The change is stored but the shared event log cannot take its event (the database went away in
 * between). Made real by renaming the log's table away from under two instances: the card table
 * still takes writes, the log does not.
 */
describe('card.storage mysql: an event the shared log cannot take at once', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const servers: TestServer[] = [];
  const sockets: RecordingSocket[] = [];
  let logAway = false;

  beforeEach(async () => {
    database = await createTestDatabase();
    const config = configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 200 }) });
    servers.push(await startTestServer({ config }));
    servers.push(await startTestServer({ config }));
  });
  afterEach(async () => {
    if (logAway) await database.query('RENAME TABLE kanban_events_away TO kanban_events');
    logAway = false;
    for (const socket of sockets.splice(0)) socket.close();
    for (const server of servers.splice(0)) await server.close();
    await database.drop();
  });

  it('when the log refuses events just after two writes, then both writes are answered, and once it is back every instance streams both, in order, without a restart', async () => {
    const [a, b] = servers;
    const card = okData(await a.api('POST', '/api/tasks', { content: '# Outage\n' }), 201);
    const clients = await Promise.all(servers.map((s) => RecordingSocket.connect(wsUrl(s.url))));
    sockets.push(...clients);

    await database.query('RENAME TABLE kanban_events TO kanban_events_away');
    logAway = true;
    const first = await a.api('PUT', `/api/tasks/${card.id}`, { content: '# Outage, first edit\n' });
    assert.equal(first.status, 200, 'the stored change is answered, not held until the log is back');
    const second = await a.api('PUT', `/api/tasks/${card.id}`, { content: '# Outage, second edit\n' });
    assert.equal(second.status, 200);
    // The other instance reads the stored change (it follows the card table, not the event log).
    await eventually(
      async () => assert.equal(okData(await b.api('GET', `/api/tasks/${card.id}`)).title, 'Outage, second edit'),
      20_000,
    );
    assert.deepEqual(
      clients.map((c) => c.events().filter((m) => m.event === 'task.updated').length),
      [0, 0],
      'no event is streamed before it is in the log',
    );

    await database.query('RENAME TABLE kanban_events_away TO kanban_events');
    logAway = false;
    for (const [n, client] of clients.entries()) {
      await client.waitFor((m) => m.card?.title === 'Outage, second edit', 20_000);
      const updates = client.events().filter((m) => m.event === 'task.updated');
      assert.deepEqual(
        updates.map((m) => m.card?.title),
        ['Outage, first edit', 'Outage, second edit'],
        `instance ${n + 1}'s client hears both changes once, in order`,
      );
      assert.equal(updates[1].revision, (updates[0].revision as number) + 1, 'with consecutive revisions');
    }
    const later = okData(await b.api('PUT', `/api/tasks/${card.id}`, { content: '# After the outage\n' }));
    assert.equal(later.title, 'After the outage');
    const after = await clients[0].waitFor((m) => m.card?.title === 'After the outage', 20_000);
    assert.equal(
      after.revision,
      (clients[0].events().filter((m) => m.event === 'task.updated')[1].revision as number) + 1,
      'the next change follows them',
    );
  });
});
