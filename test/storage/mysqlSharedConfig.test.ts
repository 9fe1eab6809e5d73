import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';

/** Only how to connect: what a second machine's .kanban.json holds. */
const connectionOnly = (database: string) => ({
  version: 2,
  plugins: { 'card.storage': mysqlPlugin(database, { pollIntervalMs: 100 }) },
});

const boardIds = async (server: TestServer) =>
  okData(await server.api('GET', '/api/boards'))
    .map((b: { id: string }) => b.id)
    .sort();
const labelNames = async (server: TestServer) => Object.keys(okData(await server.api('GET', '/api/labels'))).sort();

describe('card.storage mysql: one configuration shared by every instance', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const servers: TestServer[] = [];
  const sockets: RecordingSocket[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    for (const server of servers.splice(0)) await server.close();
    await database.drop();
  });

  async function start(config: unknown): Promise<TestServer> {
    const server = await startTestServer({ config });
    servers.push(server);
    return server;
  }

  it('when the first instance starts over an empty database, then its .kanban.json seeds it once, and an instance with only the connection gets the same boards and labels', async () => {
    const seed = {
      ...configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 100 }) }),
      labels: { bug: { color: '#ff0000' } },
    };
    const first = await start(seed);
    const second = await start(connectionOnly(database.name));
    assert.deepEqual(await boardIds(second), ['default', 'ops']);
    assert.deepEqual(await labelNames(second), ['bug']);
    const [row] = await database.query("SELECT version FROM kanban_config WHERE name = 'workspace'");
    assert.equal(Number(row.version), 1);

    // A third instance with other boards in its file does not seed again: the database wins.
    const other = {
      ...configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 100 }) }),
      defaultBoard: 'elsewhere',
      boards: [{ id: 'elsewhere', name: 'Elsewhere', columns: [{ id: 'todo', name: 'To Do' }] }],
    };
    const third = await start(other);
    assert.deepEqual(await boardIds(third), ['default', 'ops']);
    assert.deepEqual(await boardIds(first), ['default', 'ops']);
  });

  it('when one instance changes boards and labels, then the others serve them and tell their WebSocket clients, and no .kanban.json is rewritten', async () => {
    const first = await start(configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 100 }) }));
    const second = await start(connectionOnly(database.name));
    const files = await Promise.all(servers.map((s) => fs.readFile(path.join(s.root, '.kanban.json'), 'utf8')));
    const socket = await RecordingSocket.connect(wsUrl(second.url));
    sockets.push(socket);

    assert.equal((await first.api('POST', '/api/boards', { id: 'roadmap', name: 'Roadmap' })).status, 201);
    assert.equal((await first.api('PUT', '/api/labels/urgent', { color: '#ff8800' })).status, 200);
    await socket.waitFor((m) => m.event === 'board.created' && m.boardId === 'roadmap', 10_000);
    await socket.waitFor((m) => m.event === 'label.updated', 10_000);
    assert.deepEqual(await boardIds(second), ['default', 'ops', 'roadmap']);
    assert.deepEqual(await labelNames(second), ['urgent']);
    // A card on the new board, made through the other instance.
    assert.equal(
      (await second.api('POST', '/api/boards/roadmap/tasks', { content: '# Shared board card\n' })).status,
      201,
    );

    const after = await Promise.all(servers.map((s) => fs.readFile(path.join(s.root, '.kanban.json'), 'utf8')));
    assert.deepEqual(after, files, '.kanban.json keeps only what it had');
  });

  it('when two instances change the configuration at the same time, then every change is kept on both', async () => {
    const first = await start(configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 100 }) }));
    const second = await start(connectionOnly(database.name));
    const names = Array.from({ length: 8 }, (_, i) => `label-${i}`);
    const answers = await Promise.all(
      names.map((name, i) => (i % 2 ? second : first).api('PUT', `/api/labels/${name}`, { color: '#123456' })),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      names.map(() => 200),
      JSON.stringify(answers.map((a) => a.body)),
    );
    for (const server of [first, second]) {
      await eventually(async () => assert.deepEqual(await labelNames(server), names), 10_000);
    }
  });

  it('when .kanban.json is broken by hand and the instance has seen it, then a migration out of the database is refused with 409 and the file stays as it was left', async () => {
    const server = await start(configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 100 }) }));
    const file = path.join(server.root, '.kanban.json');
    const broken = '{ "version": 2, "plugins": {';
    await fs.writeFile(file, broken);
    await eventually(async () => {
      const workspace = okData<any>(await server.api('GET', '/api/workspace'));
      assert.ok(workspace.invalidFiles.some((f: { path: string }) => f.path === '.kanban.json'));
    }, 10_000);

    const answer = await server.api('POST', '/api/storage/migrate-to-markdown');
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.match(String(answer.body?.error), /\.kanban\.json does not parse/);
    assert.equal(await fs.readFile(file, 'utf8'), broken);
  });
});
