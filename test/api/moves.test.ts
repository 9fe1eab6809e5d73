import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, failsWith, listIds, okData } from '../helpers/envelope';

describe('API tasks: moves, deletes and transfers', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  /** Create tasks A..n in one column, listed in creation order. */
  async function column(titles: string[], status = 'todo'): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    for (const title of titles) ids[title] = (await createTask(server, { content: `# ${title}`, status })).id;
    return ids;
  }

  async function titlesIn(status: string, boardId?: string): Promise<string[]> {
    const base = boardId ? `/api/boards/${boardId}/tasks` : '/api/tasks';
    return okData<any[]>(await server.api('GET', `${base}?status=${status}`)).map((t) => t.title);
  }

  describe('moving within and between columns', () => {
    it('when new tasks are added to a column, then they are listed in creation order with positions 0..n', async () => {
      await column(['A', 'B', 'C']);
      const tasks = okData<any[]>(await server.api('GET', '/api/tasks?status=todo'));
      assert.deepEqual(
        tasks.map((t) => [t.title, t.position]),
        [
          ['A', 0],
          ['B', 1],
          ['C', 2],
        ],
      );
    });

    it('when a task moves to a zero-based position, then it lands exactly there', async () => {
      const ids = await column(['A', 'B', 'C', 'D']);
      const moved = okData(await server.api('PATCH', `/api/tasks/${ids.D}/move`, { status: 'todo', position: 1 }));
      assert.equal(moved.position, 1);
      assert.deepEqual(await titlesIn('todo'), ['A', 'D', 'B', 'C']);
      okData(await server.api('PATCH', `/api/tasks/${ids.A}/move`, { status: 'todo', position: 3 }));
      assert.deepEqual(await titlesIn('todo'), ['D', 'B', 'C', 'A']);
    });

    it('when no position is given, then the task goes to the top of the column', async () => {
      const ids = await column(['A', 'B']);
      await column(['X'], 'review');
      okData(await server.api('PATCH', `/api/tasks/${ids.B}/move`, { status: 'review' }));
      assert.deepEqual(await titlesIn('review'), ['B', 'X']);
    });

    it('when the position is past the end, then it is clamped to the last place', async () => {
      const ids = await column(['A', 'B', 'C']);
      const moved = okData(await server.api('PATCH', `/api/tasks/${ids.A}/move`, { status: 'todo', position: 99 }));
      assert.equal(moved.position, 2);
      assert.deepEqual(await titlesIn('todo'), ['B', 'C', 'A']);
    });

    it('when a move also carries swimlane fields, then the place and the fields are saved in one write; a bad value refuses both', async () => {
      const ids = await column(['A', 'B']);
      await column(['X', 'Y'], 'review');
      const moved = okData(
        await server.api('PATCH', `/api/tasks/${ids.A}/move`, {
          status: 'review',
          position: 1,
          assignee: 'Ada',
          priority: 'high',
          labels: ['bug'],
          metadata: { jira: 'KB-1' },
        }),
      );
      assert.deepEqual(
        [moved.status, moved.position, moved.assignee, moved.priority, moved.labels, moved.metadata],
        ['review', 1, 'Ada', 'high', ['bug'], { jira: 'KB-1' }],
      );
      assert.deepEqual(await titlesIn('review'), ['X', 'A', 'Y']);
      assert.match(await fs.readFile(cardFile(server, 'default', 'review', ids.A), 'utf8'), /^assignee: Ada$/m);
      failsWith(
        await server.api('PATCH', `/api/tasks/${ids.B}/move`, { status: 'review', position: 0, priority: 'urgent' }),
        400,
      );
      assert.deepEqual(await titlesIn('review'), ['X', 'A', 'Y']);
      assert.equal(okData(await server.api('GET', `/api/tasks/${ids.B}`)).priority, 'medium');
    });

    it('when a task moves to another column, then its file moves folder and the list shows it in column order', async () => {
      const ids = await column(['A', 'B']);
      okData(await server.api('PATCH', `/api/tasks/${ids.A}/move`, { status: 'in-progress', position: 0 }));
      assert.ok(await exists(cardFile(server, 'default', 'in-progress', ids.A)));
      assert.equal(await exists(cardFile(server, 'default', 'todo', ids.A)), false);
      assert.deepEqual(await listIds(server), [ids.B, ids.A]);
    });

    it('when a task is moved, then only its own file is rewritten', async () => {
      const ids = await column(['A', 'B', 'C']);
      const read = (title: string) => fs.readFile(cardFile(server, 'default', 'todo', ids[title]), 'utf8');
      const [beforeA, beforeB] = [await read('A'), await read('B')];
      okData(await server.api('PATCH', `/api/tasks/${ids.C}/move`, { status: 'todo', position: 1 }));
      assert.deepEqual(await titlesIn('todo'), ['A', 'C', 'B']);
      assert.equal(await read('A'), beforeA);
      assert.equal(await read('B'), beforeB);
    });

    it('when the server restarts, then the order after moves is kept', async () => {
      const ids = await column(['A', 'B', 'C', 'D']);
      okData(await server.api('PATCH', `/api/tasks/${ids.D}/move`, { status: 'todo', position: 0 }));
      okData(await server.api('PATCH', `/api/tasks/${ids.B}/move`, { status: 'todo', position: 3 }));
      const order = await titlesIn('todo');
      await server.restart();
      assert.deepEqual(await titlesIn('todo'), order);
      assert.deepEqual(order, ['D', 'A', 'C', 'B']);
    });

    it('when many moves go to the top, then the order stays exact', async () => {
      const ids = await column(['A', 'B', 'C']);
      const expected = ['A', 'B', 'C'];
      for (let i = 0; i < 30; i++) {
        const title = expected[expected.length - 1];
        okData(await server.api('PATCH', `/api/tasks/${ids[title]}/move`, { status: 'todo', position: 0 }));
        expected.unshift(expected.pop() as string);
      }
      assert.deepEqual(await titlesIn('todo'), expected);
    });

    it('when a task enters the last column, then completedAt is set, and cleared when it leaves', async () => {
      const ids = await column(['A']);
      const done = okData(await server.api('PATCH', `/api/tasks/${ids.A}/move`, { status: 'done' }));
      assert.ok(done.completedAt && !Number.isNaN(Date.parse(done.completedAt)));
      const back = okData(await server.api('PATCH', `/api/tasks/${ids.A}/move`, { status: 'todo' }));
      assert.equal(back.completedAt, null);
    });

    const invalid: [string, unknown, RegExp][] = [
      ['the status is missing', { position: 0 }, /"status"/],
      ['the status is not a column', { status: 'nowhere' }, /status "nowhere"/],
      ['the position is negative', { status: 'todo', position: -1 }, /position/],
      ['the position is a fraction', { status: 'todo', position: 1.5 }, /position/],
      ['the position is text', { status: 'todo', position: '1' }, /position/],
      ['a field is unknown', { status: 'todo', column: 'x' }, /"column"/],
    ];
    for (const [what, body, message] of invalid) {
      it(`when a move has ${what}, then 400 and the task stays`, async () => {
        const ids = await column(['A']);
        failsWith(await server.api('PATCH', `/api/tasks/${ids.A}/move`, body), 400, message);
        assert.equal(okData(await server.api('GET', `/api/tasks/${ids.A}`)).status, 'todo');
      });
    }

    it('when the task to move does not exist, then 404', async () => {
      failsWith(await server.api('PATCH', '/api/tasks/ghost/move', { status: 'todo' }), 404);
    });
  });

  describe('soft delete and restore', () => {
    it('when a task is soft-deleted, then its file moves to the deleted folder and lists leave it out', async () => {
      const ids = await column(['A', 'B']);
      const deleted = okData(await server.api('DELETE', `/api/tasks/${ids.A}`));
      assert.equal(deleted.status, 'deleted');
      assert.ok(await exists(cardFile(server, 'default', 'deleted', ids.A)));
      assert.equal(await exists(cardFile(server, 'default', 'todo', ids.A)), false);
      assert.deepEqual(await listIds(server), [ids.B]);
      assert.deepEqual(await listIds(server, '?includeDeleted=true'), [ids.B, ids.A]);
      assert.equal(okData(await server.api('GET', `/api/tasks/${ids.A}`)).status, 'deleted');
    });

    it('when a soft-deleted task is moved to a column, then it is back on the board and its file too', async () => {
      const ids = await column(['A', 'B']);
      okData(await server.api('DELETE', `/api/tasks/${ids.A}`));
      const restored = okData(await server.api('PATCH', `/api/tasks/${ids.A}/move`, { status: 'todo', position: 1 }));
      assert.equal(restored.status, 'todo');
      assert.deepEqual(await titlesIn('todo'), ['B', 'A']);
      assert.ok(await exists(cardFile(server, 'default', 'todo', ids.A)));
      assert.equal(await exists(cardFile(server, 'default', 'deleted', ids.A)), false);
    });

    it('when a soft-deleted task gets a status through PUT, then it is restored', async () => {
      const ids = await column(['A']);
      okData(await server.api('DELETE', `/api/tasks/${ids.A}`));
      assert.equal(okData(await server.api('PUT', `/api/tasks/${ids.A}`, { status: 'review' })).status, 'review');
      assert.deepEqual(await titlesIn('review'), ['A']);
    });

    it('when a done task is soft-deleted, then completedAt is cleared', async () => {
      const ids = await column(['A'], 'done');
      assert.equal(okData(await server.api('DELETE', `/api/tasks/${ids.A}`)).completedAt, null);
    });

    it('when the task to delete does not exist, then 404', async () => {
      failsWith(await server.api('DELETE', '/api/tasks/ghost'), 404);
    });
  });

  describe('permanent delete', () => {
    it('when a task is deleted permanently, then its file is gone and it cannot be found', async () => {
      const ids = await column(['A']);
      okData(await server.api('DELETE', `/api/tasks/${ids.A}/permanent`));
      assert.equal(await exists(cardFile(server, 'default', 'todo', ids.A)), false);
      failsWith(await server.api('GET', `/api/tasks/${ids.A}`), 404);
      assert.deepEqual(await listIds(server, '?includeDeleted=true'), []);
    });

    it('when a soft-deleted task is deleted permanently, then its file in the deleted folder is gone', async () => {
      const ids = await column(['A']);
      okData(await server.api('DELETE', `/api/tasks/${ids.A}`));
      okData(await server.api('DELETE', `/api/tasks/${ids.A}/permanent`));
      assert.equal(await exists(cardFile(server, 'default', 'deleted', ids.A)), false);
    });

    it('when the task does not exist, then 404', async () => {
      failsWith(await server.api('DELETE', '/api/tasks/ghost/permanent'), 404);
    });
  });

  describe('transfer between boards', () => {
    beforeEach(async () => {
      okData(
        await server.api('POST', '/api/boards', {
          id: 'ops',
          name: 'Ops',
          columns: [
            { id: 'inbox', name: 'Inbox' },
            { id: 'live', name: 'Live' },
          ],
        }),
        201,
      );
    });

    it('when a task is transferred, then it lands in the destination default status and its file moves board folder', async () => {
      const ids = await column(['A']);
      const moved = okData(await server.api('POST', `/api/boards/ops/tasks/${ids.A}/transfer`));
      assert.equal(moved.boardId, 'ops');
      assert.equal(moved.status, 'inbox');
      assert.ok(await exists(cardFile(server, 'ops', 'inbox', ids.A)));
      assert.equal(await exists(cardFile(server, 'default', 'todo', ids.A)), false);
      failsWith(await server.api('GET', `/api/tasks/${ids.A}`), 404);
      assert.equal(okData(await server.api('GET', `/api/boards/ops/tasks/${ids.A}`)).title, 'A');
      assert.deepEqual(await titlesIn('inbox', 'ops'), ['A']);
    });

    it('when a target status is given, then the task lands there and completedAt follows the destination', async () => {
      const ids = await column(['A']);
      const moved = okData(
        await server.api('POST', `/api/boards/ops/tasks/${ids.A}/transfer`, { targetStatus: 'live' }),
      );
      assert.equal(moved.status, 'live');
      assert.ok(moved.completedAt, 'live is the last column of ops');
    });

    it('when a partial id is given, then the task is found on the default board', async () => {
      const ids = await column(['Unique transfer']);
      assert.equal(
        okData(await server.api('POST', '/api/boards/ops/tasks/unique-tra/transfer')).id,
        ids['Unique transfer'],
      );
    });

    it('when a task goes to another board and back, then it keeps its id and content', async () => {
      const ids = await column(['A']);
      okData(await server.api('POST', `/api/boards/ops/tasks/${ids.A}/transfer`));
      const back = okData(
        await server.api('POST', `/api/boards/default/tasks/${ids.A}/transfer`, { targetStatus: 'review' }),
      );
      assert.deepEqual([back.id, back.boardId, back.status, back.title], [ids.A, 'default', 'review', 'A']);
    });

    it('when the target status is not a column of the destination, then 400 and the task stays', async () => {
      const ids = await column(['A']);
      failsWith(
        await server.api('POST', `/api/boards/ops/tasks/${ids.A}/transfer`, { targetStatus: 'todo' }),
        400,
        /status "todo"/,
      );
      assert.ok(await exists(cardFile(server, 'default', 'todo', ids.A)));
    });

    it('when the task is already on the destination board, then 400', async () => {
      const ids = await column(['A']);
      failsWith(await server.api('POST', `/api/boards/default/tasks/${ids.A}/transfer`), 400, /already on board/);
    });

    it('when the task does not exist, then 404', async () => {
      failsWith(await server.api('POST', '/api/boards/ops/tasks/ghost/transfer'), 404);
    });

    it('when the destination board does not exist, then 400', async () => {
      const ids = await column(['A']);
      failsWith(await server.api('POST', `/api/boards/nope/tasks/${ids.A}/transfer`), 400, /nope/);
    });

    it('when the body has an unknown field, then 400', async () => {
      const ids = await column(['A']);
      failsWith(
        await server.api('POST', `/api/boards/ops/tasks/${ids.A}/transfer`, { status: 'live' }),
        400,
        /"status"/,
      );
    });
  });
});
