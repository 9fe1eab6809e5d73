import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { configPath, createTask, failsWith, listIds, okData, readConfig } from '../helpers/envelope';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { eventually } from '../helpers/waiting';

describe('API saved views', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
    okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
  });
  afterEach(async () => {
    await server.close();
  });

  const urgent = {
    name: 'Urgent bugs',
    board: 'default',
    layout: 'table',
    filter: { priority: 'high', label: 'bug' },
    sort: '-modified',
    groupBy: 'assignee',
  };

  it('when a view is saved, then it is listed, read by id and written to .kanban.json with an id made from its name', async () => {
    const view = okData(await server.api('POST', '/api/views', urgent), 201);
    assert.deepEqual(view, { id: 'urgent-bugs', ...urgent });
    assert.deepEqual(okData(await server.api('GET', '/api/views')), [view]);
    assert.deepEqual(okData(await server.api('GET', '/api/views/urgent-bugs')), view);
    assert.deepEqual((await readConfig(server)).views, [view]);
  });

  it('when a view is saved twice under one name, then the second gets a numbered id', async () => {
    okData(await server.api('POST', '/api/views', urgent), 201);
    assert.equal(okData(await server.api('POST', '/api/views', urgent), 201).id, 'urgent-bugs-2');
  });

  it('when a view is changed, then omitted fields keep their values', async () => {
    okData(await server.api('POST', '/api/views', urgent), 201);
    const changed = okData(await server.api('PUT', '/api/views/urgent-bugs', { name: 'Hot', groupBy: null }));
    assert.deepEqual(changed, { ...urgent, id: 'urgent-bugs', name: 'Hot', groupBy: null });
    assert.deepEqual((await readConfig(server)).views, [changed]);
  });

  it('when a view is deleted, then it is gone from the list and the file', async () => {
    okData(await server.api('POST', '/api/views', urgent), 201);
    okData(await server.api('DELETE', '/api/views/urgent-bugs'));
    assert.deepEqual(okData(await server.api('GET', '/api/views')), []);
    assert.equal((await readConfig(server)).views, undefined);
  });

  it('when a view does not exist, then reading, changing and deleting it answer 404', async () => {
    failsWith(await server.api('GET', '/api/views/nope'), 404, /view "nope" not found/);
    failsWith(await server.api('PUT', '/api/views/nope', { name: 'x' }), 404, /view "nope"/);
    failsWith(await server.api('DELETE', '/api/views/nope'), 404, /view "nope"/);
  });

  const bad: [string, unknown, RegExp][] = [
    [
      'the filter has unknown keys',
      { ...urgent, filter: { colour: 'red', owner: 'x' } },
      /unknown keys "colour", "owner".*status/,
    ],
    ['the filter holds paging', { ...urgent, filter: { limit: 5 } }, /"limit"/],
    ['a filter value is out of its enum', { ...urgent, filter: { priority: 'urgent' } }, /priority.*one of/],
    ['the board does not exist', { ...urgent, board: 'nope' }, /board "nope" does not exist/],
    ['the layout is unknown', { ...urgent, layout: 'gantt' }, /layout/],
    ['the sort is unknown', { ...urgent, sort: 'colour' }, /sort/],
    ['the groupBy is unknown', { ...urgent, groupBy: 'colour' }, /groupBy/],
    ['the name is missing', { board: 'default' }, /"name"/],
    ['a field is unknown', { ...urgent, columns: [] }, /"columns"/],
  ];
  for (const [when, body, message] of bad) {
    it(`when ${when}, then saving answers 400 naming it and nothing is written`, async () => {
      failsWith(await server.api('POST', '/api/views', body), 400, message);
      assert.equal((await readConfig(server).catch(() => ({}))).views, undefined);
    });
  }

  it("when views are saved on a second board, then ?board= lists only that board's and deleting the board removes them", async () => {
    okData(await server.api('POST', '/api/views', urgent), 201);
    const ops = okData(
      await server.api('POST', '/api/views', { name: 'Ops todo', board: 'ops', filter: { status: 'todo' } }),
      201,
    );
    assert.deepEqual(ops, {
      id: 'ops-todo',
      name: 'Ops todo',
      board: 'ops',
      layout: 'board',
      filter: { status: 'todo' },
      sort: '',
      groupBy: null,
    });
    assert.deepEqual(
      okData(await server.api('GET', '/api/views?board=ops')).map((v: any) => v.id),
      ['ops-todo'],
    );
    okData(await server.api('DELETE', '/api/boards/ops'));
    assert.deepEqual(
      okData(await server.api('GET', '/api/views')).map((v: any) => v.id),
      ['urgent-bugs'],
    );
  });

  it("when views change, then one view event per change reaches WebSocket clients with the view's board", async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      okData(await server.api('POST', '/api/views', { name: 'Mine', board: 'ops' }), 201);
      okData(await server.api('PUT', '/api/views/mine', { layout: 'table' }));
      okData(await server.api('DELETE', '/api/views/mine'));
      await socket.waitFor((m) => m.event === 'view.deleted');
      const events = socket.events().filter((m) => m.event!.startsWith('view.'));
      assert.deepEqual(
        events.map((m) => [m.event, m.boardId, m.data.view.id]),
        [
          ['view.created', 'ops', 'mine'],
          ['view.updated', 'ops', 'mine'],
          ['view.deleted', 'ops', 'mine'],
        ],
      );
    } finally {
      socket.close();
    }
  });

  it('when .kanban.json holds a view with a bad board, then the file is reported invalid and the last good views stay', async () => {
    okData(await server.api('POST', '/api/views', urgent), 201);
    const config = await readConfig(server);
    await fs.writeFile(configPath(server), JSON.stringify({ ...config, views: [{ id: 'x', board: 'gone' }] }));
    await eventually(async () => {
      const files = okData(await server.api('GET', '/api/workspace')).invalidFiles;
      assert.match(JSON.stringify(files), /views\[0\]\.board.*gone/);
    });
    assert.deepEqual(
      okData(await server.api('GET', '/api/views')).map((v: any) => v.id),
      ['urgent-bugs'],
    );
  });
});

