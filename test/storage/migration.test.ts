import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteCardStore } from '../../server/storage/sqlite/sqliteCardStore';
import { listFiles, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, exists, failsWith, okData } from '../helpers/envelope';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { configWith } from './helpers/cardProviders';

/** Everything a client can read about every card of every board, in list order (deleted cards too). */
async function snapshot(server: TestServer): Promise<unknown> {
  const boards = okData<any[]>(await server.api('GET', '/api/boards')).map((b) => b.id);
  const result: Record<string, unknown[]> = {};
  for (const board of boards) {
    const list = okData<any[]>(await server.api('GET', `/api/boards/${board}/tasks?includeDeleted=true`));
    result[board] = [];
    for (const { id } of list) {
      const {
        filePath: _file,
        cardState: _state,
        ...task
      } = okData(await server.api('GET', `/api/boards/${board}/tasks/${id}`));
      result[board].push(task);
    }
  }
  return result;
}

/** A workspace with cards on two boards: comments (one edited), ordering by moves, attachments, a soft-deleted card. */
async function fillWorkspace(server: TestServer): Promise<string[]> {
  const ids: string[] = [];
  for (const title of ['Alpha', 'Beta', 'Gamma', 'Delta'])
    ids.push((await createTask(server, { content: `# ${title}\n\nbody of ${title}`, labels: ['x'] })).id);
  okData(await server.api('PATCH', `/api/tasks/${ids[3]}/move`, { status: 'backlog', position: 0 }));
  okData(await server.api('PATCH', `/api/tasks/${ids[1]}/move`, { status: 'review', position: 0 }));
  const comment = okData(
    await server.api('POST', `/api/tasks/${ids[0]}/comments`, {
      author: 'ana',
      content: 'first\n---\nnot frontmatter',
    }),
    201,
  );
  okData(await server.api('POST', `/api/tasks/${ids[0]}/comments`, { author: 'bo', content: 'second' }), 201);
  okData(await server.api('PUT', `/api/tasks/${ids[0]}/comments/${comment.id}`, { content: 'first, edited' }));
  okData(
    await server.api('POST', `/api/tasks/${ids[2]}/attachments`, {
      files: [{ name: 'plan.txt', data: Buffer.from('the plan').toString('base64') }],
    }),
  );
  okData(await server.api('DELETE', `/api/tasks/${ids[2]}`));
  for (const title of ['Ops one', 'Ops two']) {
    ids.push(
      (await createTask(server, { content: `# ${title}\n`, status: 'doing', metadata: { team: 'ops', n: 2 } }, 'ops'))
        .id,
    );
  }
  okData(await server.api('PATCH', `/api/boards/ops/tasks/${ids[5]}/move`, { status: 'doing', position: 0 }));
  return ids;
}

async function configText(server: TestServer): Promise<string> {
  return fs.readFile(path.join(server.root, '.kanban.json'), 'utf8');
}

async function markdownFiles(server: TestServer): Promise<string[]> {
  return (await listFiles(path.join(server.root, '.kanban', 'boards'))).filter((f) => f.endsWith('.md'));
}

