import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { configWith } from './helpers/cardProviders';
import { createPostgresTestDatabase, postgresPlugin, type PostgresTestDatabase } from './helpers/postgres';
import { call, startServerProcess, type ServerProcess } from './helpers/child';
import { waitUntil } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { LISTENER_APPLICATION_NAME } from '../../server/storage/postgres/postgresNotifier';

/**
 * The longest poll interval allowed: an instance that only polled would not see another's change
 * for a minute (or its safety poll, 30 s), so an event within PUSHED_WITHIN_MS was pushed.
 */
const POLL_MS = 60_000;
const PUSHED_WITHIN_MS = 10_000;

describe('card.storage postgres: changes are pushed between instances', function () {
  this.timeout(120_000);
  let database: PostgresTestDatabase;
  let roots: string[] = [];
  let servers: ServerProcess[] = [];
  const sockets: RecordingSocket[] = [];

  const listeners = async () =>
    database.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = ? AND application_name = ? AND query LIKE ?',
      [database.name, LISTENER_APPLICATION_NAME, 'LISTEN%'],
    );

  before(async () => {
    database = await createPostgresTestDatabase();
    roots = [await makeTempDir(), await makeTempDir()];
    const plugins = { 'card.storage': postgresPlugin(database.name, { pollIntervalMs: POLL_MS }) };
    for (const root of roots)
      await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(plugins), null, 2));
    servers = [await startServerProcess(roots[0])];
    servers.push(await startServerProcess(roots[1]));
  });
  after(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((s) => s.stop()));
    for (const root of roots) await fs.rm(root, { recursive: true, force: true });
    await database?.drop();
  });

  it('when one instance writes a card, then a WebSocket client of the other sees it long before any poll, and a GET there shows it', async () => {
    const [a, b] = servers;
    const client = await RecordingSocket.connect(wsUrl(b.url));
    sockets.push(client);
    const card = await call(a.url, 'POST', '/api/tasks', { content: '# Pushed across\n' });
    await client.waitFor((m) => m.event === 'task.created' && m.card?.id === card.id, PUSHED_WITHIN_MS);
    assert.equal((await call(b.url, 'GET', `/api/tasks/${card.id}`)).title, 'Pushed across');
    await call(a.url, 'PUT', '/api/settings', { compactMode: true });
    await client.waitFor((m) => m.event === 'settings.updated', PUSHED_WITHIN_MS);
    assert.equal((await call(b.url, 'GET', '/api/settings')).compactMode, true, 'the configuration was pushed too');
  });

  it('when the listening connections are killed, then they come back and the writes made meanwhile reach the other instance once each, in order', async () => {
    const [a, b] = servers;
    const client = await RecordingSocket.connect(wsUrl(b.url));
    sockets.push(client);
    const before = (await listeners()).map((row) => row.pid);
    assert.equal(before.length, 2, 'each instance listens on one connection of its own');
    const from = client.messages[0].revision as number;

    await database.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND application_name = ?',
      [database.name, LISTENER_APPLICATION_NAME],
    );
    // Written one after another from the moment the listeners die, across their reconnection.
    const titles: string[] = [];
    const started = Date.now();
    for (let i = 0; Date.now() - started < 1500; i++) {
      titles.push(`Written while away ${i}`);
      await call(a.url, 'POST', '/api/tasks', { content: `# Written while away ${i}\n` });
    }

    await waitUntil(
      () => titles.every((title) => client.events().some((m) => m.card?.title === title)),
      PUSHED_WITHIN_MS,
      'every card written while the listeners were away reaching the client',
    );
    const after = (await listeners()).map((row) => row.pid);
    assert.equal(after.length, 2, 'both instances listen again');
    assert.ok(
      after.every((pid) => !before.includes(pid)),
      'on new connections',
    );
    assert.match(b.output(), /pushes changes again/, 'the instance noticed the drop and reconnected');

    const created = client.events().filter((m) => m.event === 'task.created');
    for (const title of titles)
      assert.equal(created.filter((m) => m.card?.title === title).length, 1, `${title} arrived once`);
    client.events().forEach((m, i) => assert.equal(m.revision, from + 1 + i, 'no gap, no repeat, in order'));
  });
});
