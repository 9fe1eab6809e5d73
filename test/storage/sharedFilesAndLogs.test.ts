import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin } from './helpers/postgres';

/** The databases under test: a fresh one each time, and the card.storage entry pointing at it. */
const DATABASES = [
  { provider: 'mysql', create: createTestDatabase, plugin: mysqlPlugin },
  { provider: 'postgres', create: createPostgresTestDatabase, plugin: postgresPlugin },
];

async function download(server: TestServer, urlPath: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(server.url + urlPath);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

for (const { provider, create, plugin } of DATABASES) {
  describe(`card.storage ${provider}: attachments and logs shared by the instances`, function () {
    this.timeout(60_000);
    let database: Awaited<ReturnType<typeof create>>;
    // Each instance has its own workspace folder, as on separate machines: only the database is shared.
    let a: TestServer;
    let b: TestServer;

    beforeEach(async () => {
      database = await create();
      const config = configWith({ 'card.storage': plugin(database.name, { pollIntervalMs: 100 }) });
      a = await startTestServer({ config });
      b = await startTestServer({ config });
    });
    afterEach(async () => {
      await a?.close();
      await b?.close();
      await database.drop();
    });

    it('when a file of a few MB is uploaded through A, then B lists it and downloads the same bytes; deleted through B, A answers 404', async () => {
      const card = await createTask(a, 'Shared file');
      const bytes = randomBytes(3 * 1024 * 1024 + 123);
      okData(
        await a.api('POST', `/api/tasks/${card.id}/attachments`, {
          files: [{ name: 'big.bin', data: bytes.toString('base64'), contentType: 'application/octet-stream' }],
        }),
      );
      const pieces = await database.query('SELECT COUNT(*) AS n FROM kanban_attachment_chunks');
      assert.ok(Number(pieces[0].n) > 1, 'the payload is stored in pieces');
      assert.equal(await exists(path.join(a.root, '.kanban', 'boards', 'default', 'attachments')), false);

      await eventually(async () => {
        assert.deepEqual(okData(await b.api('GET', `/api/tasks/${card.id}`)).attachments, ['big.bin']);
      }, 10_000);
      const got = await download(b, `/api/tasks/${card.id}/attachments/big.bin`);
      assert.equal(got.status, 200);
      assert.ok(got.bytes.equals(bytes), 'B serves the bytes uploaded through A');

      okData(await b.api('DELETE', `/api/tasks/${card.id}/attachments/big.bin`));
      assert.equal((await download(a, `/api/tasks/${card.id}/attachments/big.bin`)).status, 404);
      const left = await database.query('SELECT COUNT(*) AS n FROM kanban_attachment_chunks');
      assert.equal(Number(left[0].n), 0, 'the pieces went with the file');
    });

    it('when a log entry is added through A, then B reads it; cleared through B, A reads none', async () => {
      const card = await createTask(a, 'Shared log');
      okData(await a.api('POST', `/api/tasks/${card.id}/logs`, { text: 'first' }), 201);
      okData(await a.api('POST', `/api/tasks/${card.id}/logs`, { text: 'second' }), 201);
      await eventually(async () => {
        const entries = okData(await b.api('GET', `/api/tasks/${card.id}/logs`));
        assert.deepEqual(
          entries.map((e: { text: string }) => e.text),
          ['first', 'second'],
        );
      }, 10_000);
      assert.equal(await exists(path.join(a.root, '.kanban', 'boards', 'default', 'logs')), false);

      okData(await b.api('DELETE', `/api/tasks/${card.id}/logs`));
      assert.deepEqual(okData(await a.api('GET', `/api/tasks/${card.id}/logs`)), []);
    });

    it('when a board log entry is added through A, then B reads it; cleared through B, A reads none', async () => {
      okData(await a.api('POST', '/api/boards/default/logs', { text: 'deployed' }), 201);
      const entries = okData(await b.api('GET', '/api/boards/default/logs'));
      assert.deepEqual(
        entries.map((e: { text: string }) => e.text),
        ['deployed'],
      );
      okData(await b.api('DELETE', '/api/boards/default/logs'));
      assert.deepEqual(okData(await a.api('GET', '/api/boards/default/logs')), []);
    });

    it('when a card with a file and a log moves to another board, then both follow it; deleted for good, both are gone', async () => {
      const card = await createTask(a, 'Travelling');
      okData(
        await a.api('POST', `/api/tasks/${card.id}/attachments`, {
          files: [{ name: 'map.txt', data: Buffer.from('the map').toString('base64') }],
        }),
      );
      okData(await a.api('POST', `/api/tasks/${card.id}/logs`, { text: 'packed' }), 201);
      okData(await a.api('POST', `/api/boards/ops/tasks/${card.id}/transfer`, {}));
      assert.equal(
        String((await download(a, `/api/boards/ops/tasks/${card.id}/attachments/map.txt`)).bytes),
        'the map',
      );
      const moved = okData(await a.api('GET', `/api/boards/ops/tasks/${card.id}/logs`));
      assert.ok(moved.some((e: { text: string }) => e.text === 'packed'));

      okData(await a.api('DELETE', `/api/boards/ops/tasks/${card.id}/permanent`));
      assert.deepEqual(await database.query('SELECT filename FROM kanban_attachments'), []);
      assert.deepEqual(await database.query('SELECT body FROM kanban_logs'), []);
    });

    it('when an older service left a log and a file in local files, then they are still served beside the database', async () => {
      const card = await createTask(a, 'Older files');
      const board = path.join(a.root, '.kanban', 'boards', 'default');
      await fs.mkdir(path.join(board, 'logs'), { recursive: true });
      await fs.writeFile(
        path.join(board, 'logs', `${card.id}.jsonl`),
        JSON.stringify({ text: 'old', source: 'default', timestamp: '2026-01-01T00:00:00.000Z' }) + '\n',
      );
      // The card lists the file, whose payload is only in the local folder, as an older service left it.
      okData(
        await a.api('POST', `/api/tasks/${card.id}/attachments`, {
          files: [{ name: 'old.txt', data: Buffer.from('kept').toString('base64') }],
        }),
      );
      await database.query('DELETE FROM kanban_attachments');
      await fs.mkdir(path.join(board, 'attachments', card.id), { recursive: true });
      await fs.writeFile(path.join(board, 'attachments', card.id, 'old.txt'), 'kept');
      okData(await a.api('POST', `/api/tasks/${card.id}/logs`, { text: 'new' }), 201);
      assert.deepEqual(
        okData(await a.api('GET', `/api/tasks/${card.id}/logs`)).map((e: { text: string }) => e.text),
        ['old', 'new'],
      );
      assert.equal(String((await download(a, `/api/tasks/${card.id}/attachments/old.txt`)).bytes), 'kept');
    });
  });
}

describe('attachment.storage mysql or postgres: named explicitly', function () {
  this.timeout(30_000);

  it('when it is named beside card.storage postgres, then the files are in that database', async () => {
    const database = await createPostgresTestDatabase();
    const server = await startTestServer({
      config: configWith({
        'card.storage': postgresPlugin(database.name),
        'attachment.storage': { provider: 'postgres', options: {} },
      }),
    });
    try {
      const card = await createTask(server, 'Named');
      okData(
        await server.api('POST', `/api/tasks/${card.id}/attachments`, {
          files: [{ name: 'n.txt', data: Buffer.from('named').toString('base64') }],
        }),
      );
      assert.equal((await database.query('SELECT filename FROM kanban_attachments')).length, 1);
      assert.equal(okData(await server.api('GET', '/api/storage')).attachment.provider, 'postgres');
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('when it is named without a card database of that kind, then start-up fails saying where the files live', async () => {
    const error = await startTestServer({
      config: configWith({ 'attachment.storage': { provider: 'mysql', options: {} } }),
    }).then(
      async (server) => {
        await server.close();
        return null;
      },
      (e: Error) => e,
    );
    assert.match(String(error?.message), /the mysql attachments live in the card\.storage mysql database/);
  });
});
