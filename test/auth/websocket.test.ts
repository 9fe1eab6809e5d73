import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import {
  ConsoleCapture,
  VIEWER_TOKEN_ENV,
  bearer,
  findSecrets,
  makeTokens,
  send,
  startAuthServer,
  stopAuthServer,
} from './helpers/authWorkspace';

/** The HTTP status the server answers an upgrade with (101 when the socket opens). */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.terminate();
    });
    socket.on('error', (error) => {
      // ws reports an error after unexpected-response too; only an error before any answer counts.
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

describe('Auth: WebSocket subscriptions', () => {
  const tokens = makeTokens();
  let server: TestServer;

  beforeEach(async () => {
    server = await startAuthServer(tokens);
  });
  afterEach(() => stopAuthServer(server));

  it('when auth is on and the socket carries no token, then the upgrade is refused with 401', async () => {
    assert.equal(await upgradeStatus(wsUrl(server.url)), 401);
    assert.equal(await upgradeStatus(`${wsUrl(server.url)}?boardId=default`), 401);
    assert.equal(server.running.hub.connectionCount, 0);
  });

  it('when the token is unknown, empty or in the wrong scheme, then the upgrade is refused with 401', async () => {
    assert.equal(await upgradeStatus(`${wsUrl(server.url)}?token=${tokens.bad}`), 401);
    assert.equal(await upgradeStatus(`${wsUrl(server.url)}?token=`), 401);
    assert.equal(await upgradeStatus(wsUrl(server.url), bearer(tokens.bad)), 401);
    assert.equal(await upgradeStatus(wsUrl(server.url), { authorization: `Basic ${tokens.admin}` }), 401);
    // A prefix of a real token is not that token.
    assert.equal(await upgradeStatus(`${wsUrl(server.url)}?token=${tokens.admin.slice(0, -1)}`), 401);
  });

  it('when a viewer subscribes with ?token=, then it gets hello and every change an editor makes', async () => {
    const socket = await RecordingSocket.connect(`${wsUrl(server.url)}?token=${encodeURIComponent(tokens.viewer)}`);
    try {
      const created = await send(server, 'POST', '/api/tasks', {
        token: tokens.editor,
        body: { content: '# Seen live' },
      });
      assert.equal(created.status, 201);
      const event = await socket.waitFor((m) => m.type === 'event' && m.event === 'task.created');
      assert.equal(event.card.title, 'Seen live');
    } finally {
      socket.close();
    }
  });

  it('when the token comes in an Authorization: Bearer header instead, then the socket opens too', async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url), bearer(tokens.editor));
    try {
      assert.equal(socket.messages[0].type, 'hello');
      assert.equal(server.running.hub.connectionCount, 1);
    } finally {
      socket.close();
    }
  });

  it('when the viewer token lives in an environment variable that is unset, then that token no longer opens a socket and the warning names the subject, not the token', async () => {
    const captured = new ConsoleCapture().start();
    try {
      delete process.env[VIEWER_TOKEN_ENV];
      assert.equal(await upgradeStatus(`${wsUrl(server.url)}?token=${tokens.viewer}`), 401);
      assert.equal(await upgradeStatus(`${wsUrl(server.url)}?token=${tokens.viewer}`), 401);
    } finally {
      captured.stop();
    }
    const warnings = captured.lines.filter((line) => line.includes('unset environment variable'));
    assert.equal(warnings.length, 1, `expected one warning, got ${JSON.stringify(captured.lines)}`);
    assert.match(warnings[0], /vera/);
    assert.deepEqual(findSecrets([{ label: 'console', text: captured.lines.join('\n') }], [tokens.viewer]), []);
  });

  it('when auth is off, then a socket without a token is admitted as before', async () => {
    const open = await startTestServer();
    try {
      assert.equal(await upgradeStatus(wsUrl(open.url)), 101);
    } finally {
      await open.close();
    }
  });
});