describe('storage migration between Markdown and SQLite', function () {
  this.timeout(60_000);
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: configWith({}) });
  });
  afterEach(async () => {
    await server.close();
  });

  it('when Markdown cards are migrated to SQLite, then the service serves the same cards from SQLite at once and the files stay as a backup', async () => {
    await fillWorkspace(server);
    const before = await snapshot(server);
    const filesBefore = await markdownFiles(server);
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    const result = okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    assert.deepEqual(
      {
        from: result.from,
        to: result.to,
        sqlitePath: result.sqlitePath,
        cards: result.cards,
        comments: result.comments,
        attachments: result.attachments,
        boards: result.boards,
      },
      {
        from: 'markdown',
        to: 'sqlite',
        sqlitePath: '.kanban/kanban.db',
        cards: 6,
        comments: 2,
        attachments: 1,
        boards: { default: 4, ops: 2 },
      },
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'sqlite');
    assert.equal(okData(await server.api('GET', '/api/workspace')).providers.card.provider, 'sqlite');
    assert.deepEqual(await snapshot(server), before);
    assert.deepEqual(await markdownFiles(server), filesBefore, 'the Markdown files stay in place as a backup');
    const config = JSON.parse(await configText(server));
    assert.deepEqual(config.plugins['card.storage'], {
      provider: 'sqlite',
      options: { sqlitePath: '.kanban/kanban.db' },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.close();
    assert.deepEqual(
      socket.events().map((e) => e.event),
      ['storage.migrated'],
    );
    assert.equal(socket.events()[0].data.cards, 6);

    // New writes go to SQLite only.
    const fresh = await createTask(server, 'After the move');
    assert.deepEqual(await markdownFiles(server), filesBefore);
    const db = new Database(path.join(server.root, '.kanban', 'kanban.db'), { readonly: true });
    try {
      assert.equal((db.prepare('SELECT COUNT(*) AS n FROM kanban_cards').get() as any).n, 7);
      assert.ok(db.prepare('SELECT 1 FROM kanban_cards WHERE id = ?').get(fresh.id));
    } finally {
      db.close();
    }
    const attachment = await fetch(
      `${server.url}/api/tasks/${(before as any).default.find((t: any) => t.attachments.length).id}/attachments/plan.txt`,
    );
    assert.equal(await attachment.text(), 'the plan');

    await server.restart();
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'sqlite');
    const after = (await snapshot(server)) as any;
    after.default = after.default.filter((t: any) => t.id !== fresh.id);
    assert.deepEqual(after, before);
  });

  it('when cards go to SQLite, change there, and come back to Markdown, then the files hold exactly the current cards', async () => {
    const ids = await fillWorkspace(server);
    okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    // Changes made while on SQLite: the old Markdown files are now stale.
    okData(await server.api('DELETE', `/api/tasks/${ids[1]}/permanent`));
    okData(
      await server.api('POST', `/api/tasks/${ids[0]}/comments`, { author: 'cy', content: 'while on sqlite' }),
      201,
    );
    okData(await server.api('PATCH', `/api/boards/ops/tasks/${ids[4]}/move`, { status: 'closed' }));
    const added = await createTask(server, 'Born in SQLite');
    const current = await snapshot(server);

    const result = okData(await server.api('POST', '/api/storage/migrate-to-markdown'));
    assert.equal(result.to, 'markdown');
    assert.equal(result.cards, 6);
    assert.match(result.movedAside, /^\.kanban\/backups\/markdown-/);
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'markdown');
    assert.equal(okData(await server.api('GET', '/api/workspace')).providers.card.provider, 'markdown');
    assert.deepEqual(await snapshot(server), current);
    const files = await markdownFiles(server);
    assert.equal(files.length, 6);
    assert.ok(!files.some((f) => f.includes(ids[1])), 'the card deleted while on SQLite does not come back');
    assert.ok(files.includes(path.join('default', 'backlog', `${added.id}.md`)));
    assert.ok(files.includes(path.join('ops', 'closed', `${ids[4]}.md`)));
    assert.equal(JSON.parse(await configText(server)).plugins?.['card.storage'], undefined);
    assert.ok(await exists(path.join(server.root, '.kanban', 'kanban.db')), 'the database stays as a backup');
    assert.ok(
      await exists(path.join(server.root, result.movedAside, 'boards', 'default', 'review', `${ids[1]}.md`)),
      'stale files are moved aside, not deleted',
    );
    const attachment = await fetch(`${server.url}/api/tasks/${ids[2]}/attachments/plan.txt`);
    assert.equal(await attachment.text(), 'the plan', 'the attachment still downloads after the way back');

    await server.restart();
    assert.deepEqual(await snapshot(server), current);
  });

  it('when an agent holds a card while the cards go to SQLite and back, then its claim and session go with them and another agent is still refused', async () => {
    const card = await createTask(server, { content: '# Held\n', status: 'todo' });
    const as = (agent: string) => ({ 'X-Kanban-Agent': agent });
    okData(await server.api('PUT', `/api/tasks/${card.id}/session`, { state: 'active', note: 'midway' }, as('holder')));
    for (const [route, store] of [
      ['migrate-to-sqlite', 'database'],
      ['migrate-to-markdown', 'files'],
    ]) {
      okData(await server.api('POST', `/api/storage/${route}`, {}));
      assert.equal(okData(await server.api('GET', '/api/workspace')).claims.store, store, route);
      const held = okData(await server.api('GET', `/api/tasks/${card.id}`));
      assert.deepEqual([held.claim?.agent, held.session?.note], ['holder', 'midway'], route);
      failsWith(
        await server.api('POST', `/api/tasks/${card.id}/claim`, {}, as('other')),
        409,
        /claimed by agent holder/,
      );
    }
  });

  it('when migrating to SQLite again after a round trip, then the database holds the current cards and its older content is backed up', async () => {
    const ids = await fillWorkspace(server);
    okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    okData(await server.api('POST', '/api/storage/migrate-to-markdown'));
    okData(await server.api('DELETE', `/api/tasks/${ids[0]}/permanent`));
    const current = await snapshot(server);
    const result = okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    assert.equal(result.cards, 5);
    assert.match(result.movedAside, /^\.kanban\/backups\/kanban-.*\.db$/);
    assert.deepEqual(await snapshot(server), current);
    await server.restart();
    assert.deepEqual(await snapshot(server), current);
  });

  it('when a sqlitePath is given, then the database is created there and named in .kanban.json', async () => {
    await createTask(server, 'Elsewhere');
    const result = okData(await server.api('POST', '/api/storage/migrate-to-sqlite', { sqlitePath: 'data/cards.db' }));
    assert.equal(result.sqlitePath, 'data/cards.db');
    assert.ok(await exists(path.join(server.root, 'data', 'cards.db')));
    assert.equal(JSON.parse(await configText(server)).plugins['card.storage'].options.sqlitePath, 'data/cards.db');
    await server.restart();
    assert.equal(okData(await server.api('GET', '/api/tasks')).length, 1);
  });

  it('when the cards are already where the migration would move them, then 400 and nothing changes', async () => {
    failsWith(await server.api('POST', '/api/storage/migrate-to-markdown'), 400, /already stored as Markdown/);
    okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    const config = await configText(server);
    failsWith(await server.api('POST', '/api/storage/migrate-to-sqlite', {}), 400, /already stored in SQLite/);
    assert.equal(await configText(server), config);
  });

  for (const [what, body, message] of [
    ['a path leaving the workspace', { sqlitePath: '../outside.db' }, /leaves the workspace/],
    ['an absolute path', { sqlitePath: '/tmp/kanban-absolute.db' }, /relative to the workspace root/],
    ['an empty path', { sqlitePath: '' }, /non-empty path/],
    ['a number', { sqlitePath: 42 }, /sqlitePath/],
    ['an unknown field', { path: 'x.db' }, /path/],
    ['a path inside the card folders', { sqlitePath: '.kanban/boards/default/x.db' }, /inside \.kanban\/boards/],
    ['an existing folder', { sqlitePath: '.kanban' }, /not a file/],
    ['a name without a database ending', { sqlitePath: '#' }, /ending in \.db, \.sqlite or \.sqlite3/],
    ['a name made of SQL', { sqlitePath: "' OR '1'='1' --" }, /ending in \.db, \.sqlite or \.sqlite3/],
    ['a database name with odd characters', { sqlitePath: 'data/#cards.db' }, /ending in \.db, \.sqlite or \.sqlite3/],
  ] as const) {
    it(`when sqlitePath is ${what}, then 400 and the cards stay in Markdown`, async () => {
      await createTask(server, 'Stays');
      await fs.mkdir(path.join(server.root, '.kanban'), { recursive: true });
      failsWith(await server.api('POST', '/api/storage/migrate-to-sqlite', body), 400, message);
      assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'markdown');
      assert.equal(await exists(path.join(server.root, '.kanban', 'kanban.db')), false);
      assert.equal(await exists(path.join(server.root, '..', 'outside.db')), false);
      if (typeof body.sqlitePath === 'string' && body.sqlitePath !== '' && body.sqlitePath !== '.kanban')
        assert.equal(await exists(path.join(server.root, body.sqlitePath)), false, 'no file of that name was made');
    });
  }

  it('when the target file is not a database, then 400, the file is untouched and the cards stay in Markdown', async () => {
    await createTask(server, 'Stays');
    const junk = path.join(server.root, 'notes.db');
    await fs.writeFile(junk, 'plain text, not SQLite\n'.repeat(50));
    failsWith(
      await server.api('POST', '/api/storage/migrate-to-sqlite', { sqlitePath: 'notes.db' }),
      400,
      /nothing was changed.*not a database/,
    );
    assert.equal(await fs.readFile(junk, 'utf8'), 'plain text, not SQLite\n'.repeat(50));
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'markdown');
  });

  it('when writing to SQLite fails half-way, then 400 and everything is as it was: provider, config, files and the database rows', async () => {
    await fillWorkspace(server);
    // A database that already holds one card and refuses cards of board "ops" part-way through the copy.
    const file = path.join(server.root, '.kanban', 'kanban.db');
    const seed = await SqliteCardStore.open({ sqlitePath: '.kanban/kanban.db', absolutePath: file }, 1000);
    await seed.create({
      id: 'old-card',
      boardId: 'default',
      status: 'todo',
      content: '# Old\n',
      priority: 'low',
      labels: [],
      metadata: {},
      forms: [],
      formData: {},
      attachments: [],
      comments: [],
      order: 'a0',
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
    });
    await seed.close();
    const raw = new Database(file);
    raw.exec(
      `CREATE TRIGGER refuse_ops BEFORE INSERT ON kanban_cards WHEN NEW.board_id = 'ops' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    raw.close();
    const before = await snapshot(server);
    const config = await configText(server);
    const files = await markdownFiles(server);

    failsWith(
      await server.api('POST', '/api/storage/migrate-to-sqlite', {}),
      400,
      /migration failed.*nothing was changed.*refused by the test/,
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'markdown');
    assert.equal(await configText(server), config);
    assert.deepEqual(await markdownFiles(server), files);
    assert.deepEqual(await snapshot(server), before);
    const db = new Database(file, { readonly: true });
    try {
      assert.deepEqual(
        db.prepare('SELECT id FROM kanban_cards').all(),
        [{ id: 'old-card' }],
        'the rows the database held are back',
      );
    } finally {
      db.close();
    }
    // The service goes on working with Markdown.
    const later = await createTask(server, 'Still markdown');
    assert.ok((await markdownFiles(server)).some((f) => f.includes(later.id)));
  });

  it('when writing Markdown files fails half-way, then 400 and everything is as it was: provider, config, database and old files', async () => {
    const ids = await fillWorkspace(server);
    okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
    okData(await server.api('DELETE', `/api/tasks/${ids[1]}/permanent`));
    const blocked = await createTask(server, { content: '# Born on SQLite\n', status: 'doing' }, 'ops');
    const staleFiles = await markdownFiles(server);
    // Something in the way of one card file: a folder with the card's file name, on the second board.
    await fs.mkdir(path.join(server.root, '.kanban', 'boards', 'ops', 'doing', `${blocked.id}.md`), {
      recursive: true,
    });
    const before = await snapshot(server);
    const config = await configText(server);

    failsWith(
      await server.api('POST', '/api/storage/migrate-to-markdown'),
      400,
      /migration failed while writing the Markdown files; nothing was changed/,
    );
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'sqlite');
    assert.equal(await configText(server), config);
    assert.deepEqual(
      await markdownFiles(server),
      staleFiles,
      'the old files are back where they were, and nothing new is left behind',
    );
    assert.equal(await exists(path.join(server.root, '.kanban', 'backups')), false);
    assert.deepEqual(await snapshot(server), before);
    okData(await server.api('POST', `/api/tasks/${ids[0]}/comments`, { author: 'a', content: 'still on sqlite' }), 201);
    await server.restart();
    assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'sqlite');
  });
});

describe('storage migration into a SQLite file that card state and attachments already use', function () {
  this.timeout(60_000);

  it('when cards move into the shared file and back, then the attachments and card state in it are kept', async () => {
    const shared = { provider: 'sqlite', options: {} };
    const server = await startTestServer({
      config: configWith({ 'attachment.storage': shared, 'card.state': shared }),
    });
    try {
      const ids = await fillWorkspace(server);
      okData(await server.api('POST', `/api/tasks/${ids[0]}/open`));
      const before = await snapshot(server);
      const opened = () => server.api('GET', `/api/tasks/${ids[0]}`).then((a) => okData(a).cardState.open);
      const plan = async () => (await fetch(`${server.url}/api/tasks/${ids[2]}/attachments/plan.txt`)).text();
      assert.equal(await plan(), 'the plan');

      const result = okData(await server.api('POST', '/api/storage/migrate-to-sqlite', {}));
      assert.equal(result.sqlitePath, '.kanban/kanban.db');
      assert.deepEqual(await snapshot(server), before);
      assert.equal(await opened(), true);
      assert.equal(await plan(), 'the plan');

      okData(await server.api('POST', '/api/storage/migrate-to-markdown'));
      assert.deepEqual(await snapshot(server), before);
      await server.restart();
      assert.equal(okData(await server.api('GET', '/api/storage')).card.provider, 'markdown');
      assert.deepEqual(await snapshot(server), before);
      assert.equal(await opened(), true);
      assert.equal(await plan(), 'the plan');
    } finally {
      await server.close();
    }
  });
});

describe('storage migration from a shared SQLite file', function () {
  this.timeout(30_000);

  it('when the SQLite file is shared by several processes, then migrate-to-markdown answers 400, writes no Markdown file and leaves .kanban.json alone', async () => {
    const server = await startTestServer({
      config: configWith({ 'card.storage': { provider: 'sqlite', options: { shared: true } } }),
    });
    try {
      await createTask(server, { content: '# Stays in SQLite\n' });
      const config = await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8');
      failsWith(
        await server.api('POST', '/api/storage/migrate-to-markdown'),
        400,
        /several server processes share \(shared: true\)/,
      );
      assert.equal(await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8'), config);
      assert.deepEqual(await listFiles(path.join(server.root, '.kanban', 'boards')).catch(() => []), []);
    } finally {
      await server.close();
    }
  });
});
