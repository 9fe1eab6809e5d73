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

const STANDARD_IDS = ['backlog', 'todo', 'in-progress', 'review', 'done'];

describe('API boards', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('listing and reading', () => {
    it('when the workspace is new, then the list holds one default board with the standard columns', async () => {
      const boards = okData(await server.api('GET', '/api/boards'));
      assert.equal(boards.length, 1);
      assert.deepEqual(
        { ...boards[0], columns: boards[0].columns.map((c: { id: string }) => c.id) },
        { id: 'default', name: 'Default', description: null, isDefault: true, taskCount: 0, columns: STANDARD_IDS },
      );
    });

    it('when the workspace is only read, then no .kanban.json is written', async () => {
      await server.api('GET', '/api/boards');
      await server.api('GET', '/api/boards/default');
      await server.api('GET', '/api/columns');
      assert.equal(await exists(configPath(server)), false);
    });

    it('when a board is fetched, then its full config comes back with effective defaults and minimized columns', async () => {
      const board = okData(await server.api('GET', '/api/boards/default'));
      assert.equal(board.id, 'default');
      assert.equal(
        board.defaultStatus,
        'backlog',
        'not set on the board: the effective value (workspace setting, else first column)',
      );
      assert.equal(board.defaultPriority, 'medium');
      assert.deepEqual(board.actions, {});
      assert.deepEqual(board.minimizedColumnIds, []);
      assert.deepEqual(board.columns[0], { id: 'backlog', name: 'Backlog', color: '#6b7280' });
    });

    it('when the board does not exist, then 404', async () => {
      failsWith(await server.api('GET', '/api/boards/nope'), 404, /nope/);
    });

    for (const bad of ['Default', '..%2Fx', '%2e%2e', 'a%20b', '-x']) {
      it(`when the board id is "${bad}", then 400 and nothing is read outside the workspace`, async () => {
        failsWith(asApiAnswer(await rawRequest(server, 'GET', `/api/boards/${bad}`)), 400, /board id/);
      });
    }

    it('when a task list counts cards, then soft-deleted cards are not counted', async () => {
      await createTask(server, 'One');
      const two = await createTask(server, 'Two');
      okData(await server.api('DELETE', `/api/tasks/${two.id}`));
      const [board] = okData(await server.api('GET', '/api/boards'));
      assert.equal(board.taskCount, 1);
    });
  });

  describe('creating', () => {
    it('when a board is created with id and name, then 201, it inherits the default board columns and is saved', async () => {
      okData(await server.api('POST', '/api/columns', { id: 'qa', name: 'QA' }), 201);
      const board = okData(
        await server.api('POST', '/api/boards', { id: 'ops', name: 'Operations', description: 'run things' }),
        201,
      );
      assert.deepEqual(
        board.columns.map((c: { id: string }) => c.id),
        [...STANDARD_IDS, 'qa'],
      );
      assert.equal(board.description, 'run things');
      const saved = await readConfig(server);
      assert.equal(saved.version, 2);
      assert.deepEqual(
        saved.boards.map((b: { id: string }) => b.id),
        ['default', 'ops'],
      );
      const listed = okData(await server.api('GET', '/api/boards')).find((b: { id: string }) => b.id === 'ops');
      assert.equal(listed.isDefault, false);
    });

    it('when a board is created with columns, then it has exactly those, colors defaulted', async () => {
      const board = okData(
        await server.api('POST', '/api/boards', {
          id: 'mini',
          name: 'Mini',
          columns: [
            { id: 'new', name: 'New' },
            { id: 'old', name: 'Old', color: '#000' },
          ],
        }),
        201,
      );
      assert.deepEqual(board.columns, [
        { id: 'new', name: 'New', color: '#6b7280' },
        { id: 'old', name: 'Old', color: '#000' },
      ]);
    });

    it('when a board is created, then new cards on it go to its default status', async () => {
      okData(
        await server.api('POST', '/api/boards', {
          id: 'ops',
          name: 'Ops',
          defaultStatus: 'todo',
          defaultPriority: 'high',
        }),
        201,
      );
      const task = await createTask(server, 'On ops', 'ops');
      assert.equal(task.boardId, 'ops');
      assert.equal(task.status, 'todo');
      assert.equal(task.priority, 'high');
    });

    const invalid: [string, unknown, RegExp][] = [
      ['the id is missing', { name: 'X' }, /"id"/],
      ['the name is missing', { id: 'x' }, /"name"/],
      ['the id has a path in it', { id: '../x', name: 'X' }, /board id/],
      ['the id is uppercase', { id: 'Ops', name: 'X' }, /board id/],
      ['the name is empty', { id: 'x', name: '  ' }, /name/],
      ['the name is a number', { id: 'x', name: 5 }, /name.*string/],
      ['a field is unknown', { id: 'x', name: 'X', colour: 'red' }, /colour/],
      ['a column id is invalid', { id: 'x', name: 'X', columns: [{ id: 'A B', name: 'A' }] }, /column id/],
      ['a column is called deleted', { id: 'x', name: 'X', columns: [{ id: 'deleted', name: 'Gone' }] }, /reserved/],
      [
        'two columns share an id',
        {
          id: 'x',
          name: 'X',
          columns: [
            { id: 'a', name: 'A' },
            { id: 'a', name: 'B' },
          ],
        },
        /twice/,
      ],
      [
        'a column color is not hex',
        { id: 'x', name: 'X', columns: [{ id: 'a', name: 'A', color: 'red' }] },
        /hex color/,
      ],
      ['the default status is not a column', { id: 'x', name: 'X', defaultStatus: 'nowhere' }, /defaultStatus/],
      ['the default priority is unknown', { id: 'x', name: 'X', defaultPriority: 'urgent' }, /defaultPriority/],
    ];
    for (const [what, body, message] of invalid) {
      it(`when ${what}, then 400 and nothing is written`, async () => {
        failsWith(await server.api('POST', '/api/boards', body), 400, message);
        assert.equal(await exists(configPath(server)), false);
      });
    }

    it('when the id is taken, then 400', async () => {
      failsWith(await server.api('POST', '/api/boards', { id: 'default', name: 'Again' }), 400, /already exists/);
    });
  });

  describe('updating', () => {
    it('when only the name is sent, then the other fields keep their values', async () => {
      okData(
        await server.api('POST', '/api/boards', {
          id: 'ops',
          name: 'Ops',
          description: 'keep me',
          defaultStatus: 'todo',
        }),
        201,
      );
      const board = okData(await server.api('PUT', '/api/boards/ops', { name: 'Operations' }));
      assert.equal(board.name, 'Operations');
      assert.equal(board.description, 'keep me');
      assert.equal(board.defaultStatus, 'todo');
      assert.equal(board.columns.length, 5);
      assert.equal(okData(await server.api('GET', '/api/boards/ops')).name, 'Operations');
    });

    it('when columns are replaced, then the board has the new list and the old minimized ids are pruned', async () => {
      okData(await server.api('PUT', '/api/columns/minimized', { columnIds: ['done', 'todo'] }));
      const board = okData(
        await server.api('PUT', '/api/boards/default', {
          columns: [
            { id: 'todo', name: 'Todo' },
            { id: 'later', name: 'Later' },
          ],
        }),
      );
      assert.deepEqual(
        board.columns.map((c: { id: string }) => c.id),
        ['todo', 'later'],
      );
      assert.deepEqual(board.minimizedColumnIds, ['todo']);
    });

    it('when new columns would drop a column that holds cards, then 400 and the board is unchanged', async () => {
      await createTask(server, { content: '# Busy', status: 'review' });
      failsWith(
        await server.api('PUT', '/api/boards/default', { columns: [{ id: 'todo', name: 'Todo' }] }),
        400,
        /review/,
      );
      assert.equal(okData(await server.api('GET', '/api/columns')).length, 5);
    });

    it('when defaultStatus names a column, then it is used for new cards', async () => {
      okData(await server.api('PUT', '/api/boards/default', { defaultStatus: 'review' }));
      assert.equal((await createTask(server, 'Goes to review')).status, 'review');
    });

    const invalid: [string, unknown, RegExp][] = [
      ['defaultStatus is not a column', { defaultStatus: 'nowhere' }, /defaultStatus/],
      ['defaultPriority is unknown', { defaultPriority: 'urgent' }, /defaultPriority/],
      ['the read-only id is sent', { id: 'other' }, /"id"/],
      ['actions are sent (they have their own routes)', { actions: {} }, /"actions"/],
      ['the name is empty', { name: '' }, /name/],
      ['description is not text', { description: 7 }, /description/],
    ];
    for (const [what, body, message] of invalid) {
      it(`when ${what}, then 400`, async () => {
        failsWith(await server.api('PUT', '/api/boards/default', body), 400, message);
      });
    }

    it('when the board does not exist, then 404', async () => {
      failsWith(await server.api('PUT', '/api/boards/nope', { name: 'X' }), 404);
    });
  });

  describe('deleting', () => {
    it('when an empty board that is not the default is deleted, then 200 and it is gone from list and file', async () => {
      okData(await server.api('POST', '/api/boards', { id: 'tmp', name: 'Tmp' }), 201);
      okData(await server.api('DELETE', '/api/boards/tmp'));
      failsWith(await server.api('GET', '/api/boards/tmp'), 404);
      assert.deepEqual(
        (await readConfig(server)).boards.map((b: { id: string }) => b.id),
        ['default'],
      );
    });

    it('when the default board is deleted, then 400', async () => {
      failsWith(await server.api('DELETE', '/api/boards/default'), 400, /default board/);
    });

    it('when the board still holds a card, even a soft-deleted one, then 400', async () => {
      okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
      const task = await createTask(server, 'Hold on', 'ops');
      failsWith(await server.api('DELETE', '/api/boards/ops'), 400, /card/);
      okData(await server.api('DELETE', `/api/boards/ops/tasks/${task.id}`));
      failsWith(await server.api('DELETE', '/api/boards/ops'), 400, /card/);
      okData(await server.api('DELETE', `/api/boards/ops/tasks/${task.id}/permanent`));
      okData(await server.api('DELETE', '/api/boards/ops'));
    });

    it('when the board does not exist, then 404', async () => {
      failsWith(await server.api('DELETE', '/api/boards/nope'), 404);
    });
  });

  describe('board actions', () => {
    it('when actions are replaced, added and removed, then the map follows and is saved', async () => {
      assert.deepEqual(okData(await server.api('GET', '/api/boards/default/actions')), {});
      assert.deepEqual(
        okData(await server.api('POST', '/api/boards/default/actions', { actions: { build: 'Build', ship: 'Ship' } })),
        { build: 'Build', ship: 'Ship' },
      );
      assert.deepEqual(
        okData(await server.api('POST', '/api/boards/default/actions', { actions: { ship: 'Ship it' } })),
        { ship: 'Ship it' },
      );
      assert.deepEqual(
        okData(await server.api('PUT', '/api/boards/default/actions/test%20run', { title: 'Test run' })),
        { ship: 'Ship it', 'test run': 'Test run' },
      );
      const deleted = await server.api('DELETE', '/api/boards/default/actions/ship');
      assert.equal(deleted.status, 204);
      assert.equal(deleted.body, null);
      assert.deepEqual((await readConfig(server)).boards[0].actions, { 'test run': 'Test run' });
    });

    it('when an action is triggered, then 204; an unknown one gives 404', async () => {
      okData(await server.api('PUT', '/api/boards/default/actions/build', { title: 'Build' }));
      assert.equal((await server.api('POST', '/api/boards/default/actions/build/trigger')).status, 204);
      failsWith(await server.api('POST', '/api/boards/default/actions/nope/trigger'), 404, /nope/);
      failsWith(await server.api('DELETE', '/api/boards/default/actions/nope'), 404, /nope/);
    });

    it('when the action body is wrong, then 400', async () => {
      failsWith(await server.api('POST', '/api/boards/default/actions', {}), 400, /actions/);
      failsWith(await server.api('POST', '/api/boards/default/actions', { actions: { a: 1 } }), 400, /string/);
      failsWith(await server.api('PUT', '/api/boards/default/actions/a', { title: '' }), 400, /title/);
      failsWith(await server.api('PUT', '/api/boards/default/actions/a', {}), 400, /title/);
    });

    it('when the board does not exist, then the action routes give 404', async () => {
      failsWith(await server.api('GET', '/api/boards/nope/actions'), 404);
      failsWith(await server.api('PUT', '/api/boards/nope/actions/a', { title: 'A' }), 404);
    });
  });
});
