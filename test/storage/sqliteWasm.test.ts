import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, listIds, okData } from '../helpers/envelope';
import { buildServerBundle, runBuiltServer } from './helpers/builtServer';
import { configWith } from './helpers/cardProviders';

/**
 * SQLite as VS Code runs it: the WebAssembly build, which keeps a database file to itself. These
 * tests use the same file from the native driver in another process, as a user would with the
 * `kanban` command or a standalone server beside the editor.
 */
const SQLITE = { 'card.storage': { provider: 'sqlite', options: { pollIntervalMs: 200 } } };

const roots: string[] = [];

async function workspace(plugins: Record<string, unknown> = SQLITE): Promise<string> {
  const root = await makeTempDir();
  roots.push(root);
  await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(plugins), null, 2));
  return root;
}

async function withWasm<T>(work: () => Promise<T>): Promise<T> {
  process.env.KANBAN_SQLITE_DRIVER = 'wasm';
  try {
    return await work();
  } finally {
    delete process.env.KANBAN_SQLITE_DRIVER;
  }
}

const startWasmServer = (root: string) => withWasm(() => startTestServer({ root }));

describe('SQLite inside VS Code (the WebAssembly driver)', function () {
  this.timeout(60_000);
  let server: TestServer | undefined;

  before(() => buildServerBundle());
  afterEach(async () => {
    await stop();
    for (const root of roots.splice(0)) await fs.rm(root, { recursive: true, force: true });
  });

  /** Stop the in-process server, keeping its workspace for the next step. */
  async function stop(): Promise<void> {
    await server?.running.close();
    server = undefined;
  }

  it('when the WebAssembly driver has the database open, then a native server on the folder refuses to start, naming VS Code, and starts once it is closed', async () => {
    const root = await workspace();
    server = await startWasmServer(root);
    assert.equal(okData(await server.api('GET', '/api/storage')).card.driver, 'wasm');
    const written = await createTask(server, 'Written in VS Code');

    const refused = await runBuiltServer(root);
    const { code, stderr } = await refused.exited;
    assert.notEqual(code, 0);
    assert.match(stderr, /open in VS Code's built-in SQLite/);

    await stop();
    const native = await runBuiltServer(root);
    try {
      assert.ok(native.url, 'the native server starts once the file is free');
      const list = (await (await fetch(`${native.url}/api/tasks`)).json()) as { data: { id: string }[] };
      assert.deepEqual(
        list.data.map((t) => t.id),
        [written.id],
      );
    } finally {
      await native.stop();
    }
  });

  it('when a native server has the database open, then the WebAssembly driver refuses it, and opens it with its cards once that server stops', async () => {
    const root = await workspace();
    const native = await runBuiltServer(root);
    let nativeCardId = '';
    try {
      assert.ok(native.url);
      const created = await fetch(`${native.url}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: '# From the terminal' }),
      });
      nativeCardId = ((await created.json()) as { data: { id: string } }).data.id;
      await assert.rejects(startWasmServer(root), /native SQLite driver/);
    } finally {
      await native.stop();
    }
    server = await startWasmServer(root);
    assert.deepEqual(await listIds(server), [nativeCardId]);
  });

  it('when the process that held the WebAssembly lock died, then the next open takes the file over', async () => {
    const root = await workspace();
    server = await startWasmServer(root);
    const card = await createTask(server, 'Kept');
    await stop();
    // What a killed VS Code leaves: the lock folder and an owner whose process is gone.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const file = path.join(root, '.kanban', 'kanban.db');
    await fs.mkdir(`${file}.lock`);
    await fs.writeFile(`${file}.owner`, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname() }));

    server = await startWasmServer(root);
    assert.deepEqual(await listIds(server), [card.id]);
  });

  it('when attachments are stored in SQLite by the WebAssembly driver, then a binary file downloads byte for byte after a restart', async () => {
    const root = await workspace({ ...SQLITE, 'attachment.storage': { provider: 'sqlite', options: {} } });
    server = await startWasmServer(root);
    const card = await createTask(server, 'With a file');
    const bytes = randomBytes(200 * 1024);
    okData(
      await server.api('POST', `/api/tasks/${card.id}/attachments`, {
        files: [{ name: 'blob.bin', data: bytes.toString('base64') }],
      }),
    );
    await stop();
    server = await startWasmServer(root);
    const response = await fetch(`${server.url}/api/tasks/${card.id}/attachments/blob.bin`);
    assert.equal(response.status, 200);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes));
  });
});
