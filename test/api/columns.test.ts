import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import {
  asApiAnswer,
  configPath,
  createTask,
  exists,
  failsWith,
  okData,
  rawRequest,
  readConfig,
} from '../helpers/envelope';

const ids = (columns: { id: string }[]) => columns.map((c) => c.id);

/**
 * The same column operations reached three ways: on the default board, on a named board through the
 * `/boards/{id}` twin, and through `?boardId=`.
 */
const forms: { name: string; board: string; path: (rest: string) => string }[] = [
  { name: 'default board', board: 'default', path: (rest) => `/api/columns${rest}` },
  { name: 'board twin', board: 'ops', path: (rest) => `/api/boards/ops/columns${rest}` },
  {
    name: '?boardId=',
    board: 'ops',
    path: (rest) => `/api/columns${rest}${rest.includes('?') ? '&' : '?'}boardId=ops`,
  },
];

describe('API columns', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  for (const form of forms) {
    describe(`on the ${form.name}`, () => {
      beforeEach(async () => {
        if (form.board !== 'default')
          okData(await server.api('POST', '/api/boards', { id: form.board, name: 'Ops' }), 201);
      });

      async function columnsOf(board = form.board) {
        return okData(await server.api('GET', `/api/boards/${board}`)).columns;
      }

      it('when columns are listed, then they come in board order with id, name and color', async () => {
        const columns = okData(await server.api('GET', form.path('')));
        assert.deepEqual(ids(columns), ['backlog', 'todo', 'in-progress', 'review', 'done']);
        assert.deepEqual(columns[1], { id: 'todo', name: 'To Do', color: '#3b82f6' });
      });

      it('when a column is created, then 201, it is appended with the default color and saved', async () => {
        const column = okData(await server.api('POST', form.path(''), { id: 'qa', name: 'QA' }), 201);
        assert.deepEqual(column, { id: 'qa', name: 'QA', color: '#6b7280' });
        assert.deepEqual(ids(await columnsOf()).slice(-2), ['done', 'qa']);
        const saved = (await readConfig(server)).boards.find((b: { id: string }) => b.id === form.board);
        assert.deepEqual(saved.columns.at(-1), { id: 'qa', name: 'QA', color: '#6b7280' });
      });

      it('when a column is renamed and recolored, then both change and the id stays', async () => {
        const column = okData(await server.api('PUT', form.path('/todo'), { name: 'Next', color: '#123456' }));
        assert.deepEqual(column, { id: 'todo', name: 'Next', color: '#123456' });
        assert.deepEqual((await columnsOf())[1], column);
      });

      it('when only the color is sent, then the name is kept', async () => {
        assert.deepEqual(okData(await server.api('PUT', form.path('/todo'), { color: '#abc' })), {
          id: 'todo',
          name: 'To Do',
          color: '#abc',
        });
      });

      it('when columns are reordered, then the board has the new order', async () => {
        const order = ['done', 'review', 'in-progress', 'todo', 'backlog'];
        assert.deepEqual(ids(okData(await server.api('PUT', form.path('/reorder'), { columnIds: order }))), order);
        assert.deepEqual(ids(await columnsOf()), order);
      });

      it('when columns are minimized, then the board lists them', async () => {
        assert.deepEqual(okData(await server.api('PUT', form.path('/minimized'), { columnIds: ['done', 'backlog'] })), [
          'done',
          'backlog',
        ]);
        assert.deepEqual(okData(await server.api('GET', `/api/boards/${form.board}`)).minimizedColumnIds, [
          'done',
          'backlog',
        ]);
        okData(await server.api('PUT', form.path('/minimized'), { columnIds: [] }));
        assert.deepEqual(okData(await server.api('GET', `/api/boards/${form.board}`)).minimizedColumnIds, []);
      });

      it('when an empty column is deleted, then 200 and it is gone', async () => {
        okData(await server.api('DELETE', form.path('/review')));
        assert.deepEqual(ids(await columnsOf()), ['backlog', 'todo', 'in-progress', 'done']);
      });

      it('when a column holding a task is deleted, then 400 and it stays', async () => {
        await createTask(
          server,
          { content: '# Busy', status: 'review' },
          form.board === 'default' ? undefined : form.board,
        );
        failsWith(await server.api('DELETE', form.path('/review')), 400, /holds 1 card/);
        assert.ok(ids(await columnsOf()).includes('review'));
      });

      it('when a column is unknown, then rename and delete give 404', async () => {
        failsWith(await server.api('PUT', form.path('/nope'), { name: 'X' }), 404, /nope/);
        failsWith(await server.api('DELETE', form.path('/nope')), 404, /nope/);
      });
    });
  }

  describe('validation', () => {
    const badCreates: [string, unknown, RegExp][] = [
      ['the id is missing', { name: 'X' }, /"id"/],
      ['the name is missing', { id: 'x' }, /"name"/],
      ['the id is uppercase', { id: 'QA', name: 'QA' }, /column id/],
      ['the id holds a path', { id: '../x', name: 'X' }, /column id/],
      ['the id is the reserved deleted', { id: 'deleted', name: 'Deleted' }, /reserved/],
      ['the id names a folder the board keeps', { id: 'attachments', name: 'Files' }, /reserved/],
      ['the id is taken', { id: 'todo', name: 'Again' }, /already exists/],
      ['the color is not hex', { id: 'x', name: 'X', color: 'blue' }, /hex color/],
      ['the name is blank', { id: 'x', name: ' ' }, /name/],
      ['a field is unknown', { id: 'x', name: 'X', wip: 3 }, /wip/],
      ['the id is a number', { id: 7, name: 'X' }, /string/],
    ];
    for (const [what, body, message] of badCreates) {
      it(`when a column is created and ${what}, then 400 and nothing is written`, async () => {
        failsWith(await server.api('POST', '/api/columns', body), 400, message);
        assert.equal(await exists(configPath(server)), false);
      });
    }

    it('when a rename has a bad color or blank name, then 400', async () => {
      failsWith(await server.api('PUT', '/api/columns/todo', { color: '#12' }), 400, /hex color/);
      failsWith(await server.api('PUT', '/api/columns/todo', { name: '' }), 400, /name/);
      failsWith(await server.api('PUT', '/api/columns/todo', { id: 'other' }), 400, /"id"/);
    });

    it('when a reorder leaves out, repeats or invents a column, then 400 and the order is kept', async () => {
      for (const columnIds of [
        ['todo'],
        ['backlog', 'todo', 'in-progress', 'review', 'review'],
        ['backlog', 'todo', 'in-progress', 'review', 'done', 'x'],
      ]) {
        failsWith(await server.api('PUT', '/api/columns/reorder', { columnIds }), 400, /every column/);
      }
      failsWith(await server.api('PUT', '/api/columns/reorder', {}), 400, /columnIds/);
      failsWith(await server.api('PUT', '/api/columns/reorder', { columnIds: 'todo' }), 400, /array/);
      assert.equal(okData(await server.api('GET', '/api/columns'))[0].id, 'backlog');
    });

    it('when minimized names an unknown column, then 400', async () => {
      failsWith(await server.api('PUT', '/api/columns/minimized', { columnIds: ['nope'] }), 400, /nope/);
    });

    it('when the built-in deleted column is deleted, then 400', async () => {
      failsWith(await server.api('DELETE', '/api/columns/deleted'), 400, /built in/);
    });

    it('when ?boardId= names no board, then 400', async () => {
      failsWith(await server.api('GET', '/api/columns?boardId=nope'), 400, /nope/);
      failsWith(await server.api('PUT', '/api/columns/reorder?boardId=nope', { columnIds: [] }), 400, /nope/);
    });

    it('when the twin names no board, then listing gives 400', async () => {
      failsWith(await server.api('GET', '/api/boards/nope/columns'), 400, /nope/);
    });

    it('when the column id in the path is not a valid id, then 400 rather than 404', async () => {
      failsWith(await server.api('PUT', '/api/columns/Todo', { name: 'X' }), 400, /column id/);
      failsWith(asApiAnswer(await rawRequest(server, 'DELETE', '/api/columns/%2e%2e')), 400, /column id/);
      failsWith(asApiAnswer(await rawRequest(server, 'DELETE', '/api/boards/default/columns/a%2Fb')), 400, /column id/);
    });

    it('when the twin board id is hostile, then 400', async () => {
      failsWith(asApiAnswer(await rawRequest(server, 'GET', '/api/boards/%2e%2e/columns')), 400, /board id/);
      failsWith(
        asApiAnswer(
          await rawRequest(server, 'POST', '/api/boards/UP/columns', {
            headers: { 'content-type': 'application/json' },
            body: '{"id":"x","name":"X"}',
          }),
        ),
        400,
        /board id/,
      );
    });

    it('when a column is deleted that is the board default status, then new cards fall back to another column', async () => {
      okData(await server.api('DELETE', '/api/columns/backlog'));
      const task = await createTask(server, 'Where to');
      assert.equal(task.status, 'todo');
    });
  });
});
