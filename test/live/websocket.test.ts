import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { startServer } from '../../server/server';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';

describe('WebSocket /ws', () => {
  let server: TestServer;
  const sockets: RecordingSocket[] = [];
  const connect = async (query = '') => {
    const socket = await RecordingSocket.connect(wsUrl(server.url, `/ws${query}`));
    sockets.push(socket);
    return socket;
  };

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    sockets.splice(0).forEach((s) => s.close());
    await server.close();
  });

  it('when a client connects, then it gets hello with the current revision', async () => {
    await server.api('POST', '/api/tasks', { content: '# One' });
    const socket = await connect();
    assert.equal(socket.messages[0].type, 'hello');
    assert.equal(socket.messages[0].revision, 1);
  });

  it('when changes happen through the API, then events arrive in order with revisions growing by one', async () => {
    const socket = await connect();
    const created = await server.api('POST', '/api/tasks', { content: '# Move me' });
    const id = created.body!.data.id;
    await server.api('PATCH', `/api/tasks/${id}/move`, { status: 'done' });
    await server.api('POST', `/api/tasks/${id}/comments`, { author: 'a', content: 'hi' });
    await server.api('DELETE', `/api/tasks/${id}`);
    await socket.waitFor((m) => m.event === 'task.deleted');
    const events = socket.events();
    assert.deepEqual(
      events.map((e) => e.event),
      ['task.created', 'task.moved', 'comment.created', 'task.deleted'],
    );
    assert.deepEqual(
      events.map((e) => e.revision),
      [1, 2, 3, 4],
    );
    assert.equal(events[1].boardId, 'default');
    assert.equal(events[1].data.to, 'done');
    assert.equal(events[1].card.status, 'done');
  });

  it('when a client reconnects with ?since at the current revision, then hello says resumed; from another revision, it says refetch', async () => {
    await server.api('POST', '/api/tasks', { content: '# Before the reconnect' });
    const resumed = await connect('?since=1');
    assert.deepEqual([resumed.messages[0].revision, (resumed.messages[0] as any).resumed], [1, true]);
    const created = await server.api('POST', '/api/tasks', { content: '# After the reconnect' });
    const event = await resumed.waitFor((m) => m.event === 'task.created');
    assert.deepEqual([event.revision, event.data.taskId], [2, created.body!.data.id]);
    const behind = await connect('?since=0');
    assert.deepEqual([behind.messages[0].revision, (behind.messages[0] as any).refetch], [2, true]);
    assert.equal(behind.events().length, 0, 'nothing is replayed: this process keeps no history');
  });

  it('when settings change, then settings.updated is broadcast at once', async () => {
    const socket = await connect();
    await server.api('PUT', '/api/settings', { compactMode: true });
    const event = await socket.waitFor((m) => m.event === 'settings.updated', 1000);
    assert.equal(event.data.settings.compactMode, true);
    assert.equal(event.boardId, null);
  });

  it('when a client subscribes to one board, then it gets only that board and workspace-wide events', async () => {
    await server.api('POST', '/api/boards', { id: 'other', name: 'Other' });
    const socket = await connect();
    socket.socket.send(JSON.stringify({ type: 'subscribe', boardId: 'other' }));
    await socket.waitFor((m) => m.type === 'subscribed');
    await server.api('POST', '/api/tasks', { content: '# On default' });
    await server.api('POST', '/api/boards/other/tasks', { content: '# On other' });
    await server.api('PUT', '/api/labels/bug', { color: '#ff0000' });
    await socket.waitFor((m) => m.event === 'label.updated');
    assert.deepEqual(
      socket.events().map((e) => `${e.event}@${e.boardId}`),
      ['task.created@other', 'label.updated@null'],
    );
  });

  it('when a card file is edited by hand, then task.updated arrives with the new content', async () => {
    const created = await server.api('POST', '/api/tasks', { content: '# Before' });
    const socket = await connect();
    const file = path.join(server.root, created.body!.data.filePath);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('# Before', '# After'));
    const event = await socket.waitFor((m) => m.event === 'task.updated', 2000);
    assert.equal(event.card.title, 'After');
    assert.equal(event.revision, 2);
  });

  it('when .kanban.json is edited by hand, then the change is broadcast', async () => {
    const socket = await connect();
    await fs.writeFile(
      path.join(server.root, '.kanban.json'),
      JSON.stringify({ version: 2, settings: { showAssignee: false } }),
    );
    const event = await socket.waitFor((m) => m.event === 'settings.updated', 2000);
    assert.equal(event.data.settings.showAssignee, false);
    assert.equal((await server.api('GET', '/api/settings')).body!.data.showAssignee, false);
  });

  it('when a client sends malformed JSON, then only that socket is closed with 1007', async () => {
    const bad = await connect();
    const good = await connect();
    bad.socket.send('{not json');
    assert.equal(await bad.waitForClose(), 1007);
    await server.api('POST', '/api/tasks', { content: '# Still alive' });
    await good.waitFor((m) => m.event === 'task.created');
  });

  it('when a client sends an unknown message, then it is closed with 1008 and a reason', async () => {
    const socket = await connect();
    socket.socket.send(JSON.stringify({ type: 'hack' }));
    assert.equal(await socket.waitForClose(), 1008);
    assert.match(socket.closeReason, /subscribe/);
  });

  it('when a client sends an oversized message, then it is closed with 1009 and the server keeps serving', async () => {
    const socket = await connect();
    socket.socket.send('x'.repeat(100_000));
    assert.equal(await socket.waitForClose(), 1009);
    assert.equal((await server.api('GET', '/api/tasks')).status, 200);
  });

  it('when the Host header is foreign, then the upgrade is refused', async () => {
    const socket = new WebSocket(wsUrl(server.url), { headers: { host: 'evil.example' } });
    const status = await new Promise<number>((resolve) =>
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    assert.equal(status, 403);
  });

  it('when a path other than /ws is upgraded, then it is refused with 404', async () => {
    const socket = new WebSocket(wsUrl(server.url, '/other'));
    const status = await new Promise<number>((resolve) =>
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    assert.equal(status, 404);
  });
});

describe('WebSocket heartbeat', () => {
  it('when a client stops answering pings, then the server drops it', async () => {
    const running = await startServer({ root: await makeTempDir(), port: 0, heartbeatMs: 50 });
    try {
      // autoPong off: this client behaves like a dead peer.
      const socket = new WebSocket(wsUrl(running.url), { autoPong: false } as WebSocket.ClientOptions);
      await new Promise((resolve) => socket.once('open', resolve));
      assert.equal(running.hub.connectionCount, 1);
      const code = await new Promise<number>((resolve) => socket.once('close', (c) => resolve(c)));
      assert.equal(code, 1006);
      assert.equal(running.hub.connectionCount, 0);
    } finally {
      await running.close();
    }
  });
});
