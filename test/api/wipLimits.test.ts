import { strict as assert } from 'node:assert';
import type { TestServer } from '../helpers/testServer';
import { createTask, failsWith, listIds, okData, readConfig } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';
import { forEachBoard, useServerWithOpsBoard } from '../helpers/perProvider';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { Receiver } from '../helpers/webhookReceiver';
import { Dispatcher } from '../../server/api/dispatch';

function routesOf(boardId: string | undefined) {
  const base = boardId ? `/api/boards/${boardId}` : '/api';
  return {
    tasks: `${base}/tasks`,
    columns: `${base}/columns`,
    board: `/api/boards/${boardId ?? 'default'}`,
    id: boardId ?? 'default',
  };
}

describe('API WIP limits', () => {
  let server: TestServer;
  useServerWithOpsBoard((started) => (server = started));

  forEachBoard((boardId, on) => {
    const r = routesOf(boardId);

    /** Give In Progress a limit of 2 and fill it. */
    async function fullColumn(): Promise<string[]> {
      okData(await server.api('PUT', `${r.columns}/in-progress`, { wipLimit: 2 }));
      const ids: string[] = [];
      for (const title of ['One', 'Two'])
        ids.push((await createTask(server, { content: `# ${title}\n`, status: 'in-progress' }, boardId)).id);
      return ids;
    }

    describe(`on ${on}`, () => {
      it('when a column gets a wipLimit, then the columns route and .kanban.json show it, and null removes it', async () => {
        const column = okData(await server.api('PUT', `${r.columns}/in-progress`, { wipLimit: 3 }));
        assert.equal(column.wipLimit, 3);
        const listed = okData<any[]>(await server.api('GET', r.columns)).find((c) => c.id === 'in-progress');
        assert.equal(listed.wipLimit, 3);
        const saved = (await readConfig(server)).boards.find((b: any) => b.id === r.id);
        assert.equal(saved.columns.find((c: any) => c.id === 'in-progress').wipLimit, 3);
        const cleared = okData(await server.api('PUT', `${r.columns}/in-progress`, { wipLimit: null }));
        assert.equal('wipLimit' in cleared, false);
        failsWith(await server.api('PUT', `${r.columns}/in-progress`, { wipLimit: 0 }), 400, /wipLimit/);
        failsWith(await server.api('PUT', `${r.columns}/in-progress`, { wipLimit: 1.5 }), 400, /wipLimit/);
        const created = okData(await server.api('POST', r.columns, { id: 'qa', name: 'QA', wipLimit: 1 }), 201);
        assert.equal(created.wipLimit, 1);
      });

      it('when a card moves into a full column under the warn policy, then the move happens with a Warning header naming the column and the count', async () => {
        await fullColumn();
        const task = await createTask(server, { content: '# Three\n', status: 'todo' }, boardId);
        const moved = await server.api('PATCH', `${r.tasks}/${task.id}/move`, { status: 'in-progress', position: 0 });
        assert.equal(okData(moved).status, 'in-progress');
        assert.equal(moved.headers.get('warning'), '299 - "column In Progress is over its WIP limit (3/2)"');
        const created = await server.api('POST', r.tasks, { content: '# Four\n', status: 'in-progress' });
        okData(created, 201);
        assert.equal(created.headers.get('warning'), '299 - "column In Progress is over its WIP limit (4/2)"');
      });

      it('when a card moves within a full column or into a column with room, then there is no Warning', async () => {
        const [first] = await fullColumn();
        const within = await server.api('PATCH', `${r.tasks}/${first}/move`, { status: 'in-progress', position: 1 });
        okData(within);
        assert.equal(within.headers.get('warning'), null);
        const elsewhere = await server.api('POST', r.tasks, { content: '# Elsewhere\n', status: 'todo' });
        okData(elsewhere, 201);
        assert.equal(elsewhere.headers.get('warning'), null);
      });

      it('when the board policy is block, then a move, create, status change or restore into a full column is a 409 naming the column and its limit', async () => {
        assert.equal(okData(await server.api('PUT', r.board, { wipPolicy: 'block' })).wipPolicy, 'block');
        await fullColumn();
        const task = await createTask(server, { content: '# Blocked\n', status: 'todo' }, boardId);
        const refusal = /In Progress \("in-progress"\) is at its WIP limit \(2\/2\)/;
        failsWith(
          await server.api('PATCH', `${r.tasks}/${task.id}/move`, { status: 'in-progress', position: 0 }),
          409,
          refusal,
        );
        failsWith(await server.api('PUT', `${r.tasks}/${task.id}`, { status: 'in-progress' }), 409, refusal);
        failsWith(await server.api('POST', r.tasks, { content: '# New\n', status: 'in-progress' }), 409, refusal);
        okData(await server.api('DELETE', `${r.tasks}/${task.id}`));
        failsWith(await server.api('POST', `${r.tasks}/${task.id}/restore`, { status: 'in-progress' }), 409, refusal);
        assert.deepEqual(
          (await listIds(server, '?status=in-progress', boardId)).length,
          2,
          'nothing entered the column',
        );
      });

      it('when a card of a full column is archived, then it no longer counts and the column has room again', async () => {
        okData(await server.api('PUT', r.board, { wipPolicy: 'block' }));
        const [first] = await fullColumn();
        okData(await server.api('POST', `${r.tasks}/${first}/archive`));
        const task = await createTask(server, { content: '# Fits now\n', status: 'in-progress' }, boardId);
        assert.equal(task.status, 'in-progress');
        failsWith(await server.api('POST', `${r.tasks}/${first}/restore`), 409, /WIP limit \(2\/2\)/);
      });

      it('when a column goes over its limit, then column.limit.exceeded is emitted once for that crossing, and again after it fell back and went over anew', async () => {
        const [first] = await fullColumn();
        const a = await createTask(server, { content: '# A\n', status: 'todo' }, boardId);
        const b = await createTask(server, { content: '# B\n', status: 'todo' }, boardId);
        const crossings = async (action: () => Promise<unknown>) =>
          (await eventsDuring(server, action)).filter((e) => e.event === 'column.limit.exceeded').map((e) => e.data);
        const over = { boardId: r.id, columnId: 'in-progress', limit: 2 };
        assert.deepEqual(
          await crossings(() => server.api('PATCH', `${r.tasks}/${a.id}/move`, { status: 'in-progress' })),
          [{ ...over, count: 3 }],
        );
        assert.deepEqual(
          await crossings(() => server.api('PATCH', `${r.tasks}/${b.id}/move`, { status: 'in-progress' })),
          [],
          'still over: no second event',
        );
        okData(await server.api('PATCH', `${r.tasks}/${a.id}/move`, { status: 'done' }));
        okData(await server.api('PATCH', `${r.tasks}/${b.id}/move`, { status: 'done' }));
        okData(await server.api('PATCH', `${r.tasks}/${first}/move`, { status: 'done' }));
        assert.deepEqual(
          await crossings(() => server.api('PATCH', `${r.tasks}/${a.id}/move`, { status: 'in-progress' })),
          [],
          'back under: 2/2',
        );
        assert.deepEqual(
          await crossings(() => server.api('PATCH', `${r.tasks}/${b.id}/move`, { status: 'in-progress' })),
          [{ ...over, count: 3 }],
        );
      });
    });
  });

  it('when a move over the limit goes through the in-process bridge (VS Code, the CLI), then the answer carries the same warning', async () => {
    okData(await server.api('PUT', '/api/columns/todo', { wipLimit: 1 }));
    const dispatcher = new Dispatcher(server.running.workspace);
    const first = await dispatcher.dispatch({
      method: 'POST',
      path: '/tasks',
      body: { content: '# First\n', status: 'todo' },
    });
    assert.equal(first.warnings, undefined);
    const second = await dispatcher.dispatch({
      method: 'POST',
      path: '/tasks',
      body: { content: '# Second\n', status: 'todo' },
    });
    assert.equal(second.status, 201);
    assert.deepEqual(second.warnings, ['column To Do is over its WIP limit (2/1)']);
  });

  it('when the full column has a name outside ASCII or with quotes, then the Warning header stays a valid header and the move still happens', async () => {
    okData(await server.api('PUT', '/api/columns/review', { name: 'Prüfung "QA" ✓', wipLimit: 1 }));
    await createTask(server, { content: '# Checked\n', status: 'review' });
    const over = await server.api('POST', '/api/tasks', { content: '# Also checked\n', status: 'review' });
    okData(over, 201);
    assert.equal(over.headers.get('warning'), '299 - "column Pr?fung \\"QA\\" ? is over its WIP limit (2/1)"');
  });

  it('when a wipPolicy is not warn or block, then PUT /boards answers 400', async () => {
    failsWith(await server.api('PUT', '/api/boards/default', { wipPolicy: 'stop' }), 400, /wipPolicy/);
    assert.equal(okData(await server.api('GET', '/api/boards/default')).wipPolicy, 'warn');
  });

  it('when a column goes over its limit, then WebSocket clients and webhooks hear column.limit.exceeded', async () => {
    const receiver = new Receiver();
    await receiver.listen();
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      okData(await server.api('POST', '/api/webhooks', { url: receiver.url('/hook'), events: ['column.*'] }), 201);
      okData(await server.api('PUT', '/api/columns/review', { wipLimit: 1 }));
      await createTask(server, { content: '# R1\n', status: 'review' });
      await createTask(server, { content: '# R2\n', status: 'review' });
      const message = await socket.waitFor((m) => m.event === 'column.limit.exceeded');
      assert.deepEqual(message.data, { boardId: 'default', columnId: 'review', count: 2, limit: 1 });
      await receiver.until(
        () => receiver.received.some((got) => got.body.event === 'column.limit.exceeded'),
        'the webhook delivery',
      );
      const delivered = receiver.received.find((got) => got.body.event === 'column.limit.exceeded');
      assert.deepEqual(delivered?.body.data, { boardId: 'default', columnId: 'review', count: 2, limit: 1 });
    } finally {
      socket.close();
      await receiver.close();
    }
  });
});
