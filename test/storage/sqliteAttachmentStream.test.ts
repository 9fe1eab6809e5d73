import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir } from '../helpers/testServer';
import { configWith } from './helpers/cardProviders';
import { buildServerBundle, runBuiltServer, type BuiltServerRun } from './helpers/builtServer';

const MB = 1024 * 1024;
const SIZE = 20 * MB;

/** Resident memory of a process right now, from /proc. */
function rssBytes(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
}

/** Different bytes everywhere, so a piece sent twice or out of order changes the hash. */
function payload(): Buffer {
  const data = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i += 4) data.writeUInt32LE(i, i);
  return data;
}

/**
 * Download while sampling the server's memory at every piece that arrives; the body is hashed, never
 * kept. `earlyPeakRss` is the highest sample while the first eighth of the body arrives: a server
 * that reads the whole file before sending holds all of it by then, while one that streams has read
 * about an eighth. (Over the whole download, pieces already sent linger as garbage until the next
 * collection, so the overall peak says more about the garbage collector than about streaming.)
 */
async function download(
  server: BuiltServerRun,
  url: string,
): Promise<{ sha256: string; bytes: number; earlyPeakRss: number }> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  const hash = createHash('sha256');
  let bytes = 0;
  let earlyPeakRss = rssBytes(server.pid);
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(piece);
    bytes += piece.length;
    if (bytes <= SIZE / 8) earlyPeakRss = Math.max(earlyPeakRss, rssBytes(server.pid));
  }
  return { sha256: hash.digest('hex'), bytes, earlyPeakRss };
}

describe('SQLite attachments: downloads stream', function () {
  this.timeout(60_000);
  let root: string;
  let server: BuiltServerRun | null = null;

  before(() => buildServerBundle());
  beforeEach(async () => {
    root = await makeTempDir();
    await fs.writeFile(
      path.join(root, '.kanban.json'),
      JSON.stringify(configWith({ 'attachment.storage': { provider: 'sqlite', options: {} } })),
    );
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
    await fs.rm(root, { recursive: true, force: true });
  });

  async function start(): Promise<BuiltServerRun> {
    server = await runBuiltServer(root);
    if (!server.url) assert.fail(`the server did not start: ${(await server.exited).stderr}`);
    return server;
  }

  it('when a 20 MB attachment is downloaded, then the bytes are identical and the server never holds the whole file', async () => {
    const data = payload();
    let running = await start();
    const created = (await (
      await fetch(`${running.url}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: '# Big file\n' }),
      })
    ).json()) as { data: { id: string } };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), 'big.bin');
    const uploaded = await fetch(`${running.url}/api/tasks/${created.data.id}/attachments`, {
      method: 'POST',
      body: form,
    });
    assert.equal(uploaded.status, 200, await uploaded.text());
    // A fresh process: the upload's own buffers must not count against the download.
    await running.stop();
    running = await start();
    const url = `${running.url}/api/tasks/${created.data.id}/attachments/big.bin`;
    // A first small request warms up the route, so the baseline has the code paths loaded.
    await (await fetch(`${running.url}/api/tasks/${created.data.id}`)).arrayBuffer();
    const before = rssBytes(running.pid);

    const got = await download(running, url);

    assert.equal(got.bytes, SIZE);
    assert.equal(got.sha256, createHash('sha256').update(data).digest('hex'));
    const growth = got.earlyPeakRss - before;
    // Reading the whole blob grows it by at least the file's 20 MB before the first byte is sent.
    // Streaming leaves the pieces already sent as garbage until the next collection, which on a
    // loaded machine came to just over 10 MB once: the bound sits between the two.
    assert.ok(
      growth < (SIZE * 3) / 4,
      `server RSS grew by ${(growth / MB).toFixed(1)} MB during the first eighth of the download`,
    );
  });

  it('when a database written by the earlier schema holds whole blobs, then opening it moves them into pieces that download the same', async () => {
    let running = await start();
    const created = (await (
      await fetch(`${running.url}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: '# Old file\n' }),
      })
    ).json()) as { data: { id: string } };
    const form = new FormData();
    const old = Buffer.from('written before payloads were stored in pieces\n'.repeat(20_000));
    form.append('file', new Blob([new Uint8Array(old)]), 'old.txt');
    assert.equal(
      (await fetch(`${running.url}/api/tasks/${created.data.id}/attachments`, { method: 'POST', body: form })).status,
      200,
    );
    await running.stop();
    // Turn the file back into schema 1: the payload whole in `data`, no pieces.
    const db = new Database(path.join(root, '.kanban', 'kanban.db'));
    db.prepare('UPDATE kanban_attachments SET data = ?').run(old);
    db.exec("DELETE FROM kanban_attachment_chunks; UPDATE kanban_schema SET version = 1 WHERE part = 'attachments'");
    db.close();

    running = await start();
    const got = await download(running, `${running.url}/api/tasks/${created.data.id}/attachments/old.txt`);
    assert.equal(got.sha256, createHash('sha256').update(old).digest('hex'));
    const check = new Database(path.join(root, '.kanban', 'kanban.db'), { readonly: true });
    try {
      assert.equal(
        check.prepare('SELECT typeof(data) FROM kanban_attachments').pluck().get(),
        'text',
        'the row points at its pieces',
      );
      assert.equal(check.prepare("SELECT version FROM kanban_schema WHERE part = 'attachments'").pluck().get(), 2);
    } finally {
      check.close();
    }
  });
});
