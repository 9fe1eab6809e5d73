import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../server/core/atomicFile';
import { startServer, type RunningServer } from '../../server/server';
import { makeTempDir, type TestServer } from '../helpers/testServer';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { ConsoleCapture, VIEWER_TOKEN_ENV, authConfig, findSecrets, makeTokens, send } from './helpers/authWorkspace';
import { eventually } from '../helpers/waiting';

describe('Auth: hand edits of plugins["auth.identity"] in .kanban.json', function () {
  this.timeout(30_000);
  const tokens = makeTokens();
  const captured = new ConsoleCapture();
  let running: RunningServer;
  let root: string;
  /** The bits of TestServer that `send` uses. */
  let server: TestServer;

  const editConfig = (config: unknown) =>
    writeFileAtomic(path.join(root, '.kanban.json'), JSON.stringify(config, null, 2));
  const withTokens = (list: unknown[]) => ({
    ...authConfig(tokens),
    plugins: { 'auth.identity': { provider: 'token', options: { tokens: list } } },
  });
  const viewerEntry = { token: `\${${VIEWER_TOKEN_ENV}}`, subject: 'vera', role: 'viewer' };
  const editorEntry = { token: tokens.editor, subject: 'eddie', role: 'editor' };
  const adminEntry = { token: tokens.admin, subject: 'ada', role: 'admin' };

  async function start(config: unknown): Promise<void> {
    root = await makeTempDir();
    await editConfig(config);
    running = await startServer({ root, port: 0, heartbeatMs: 150 });
    server = { url: running.url } as TestServer;
  }

  beforeEach(() => {
    process.env[VIEWER_TOKEN_ENV] = tokens.viewer;
    captured.start();
  });
  afterEach(async () => {
    await running?.close();
    await fs.rm(root, { recursive: true, force: true });
    captured.stop();
    delete process.env[VIEWER_TOKEN_ENV];
  });

  it('when a token is removed from the file, then the next requests with it get 401 while the others keep working', async () => {
    await start(authConfig(tokens));
    assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.editor })).status, 200);
    await editConfig(withTokens([viewerEntry, adminEntry]));
    await eventually(async () =>
      assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.editor })).status, 401),
    );
    assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.admin })).status, 200);
    assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.viewer })).status, 200);
  });

  it('when a role is lowered in the file, then the subject loses what the old role allowed', async () => {
    await start(authConfig(tokens));
    assert.equal(
      (await send(server, 'POST', '/api/tasks', { token: tokens.editor, body: { content: '# Before' } })).status,
      201,
    );
    await editConfig(withTokens([viewerEntry, { ...editorEntry, role: 'viewer' }, adminEntry]));
    await eventually(async () =>
      assert.equal(
        (await send(server, 'POST', '/api/tasks', { token: tokens.editor, body: { content: '# After' } })).status,
        403,
      ),
    );
  });

  it("when an open socket's token is revoked, then the socket is closed at the next heartbeat and cannot reconnect", async () => {
    await start(authConfig(tokens));
    const socket = await RecordingSocket.connect(`${wsUrl(running.url)}?token=${tokens.editor}`);
    const survivor = await RecordingSocket.connect(`${wsUrl(running.url)}?token=${tokens.admin}`);
    try {
      await editConfig(withTokens([viewerEntry, adminEntry]));
      assert.equal(await socket.waitForClose(5000), 1008);
      assert.match(socket.closeReason, /no longer accepted/);
      await assert.rejects(RecordingSocket.connect(`${wsUrl(running.url)}?token=${tokens.editor}`), /401/);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(survivor.closeCode, null, 'a socket with a valid token was closed');
    } finally {
      socket.close();
      survivor.close();
    }
  });

  it('when the new auth entry is invalid, then the previous tokens stay in force and one warning names the problem', async () => {
    await start(authConfig(tokens));
    const broken = withTokens([viewerEntry, { ...editorEntry, role: 'owner' }, adminEntry]);
    await editConfig({ ...broken, boards: [...broken.boards, { id: 'marker', name: 'Marker' }] });
    // The board added in the same edit shows the file was applied.
    await eventually(async () =>
      assert.ok(
        (await send(server, 'GET', '/api/boards', { token: tokens.admin })).body.data.some(
          (b: { id: string }) => b.id === 'marker',
        ),
      ),
    );
    assert.equal(
      (await send(server, 'POST', '/api/tasks', { token: tokens.editor, body: { content: '# Still editor' } })).status,
      201,
    );
    assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.editor })).status, 200);
    const warnings = captured.lines.filter((line) => line.includes('cannot be used'));
    assert.equal(warnings.length, 1, JSON.stringify(captured.lines));
    assert.match(warnings[0], /tokens\[1\]\.role must be one of/);
  });

  it('when the auth entry is removed from the file, then auth stays on until a restart, with a warning', async () => {
    await start(authConfig(tokens));
    const { plugins: _plugins, ...withoutAuth } = authConfig(tokens);
    await editConfig({ ...withoutAuth, boards: [...withoutAuth.boards, { id: 'marker', name: 'Marker' }] });
    await eventually(async () =>
      assert.ok(
        (await send(server, 'GET', '/api/boards', { token: tokens.admin })).body.data.some(
          (b: { id: string }) => b.id === 'marker',
        ),
      ),
    );
    assert.equal((await send(server, 'GET', '/api/boards')).status, 401);
    assert.ok(
      captured.lines.some((line) =>
        /removed from \.kanban\.json; authentication stays on until the server restarts/.test(line),
      ),
      JSON.stringify(captured.lines),
    );
    await running.close();
    running = await startServer({ root, port: 0 });
    server = { url: running.url } as TestServer;
    assert.equal((await send(server, 'GET', '/api/boards')).status, 200);
  });

  it('when auth is added to the file of an open server, then it applies at once and open sockets without a token are closed', async () => {
    const { plugins: _plugins, ...openConfig } = authConfig(tokens);
    await start(openConfig);
    const socket = await RecordingSocket.connect(wsUrl(running.url));
    try {
      assert.equal((await send(server, 'GET', '/api/boards')).status, 200);
      await editConfig(authConfig(tokens));
      await eventually(async () => assert.equal((await send(server, 'GET', '/api/boards')).status, 401));
      assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.viewer })).status, 200);
      assert.equal(await socket.waitForClose(5000), 1008);
    } finally {
      socket.close();
    }
  });

  afterEach(() => {
    assert.deepEqual(
      findSecrets(
        captured.lines.map((text) => ({ label: 'console', text })),
        Object.values(tokens),
      ),
      [],
    );
  });
});
