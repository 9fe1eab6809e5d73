import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, exists, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';

const OLD_ENTRY = { text: 'old', source: 'default', timestamp: '2026-01-01T00:00:00.000Z' };
const OLD_BOARD_ENTRY = { text: 'old board entry', source: 'default', timestamp: '2026-01-01T00:00:00.000Z' };

/**
 * A MySQL workspace from before schema 5 kept attachments and logs in the local files of the
 * instance that took them. At start they move into the database, once, so every instance sees them.
 */
describe('card.storage mysql (MariaDB): an older workspace’s local attachments and logs move into the database', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const servers: TestServer[] = [];
  let root: string;
  let cardId: string;

  const config = () => configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 100 }) });
  const board = () => path.join(root, '.kanban', 'boards', 'default');
  const cardLog = () => path.join(board(), 'logs', `${cardId}.jsonl`);
  const boardLog = () => path.join(board(), 'board.jsonl');
  const attachment = () => path.join(board(), 'attachments', cardId, 'old.txt');

  async function start(on = root): Promise<TestServer> {
    const server = await startTestServer({ root: on, config: config() });
    servers.push(server);
    return server;
  }

  async function stopAll(): Promise<void> {
    // close() removes the folder; the workspace must outlive the restart.
    for (const server of servers.splice(0)) await server.running.close();
  }

  const logTexts = async (ownerCard: string) =>
    (
      await database.query<{ body: string }>(
        'SELECT body FROM kanban_logs WHERE board_id = ? AND card_id = ? ORDER BY seq',
        ['default', ownerCard],
      )
    ).map((row) => JSON.parse(row.body).text);

  /** The workspace as an older service left it: the card's file and the logs' older entries only in local files. */
  beforeEach(async () => {
    database = await createTestDatabase();
    root = await makeTempDir();
    const older = await start();
    cardId = (await createTask(older, 'Older files')).id;
    okData(
      await older.api('POST', `/api/tasks/${cardId}/attachments`, {
        files: [{ name: 'old.txt', data: Buffer.from('kept').toString('base64') }],
      }),
    );
    okData(await older.api('POST', `/api/tasks/${cardId}/logs`, { text: 'new' }), 201);
    await stopAll();
    await database.query('DELETE FROM kanban_attachment_chunks');
    await database.query('DELETE FROM kanban_attachments');
    await fs.mkdir(path.dirname(attachment()), { recursive: true });
    await fs.writeFile(attachment(), 'kept');
    await fs.mkdir(path.dirname(cardLog()), { recursive: true });
    await fs.writeFile(cardLog(), JSON.stringify(OLD_ENTRY) + '\n');
    await fs.writeFile(boardLog(), JSON.stringify(OLD_BOARD_ENTRY) + '\n');
  });

  afterEach(async () => {
    await stopAll();
    await fs.rm(root, { recursive: true, force: true });
    await database.drop();
  });

  it('when two instances over the folder start at once, then the files are in the database once, in order, the local ones are gone, and another instance serves them', async () => {
    await Promise.all([start(), start()]);

    assert.deepEqual(await logTexts(cardId), ['old', 'new'], 'the older entry first, neither twice');
    assert.deepEqual(await logTexts(''), ['old board entry']);
    const files = await database.query<{ filename: string }>('SELECT filename FROM kanban_attachments');
    assert.deepEqual(
      files.map((f) => f.filename),
      ['old.txt'],
    );
    for (const file of [cardLog(), boardLog(), attachment()]) assert.equal(await exists(file), false, file);

    const elsewhere = await start(await makeTempDir());
    try {
      const download = await fetch(`${elsewhere.url}/api/tasks/${cardId}/attachments/old.txt`);
      assert.equal(download.status, 200);
      assert.equal(await download.text(), 'kept');
      assert.deepEqual(
        okData(await elsewhere.api('GET', `/api/tasks/${cardId}/logs`)).map((e: { text: string }) => e.text),
        ['old', 'new'],
      );
    } finally {
      await fs.rm(elsewhere.root, { recursive: true, force: true });
    }
  });

  it('when a start stopped after the copies were committed but before the files were removed, then the next start adds nothing twice and removes them', async () => {
    await start();
    await stopAll();
    // The files as a crash between the commit and the removal leaves them.
    await fs.mkdir(path.dirname(attachment()), { recursive: true });
    await fs.writeFile(attachment(), 'kept');
    await fs.writeFile(cardLog(), JSON.stringify(OLD_ENTRY) + '\n');

    const server = await start();
    assert.deepEqual(await logTexts(cardId), ['old', 'new']);
    assert.equal((await database.query('SELECT filename FROM kanban_attachments')).length, 1);
    assert.equal(await exists(cardLog()), false);
    assert.equal(await exists(attachment()), false);
    const download = await fetch(`${server.url}/api/tasks/${cardId}/attachments/old.txt`);
    assert.equal(await download.text(), 'kept');
  });
});
