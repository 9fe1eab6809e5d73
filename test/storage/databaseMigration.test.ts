import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { buildCli, expectCode, kanban } from '../cli/helpers';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { Receiver } from '../helpers/webhookReceiver';
import { eventually } from '../helpers/waiting';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin, type PostgresTestDatabase } from './helpers/postgres';

const PLAN = Buffer.from('the plan');

/** Two cards, one with two comments, an attachment and a log entry; a board log entry too. */
async function fill(server: TestServer): Promise<{ ids: string[] }> {
  const first = await createTask(server, { content: '# First\n\nbody' });
  const second = await createTask(server, { content: '# Second' });
  okData(await server.api('POST', `/api/tasks/${first.id}/comments`, { author: 'ana', content: 'one' }), 201);
  okData(await server.api('POST', `/api/tasks/${first.id}/comments`, { author: 'bo', content: 'two' }), 201);
  okData(
    await server.api('POST', `/api/tasks/${first.id}/attachments`, {
      files: [{ name: 'plan.txt', data: PLAN.toString('base64') }],
    }),
  );
  okData(await server.api('POST', `/api/tasks/${first.id}/logs`, { text: 'deployed', source: 'ci' }), 201);
  okData(await server.api('PATCH', `/api/tasks/${second.id}/move`, { status: 'backlog', position: 0 }));
  return { ids: [first.id, second.id] };
}

/** What a client reads of the cards, their comments, the attachment and the log, in list order. */
async function readBack(server: TestServer, ids: string[]) {
  const list = okData<any[]>(await server.api('GET', '/api/tasks')).map((t) => [t.id, t.status]);
  const first = okData<any>(await server.api('GET', `/api/tasks/${ids[0]}`));
  const attachment = await fetch(`${server.url}/api/tasks/${ids[0]}/attachments/plan.txt`);
  const logs = okData<any[]>(await server.api('GET', `/api/tasks/${ids[0]}/logs`));
  return {
    list,
    comments: first.comments.map((c: any) => [c.author, c.content]),
    attachment: attachment.status === 200 ? Buffer.from(await attachment.arrayBuffer()).toString() : attachment.status,
    logs: logs.map((l) => [l.text, l.source]),
  };
}

