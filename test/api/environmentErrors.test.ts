import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer } from '../../server/server';
import { failsWith, listIds, okData } from '../helpers/envelope';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { ConsoleCapture } from '../auth/helpers/authWorkspace';
import { buildServerBundle, runBuiltServer } from '../storage/helpers/builtServer';
import { fillUp, mountTmpfs, skipWithoutTmpfs, unmount } from '../helpers/tmpfs';

describe('Environment: a full disk answers 507', function () {
  this.timeout(30_000);
  let dir: string;
  let mounted = false;
  let server: TestServer;

  before(async function () {
    dir = await makeTempDir('kanban-full-');
    const problem = mountTmpfs(dir, 'size=64k');
    if (problem) skipWithoutTmpfs(this, problem);
    mounted = true;
    server = await startTestServer({ root: dir });
    okData(await server.api('POST', '/api/tasks', { content: '# Written while there was room' }), 201);
  });

  after(async () => {
    // Not server.close(): it would remove the mount point while it is mounted.
    await server?.running.close();
    if (mounted) unmount(dir);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('when the disk is full, then creating a card answers 507 with "disk full" and the file, and no card appears', async () => {
    const giveRoomBack = fillUp(dir);
    const captured = new ConsoleCapture().start();
    let message: string;
    try {
      message = failsWith(await server.api('POST', '/api/tasks', { content: '# No room for me' }), 507, /disk full/);
    } finally {
      captured.stop();
    }
    assert.match(message, /\.kanban\/boards\/default\/backlog\/no-room-for-me-\d{4}-\d\d-\d\d-[a-z0-9]{4}\.md/);
    assert.deepEqual(
      captured.lines.map((l) => l.split(':')[0]),
      ['warn'],
      'one warning line, no error with a stack',
    );
    assert.match(captured.lines[0], /disk full/);
    assert.equal((await listIds(server)).length, 1);
    giveRoomBack();
  });

  it('when the disk is full, then a settings change answers 507 naming .kanban.json, and the old settings stay', async () => {
    const before = okData(await server.api('GET', '/api/settings'));
    const giveRoomBack = fillUp(dir);
    const captured = new ConsoleCapture().start();
    try {
      failsWith(
        await server.api('PUT', '/api/settings', { compactMode: !before.compactMode }),
        507,
        /disk full: .*\.kanban\.json/,
      );
    } finally {
      captured.stop();
      giveRoomBack();
    }
    assert.deepEqual(okData(await server.api('GET', '/api/settings')), before);
  });

  it('when space is freed again, then the same create succeeds', async () => {
    okData(await server.api('POST', '/api/tasks', { content: '# No room for me' }), 201);
    assert.equal((await listIds(server)).length, 2);
  });
});

describe('Environment: paths the file system cannot hold are a 400', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  it('when a migration is asked for a 300,000-character sqlitePath, then 400 says the path is too long, briefly, and nothing is logged', async () => {
    const captured = new ConsoleCapture().start();
    let message: string;
    try {
      message = failsWith(
        await server.api('POST', '/api/storage/migrate-to-sqlite', { sqlitePath: `${'x'.repeat(300_000)}.db` }),
        400,
        /path too long/,
      );
    } finally {
      captured.stop();
    }
    assert.ok(message.length < 400, `the message should not quote the whole path (${message.length} characters)`);
    assert.match(message, /300\d{3} characters/);
    assert.deepEqual(captured.lines, []);
    assert.equal(
      okData(await server.api('GET', '/api/storage')).card.provider,
      'markdown',
      'the failed migration left the store as it was',
    );
  });

  it('when sqlitePath nests thousands of folders, then 400 says the path is too long', async () => {
    failsWith(
      await server.api('POST', '/api/storage/migrate-to-sqlite', { sqlitePath: `${'a/'.repeat(3000)}x.db` }),
      400,
      /path too long/,
    );
  });
});

describe('Environment: a workspace the process cannot write is refused at start-up', function () {
  this.timeout(60_000);
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A fresh folder with a read-only tmpfs mounted on `sub` (or on the folder itself). */
  async function readOnlyMount(context: Mocha.Context, sub = ''): Promise<{ root: string; mountPoint: string }> {
    const root = await makeTempDir('kanban-ro-');
    const mountPoint = path.join(root, sub);
    await fs.mkdir(mountPoint, { recursive: true });
    const problem = mountTmpfs(mountPoint, 'ro,size=1m');
    cleanups.push(async () => {
      if (!problem) unmount(mountPoint);
      await fs.rm(root, { recursive: true, force: true });
    });
    if (problem) skipWithoutTmpfs(context, problem);
    return { root, mountPoint };
  }

  it('when the workspace folder is read-only, then startServer refuses, naming the folder and the missing permission', async function () {
    const { root } = await readOnlyMount(this);
    await assert.rejects(startServer({ root, port: 0 }), (error: Error) => {
      assert.match(
        error.message,
        new RegExp(`cannot write to the workspace folder ${root}: it is on a read-only file system \\(EROFS\\)`),
      );
      assert.match(error.message, /needs write permission/);
      return true;
    });
  });

  it('when only .kanban is read-only, then startServer refuses, naming .kanban', async function () {
    const { mountPoint } = await readOnlyMount(this, '.kanban');
    await assert.rejects(
      startServer({ root: path.dirname(mountPoint), port: 0 }),
      new RegExp(`cannot write to the workspace folder ${mountPoint}: .*read-only`),
    );
  });

  it('when the built server is started on a read-only workspace, then it exits with code 1 and says why', async function () {
    const { root } = await readOnlyMount(this);
    buildServerBundle();
    const run = await runBuiltServer(root);
    const { code, stderr } = await run.exited;
    assert.equal(run.url, null);
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`kanban: cannot start: cannot write to the workspace folder ${root}`));
  });
});