describe('API list with a saved view', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
    await createTask(server, { content: '# Alpha\n', priority: 'high', status: 'todo' });
    await createTask(server, { content: '# Beta\n', priority: 'high', status: 'todo', metadata: { team: 'web' } });
    await createTask(server, { content: '# Gamma\n', priority: 'low', status: 'todo' });
    await createTask(server, { content: '# Ops one\n', status: 'todo' }, 'ops');
    await createTask(server, { content: '# Ops two\n', status: 'done' }, 'ops');
    okData(
      await server.api('POST', '/api/views', {
        id: 'high',
        name: 'High',
        board: 'default',
        filter: { priority: 'high' },
        sort: '-title',
      }),
      201,
    );
    okData(
      await server.api('POST', '/api/views', {
        id: 'web',
        name: 'Web',
        board: 'default',
        filter: { 'meta.team': 'web' },
      }),
      201,
    );
    okData(
      await server.api('POST', '/api/views', {
        id: 'ops-todo',
        name: 'Ops todo',
        board: 'ops',
        filter: { status: 'todo' },
      }),
      201,
    );
  });
  after(async () => {
    await server.close();
  });

  const titles = async (query: string, board?: string) =>
    (await listIds(server, query, board)).map((id) => id.replace(/-\d{4}-\d{2}-\d{2}-[a-z0-9]{4}$/, ''));

  it("when the list names a view, then the view's filter and sort apply", async () => {
    assert.deepEqual(await titles('?view=high'), ['beta', 'alpha']);
    assert.deepEqual(await titles('?view=web'), ['beta']);
  });

  it("when the list names a view and its own parameters, then the request's parameters win", async () => {
    assert.deepEqual(await titles('?view=high&sort=title'), ['alpha', 'beta']);
    assert.deepEqual(await titles('?view=high&priority=low'), ['gamma']);
  });

  it('when the unscoped list names a view of another board, then that board is listed; a board path that differs is a 400', async () => {
    assert.deepEqual(await titles('?view=ops-todo'), ['ops-one']);
    assert.deepEqual(await titles('?view=ops-todo', 'ops'), ['ops-one']);
    failsWith(await server.api('GET', '/api/boards/default/tasks?view=ops-todo'), 400, /shows board "ops"/);
  });

  it('when the list names a view that does not exist, then it answers 400 naming it', async () => {
    failsWith(await server.api('GET', '/api/tasks?view=nope'), 400, /view "nope" does not exist/);
  });
});