async function cardStorage(server: TestServer): Promise<unknown> {
  return JSON.parse(await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8')).plugins?.['card.storage'];
}

const pgOptions = (database: string) => postgresPlugin(database).options;

describe('storage migration into and out of PostgreSQL and MySQL', function () {
  this.timeout(90_000);
  const databases: (PostgresTestDatabase | TestDatabase)[] = [];
  let server: TestServer | undefined;

  async function postgres(): Promise<PostgresTestDatabase> {
    const database = await createPostgresTestDatabase();
    databases.push(database);
    return database;
  }

  afterEach(async () => {
    await server?.close();
    server = undefined;
    for (const database of databases.splice(0)) await database.drop().catch(() => undefined);
  });

  it('when Markdown cards go to PostgreSQL and back, then cards, comments, order, the attachment and the log come across both ways and .kanban.json names the store', async () => {
    server = await startTestServer({ config: configWith({}) });
    const { ids } = await fill(server);
    const before = await readBack(server, ids);
    const database = await postgres();

    const result = okData<any>(
      await server.api('POST', '/api/storage/migrate-to-postgres', { options: pgOptions(database.name) }),
    );
    assert.equal(result.from, 'markdown');
    assert.equal(result.to, 'postgres');
    assert.equal(result.cards, 2);
    assert.equal(result.comments, 2);
    assert.deepEqual(await cardStorage(server), postgresPlugin(database.name));
    assert.deepEqual(await readBack(server, ids), before, 'the server keeps serving the same cards');
    const rows = await database.query<{ n: string }>('SELECT COUNT(*) AS n FROM kanban_cards');
    assert.equal(Number(rows[0].n), 2);
    const files = await database.query<{ filename: string }>('SELECT filename FROM kanban_attachments');
    assert.deepEqual(
      files.map((f) => f.filename),
      ['plan.txt'],
    );
    // A write after the switch lands in the database.
    const third = await createTask(server, { content: '# Third' });
    assert.equal((await database.query('SELECT id FROM kanban_cards WHERE id = ?', [third.id])).length, 1);

    const logFile = path.join(server.root, '.kanban', 'boards', 'default', 'logs', `${ids[0]}.jsonl`);
    await assert.rejects(fs.stat(logFile), 'the log file is moved aside: the database holds the log now');
    const back = okData<any>(await server.api('POST', '/api/storage/migrate-to-markdown'));
    assert.equal(back.from, 'postgres');
    assert.equal(back.to, 'markdown');
    assert.equal(back.cards, 3);
    assert.equal(await cardStorage(server), undefined);
    assert.deepEqual(await readBack(server, ids), {
      ...before,
      list: okData<any[]>(await server.api('GET', '/api/tasks')).map((t) => [t.id, t.status]),
    });
    assert.equal((await readBack(server, ids)).attachment, PLAN.toString());
    const names = (await listFiles(path.join(server.root, '.kanban'))).join('\n');
    assert.match(names, /plan\.txt/);
    assert.match(await fs.readFile(logFile, 'utf8'), /deployed/);
    assert.match(names, new RegExp(`${third.id}\\.md`));
  });

  it('when MySQL cards go to PostgreSQL, then the cards, the attachment and the log come across', async () => {
    const mysql = await createTestDatabase();
    databases.push(mysql);
    server = await startTestServer({ config: configWith({ 'card.storage': mysqlPlugin(mysql.name) }) });
    const { ids } = await fill(server);
    const before = await readBack(server, ids);
    const database = await postgres();
    const result = okData<any>(
      await server.api('POST', '/api/storage/migrate-to-postgres', { options: pgOptions(database.name) }),
    );
    assert.equal(result.from, 'mysql');
    assert.equal(result.to, 'postgres');
    assert.deepEqual(await cardStorage(server), postgresPlugin(database.name));
    assert.deepEqual(await readBack(server, ids), before);
    const logs = await database.query('SELECT * FROM kanban_logs');
    assert.ok(logs.length >= 1, 'the log entry is in the PostgreSQL database');
  });

  it('when PostgreSQL cards go to SQLite, then the attachment and the log come back into local files', async () => {
    const database = await postgres();
    server = await startTestServer({ config: configWith({ 'card.storage': postgresPlugin(database.name) }) });
    const { ids } = await fill(server);
    okData(await server.api('POST', `/api/tasks/${ids[1]}/open`));
    const before = await readBack(server, ids);
    const result = okData<any>(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    assert.deepEqual([result.from, result.to, result.sqlitePath], ['postgres', 'sqlite', '.kanban/kanban.db']);
    assert.deepEqual(await cardStorage(server), { provider: 'sqlite', options: { sqlitePath: '.kanban/kanban.db' } });
    assert.deepEqual(await readBack(server, ids), before);
    const opened = okData<any>(await server.api('GET', `/api/tasks/${ids[1]}`));
    assert.equal(opened.cardState?.open, true, 'the card state came back into the local file');
    const logFile = path.join(server.root, '.kanban', 'boards', 'default', 'logs', `${ids[0]}.jsonl`);
    assert.match(await fs.readFile(logFile, 'utf8'), /deployed/);
    await database.query('DELETE FROM kanban_attachment_chunks');
    await database.query('DELETE FROM kanban_attachments');
    assert.equal((await readBack(server, ids)).attachment, PLAN.toString(), 'served from the local file now');
    // Out of the shared event log, clients hear this instance's own events.
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const after = await createTask(server, { content: '# After the move' });
      await socket.waitFor((m) => m.event === 'task.created' && m.card?.id === after.id);
    } finally {
      socket.close();
    }
  });

  it('when Markdown cards go to PostgreSQL, then the configuration is shared at once: a label added through this instance reaches a second one over the database, and one added there comes back', async () => {
    server = await startTestServer({ config: configWith({}) });
    const database = await postgres();
    okData(await server.api('POST', '/api/storage/migrate-to-postgres', { options: pgOptions(database.name) }));
    okData(await server.api('PUT', '/api/labels/from-first', { color: '#112233' }));
    const second = await startTestServer({
      config: configWith({ 'card.storage': postgresPlugin(database.name, { pollIntervalMs: 100 }) }),
    });
    const labels = async (on: TestServer) => JSON.stringify(okData(await on.api('GET', '/api/labels')));
    try {
      assert.match(await labels(second), /from-first/, 'the second instance reads the configuration from the database');
      okData(await second.api('PUT', '/api/labels/from-second', { color: '#445566' }));
      await eventually(async () => assert.match(await labels(server!), /from-second/));
    } finally {
      await second.close();
    }
  });

  it('when a webhook with a secret is registered before migrating into PostgreSQL and its secret changed before migrating back, then each store holds the secret and every delivery is signed with it, also after a restart', async () => {
    const receiver = new Receiver();
    await receiver.listen();
    let secret = 'whsec-registered-in-markdown';
    /** A card made now reaches the receiver, signed with the secret the webhook has now. */
    const deliveredSigned = async (title: string) => {
      const card = await createTask(server!, { content: `# ${title}` });
      const arrived = () => receiver.on('/hook').find((r) => r.body?.card?.id === card.id);
      await receiver.until(() => arrived() !== undefined, `the delivery of "${title}"`, 15_000);
      const expected = 'sha256=' + createHmac('sha256', secret).update(arrived()!.rawBody).digest('hex');
      assert.equal(arrived()!.headers['x-webhook-signature'], expected, title);
    };
    try {
      server = await startTestServer({ config: configWith({}) });
      const hook = okData<any>(
        await server.api('POST', '/api/webhooks', { url: receiver.url('/hook'), events: ['task.created'], secret }),
        201,
      );
      await deliveredSigned('Before the migration');
      const database = await postgres();
      okData(await server.api('POST', '/api/storage/migrate-to-postgres', { options: pgOptions(database.name) }));
      const stored = async () =>
        (await database.query<{ value: string }>('SELECT value FROM kanban_webhook_secrets')).map((row) => row.value);
      assert.deepEqual(await stored(), [secret], 'the database holds the secret, so every instance over it can sign');
      await deliveredSigned('In PostgreSQL');
      await server.restart();
      await deliveredSigned('In PostgreSQL after a restart');

      // Changed over PostgreSQL, the secret is only in the database: the way back must carry it.
      secret = 'whsec-changed-in-postgres';
      okData(await server.api('PUT', `/api/webhooks/${hook.id}`, { secret }));
      assert.deepEqual(await stored(), [secret]);
      okData(await server.api('POST', '/api/storage/migrate-to-markdown'));
      await deliveredSigned('Back in Markdown');
      await database.query('DELETE FROM kanban_webhook_secrets');
      await server.restart();
      await deliveredSigned('Back in Markdown after a restart, the database emptied');
    } finally {
      await receiver.close();
    }
  });

  it('when the target database already holds cards, then 400 and the cards stay where they are', async () => {
    const database = await postgres();
    const other = await startTestServer({ config: configWith({ 'card.storage': postgresPlugin(database.name) }) });
    try {
      await createTask(other, { content: '# Already there' });
    } finally {
      await other.close();
    }
    server = await startTestServer({ config: configWith({}) });
    await createTask(server, { content: '# Mine' });
    const configBefore = await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8');
    failsWith(
      await server.api('POST', '/api/storage/migrate-to-postgres', { options: pgOptions(database.name) }),
      400,
      /already holds 1 card/,
    );
    assert.equal(await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8'), configBefore);
    assert.equal(okData<any[]>(await server.api('GET', '/api/tasks')).length, 1);
    failsWith(
      await server.api('POST', '/api/storage/migrate-to-mysql', { options: { database: 'x', url: 'postgres://' } }),
      400,
    );
  });

  it('when a migration names an environment variable not meant for the board, then 400 and nothing is read or moved', async () => {
    const database = await postgres();
    server = await startTestServer({ config: configWith({}) });
    await createTask(server, { content: '# Stays in its file' });
    failsWith(
      await server.api('POST', '/api/storage/migrate-to-postgres', {
        options: { ...pgOptions(database.name), password: '${HOME}' },
      }),
      400,
      /environment variable HOME; a migration may only read variables whose names start with KANBAN_/,
    );
    assert.equal(okData<any[]>(await server.api('GET', '/api/tasks')).length, 1);
    assert.equal(okData<any>(await server.api('GET', '/api/storage')).card.provider, 'markdown');
  });

  it('when the cards are already in PostgreSQL, then migrate-to-postgres answers 400', async () => {
    const database = await postgres();
    server = await startTestServer({ config: configWith({ 'card.storage': postgresPlugin(database.name) }) });
    failsWith(
      await server.api('POST', '/api/storage/migrate-to-postgres', { options: pgOptions(database.name) }),
      400,
      /already stored in PostgreSQL/,
    );
  });

  it('when `kanban storage migrate-to-postgres` runs with the password in an environment variable, then it draws progress and .kanban.json keeps the reference', async () => {
    buildCli();
    const root = await makeTempDir();
    const noDatabase = expectCode(await kanban(['storage', 'migrate-to-postgres', '--dir', root]), 2);
    assert.match(noDatabase.stderr, /needs --database-url or --database/);
    const database = await postgres();
    expectCode(await kanban(['add', 'Migrated', '--dir', root]), 0);
    const run = expectCode(
      await kanban(
        [
          'storage',
          'migrate-to-postgres',
          '--database',
          database.name,
          '--user',
          'postgres',
          '--password-env',
          'KANBAN_TEST_PG_PASSWORD',
          '--dir',
          root,
        ],
        { env: { KANBAN_PROGRESS: 'always', KANBAN_TEST_PG_PASSWORD: 'unused-with-trust' } },
      ),
      0,
    );
    assert.match(run.stderr, /moving every card to PostgreSQL/);
    assert.match(run.stderr, /copying cards \[#{24}\] 100%/);
    assert.match(run.stdout, /moved 1 card\(s\).* from markdown to postgres/);
    const config = JSON.parse(await fs.readFile(path.join(root, '.kanban.json'), 'utf8'));
    assert.deepEqual(config.plugins['card.storage'], {
      provider: 'postgres',
      options: { user: 'postgres', database: database.name, password: '${KANBAN_TEST_PG_PASSWORD}' },
    });
    const list = expectCode(
      await kanban(['list', '--json', '--dir', root], { env: { KANBAN_TEST_PG_PASSWORD: 'unused-with-trust' } }),
      0,
    );
    assert.match(list.stdout, /Migrated/);
  });
});
