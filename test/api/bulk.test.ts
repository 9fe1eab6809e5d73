import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, failsWith, listIds, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { waitUntil } from '../helpers/waiting';
import { Dispatcher } from '../../server/api/dispatch';

/** Every file under .kanban with its content: what "nothing was changed" means on disk. */
async function snapshot(server: TestServer): Promise<Record<string, string>> {
  const dir = path.join(server.root, '.kanban');
  const files = (await listFiles(dir)).filter((f) => !f.startsWith('.state'));
  const out: Record<string, string> = {};
  for (const file of files) out[file] = await fs.readFile(path.join(dir, file), 'utf8');
  return out;
}

describe('API bulk edits: POST /tasks/bulk and its board twin', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => server.close());

  for (const boardId of [undefined, 'ops']) {
    const on = boardId ? `board "${boardId}"` : 'the default board';
    const base = boardId ? `/api/boards/${boardId}/tasks` : '/api/tasks';
    const board = boardId ?? 'default';

    describe(`on ${on}`, () => {
      it('when cards from two columns are moved, then they land as one block in the order given, each with its own task.moved', async () => {
        const a = await createTask(server, { title: 'Alpha', status: 'todo' }, boardId);
        const b = await createTask(server, { title: 'Beta', status: 'review' }, boardId);
        const d = await createTask(server, { title: 'Done before', status: 'done' }, boardId);
        const events = await eventsDuring(server, async () => {
          const moved = okData<any[]>(
            await server.api('POST', `${base}/bulk`, { ids: [b.id, a.id], change: { status: 'done', position: 1 } }),
          );
          assert.deepEqual(
            moved.map((t) => [t.id, t.status]),
            [
              [b.id, 'done'],
              [a.id, 'done'],
            ],
          );
        });
        assert.deepEqual(
          events.map((e) => [e.event, e.data.taskId]),
          [
            ['task.moved', b.id],
            ['task.moved', a.id],
          ],
        );
        assert.deepEqual(await listIds(server, '?status=done', boardId), [d.id, b.id, a.id]);
        assert.ok(await exists(cardFile(server, board, 'done', a.id)), 'the file moved to done/');
        assert.equal(await exists(cardFile(server, board, 'todo', a.id)), false);
      });

      it('when priority, assignee and labels are set on several cards, then each card has them and gets one task.updated', async () => {
        const a = await createTask(server, { title: 'One', labels: ['bug', 'ui'] }, boardId);
        const b = await createTask(server, { title: 'Two', labels: ['ui'] }, boardId);
        const ids = [a.id, b.id];
        for (const change of [
          { priority: 'critical' },
          { assignee: 'ada' },
          { labels: { add: ['urgent'], remove: ['ui'] } },
        ]) {
          const events = await eventsDuring(server, async () =>
            okData(await server.api('POST', `${base}/bulk`, { ids, change })),
          );
          assert.deepEqual(
            events.map((e) => [e.event, e.data.taskId]),
            [
              ['task.updated', a.id],
              ['task.updated', b.id],
            ],
            JSON.stringify(change),
          );
        }
        const cards = okData<any[]>(await server.api('GET', `${base}?fields=id,priority,assignee,labels`));
        assert.deepEqual(
          cards.map((c) => [c.priority, c.assignee, c.labels]),
          [
            ['critical', 'ada', ['bug', 'urgent']],
            ['critical', 'ada', ['urgent']],
          ],
        );
        okData(await server.api('POST', `${base}/bulk`, { ids, change: { labels: { set: ['later'] } } }));
        okData(await server.api('POST', `${base}/bulk`, { ids, change: { assignee: null } }));
        const after = okData<any[]>(await server.api('GET', `${base}?fields=id,assignee,labels`));
        assert.deepEqual(
          after.map((c) => [c.assignee, c.labels]),
          [
            [null, ['later']],
            [null, ['later']],
          ],
        );
        assert.match(await fs.readFile(cardFile(server, board, 'backlog', a.id), 'utf8'), /^labels:\n {2}- later$/m);
      });

      it('when cards are archived or deleted together, then each leaves the board with its own event', async () => {
        const a = await createTask(server, { title: 'Shelve me', status: 'todo' }, boardId);
        const b = await createTask(server, { title: 'Shelve me too', status: 'review' }, boardId);
        const c = await createTask(server, { title: 'Drop me', status: 'todo' }, boardId);
        const archived = await eventsDuring(server, async () =>
          okData(await server.api('POST', `${base}/bulk`, { ids: [a.id, b.id], change: { archive: true } })),
        );
        assert.deepEqual(
          archived.map((e) => e.event),
          ['task.archived', 'task.archived'],
        );
        assert.deepEqual(await listIds(server, '?archived=only', boardId), [a.id, b.id]);
        assert.ok(await exists(cardFile(server, board, 'archived', b.id)));
        const deleted = await eventsDuring(server, async () =>
          okData(await server.api('POST', `${base}/bulk`, { ids: [c.id], change: { delete: true } })),
        );
        assert.deepEqual(
          deleted.map((e) => [e.event, e.data.permanent]),
          [['task.deleted', false]],
        );
        assert.deepEqual(await listIds(server, '', boardId), []);
      });

      it('when one id is unknown, then the answer is 404 naming it and no file changes', async () => {
        const a = await createTask(server, { title: 'Stays put', status: 'todo' }, boardId);
        const b = await createTask(server, { title: 'Stays too', status: 'todo' }, boardId);
        const before = await snapshot(server);
        for (const change of [
          { status: 'done' },
          { priority: 'low' },
          { archive: true },
          { delete: true },
          { labels: { set: [] } },
        ]) {
          const events = await eventsDuring(server, async () => {
            failsWith(
              await server.api('POST', `${base}/bulk`, { ids: [a.id, 'no-such-card-2020-01-01', b.id], change }),
              404,
              /"no-such-card-2020-01-01".*nothing was changed/,
            );
          });
          assert.deepEqual(events, [], `no event for ${JSON.stringify(change)}`);
        }
        assert.deepEqual(await snapshot(server), before);
      });
    });
  }

  it('when an undo sends each card its own place back ("changes"), then the board is as it was before the bulk move', async () => {
    const ids: string[] = [];
    for (const [title, status] of [
      ['A', 'todo'],
      ['B', 'todo'],
      ['C', 'todo'],
      ['D', 'review'],
    ])
      ids.push((await createTask(server, { title, status })).id);
    const [a, , c, d] = ids;
    const before = okData<any[]>(await server.api('GET', '/api/tasks?fields=id,status,position'));
    okData(await server.api('POST', '/api/tasks/bulk', { ids: [a, c, d], change: { status: 'done' } }));
    const undo = before
      .filter((t) => [a, c, d].includes(t.id))
      .map((t) => ({ id: t.id, status: t.status, position: t.position }));
    okData(await server.api('POST', '/api/tasks/bulk', { changes: undo }));
    assert.deepEqual(okData<any[]>(await server.api('GET', '/api/tasks?fields=id,status,position')), before);
  });

  it('when an undo restores archived cards ("changes" with restore), then each is back in its place with one task.restored; a card not archived refuses it all', async () => {
    const ids: string[] = [];
    for (const [title, status] of [
      ['A', 'todo'],
      ['B', 'todo'],
      ['C', 'todo'],
      ['D', 'review'],
    ])
      ids.push((await createTask(server, { title, status })).id);
    const [a, b, c, d] = ids;
    const before = okData<any[]>(await server.api('GET', '/api/tasks?fields=id,status,position'));
    okData(await server.api('POST', '/api/tasks/bulk', { ids: [a, c, d], change: { archive: true } }));
    const undo = before
      .filter((t) => [a, c, d].includes(t.id))
      .map((t) => ({ id: t.id, restore: true, status: t.status, position: t.position }));
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { changes: [...undo, { id: b, restore: true }] }),
      400,
      /neither archived nor deleted/,
    );
    assert.equal(
      okData<any[]>(await server.api('GET', '/api/tasks?archived=only&fields=id')).length,
      3,
      'nothing restored',
    );
    const events = await eventsDuring(server, async () => {
      okData(await server.api('POST', '/api/tasks/bulk', { changes: undo }));
    });
    assert.deepEqual(
      events.map((e) => [e.event, e.data.taskId]),
      [
        ['task.restored', a],
        ['task.restored', c],
        ['task.restored', d],
      ],
    );
    assert.deepEqual(okData<any[]>(await server.api('GET', '/api/tasks?fields=id,status,position')), before);
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a], change: { restore: true, priority: 'low' } }),
      400,
      /restore goes alone/,
    );
  });

  it('when a block-policy column cannot take all the cards, then the answer is 409 and none moved', async () => {
    okData(await server.api('PUT', '/api/boards/default', { wipPolicy: 'block' }));
    okData(await server.api('PUT', '/api/columns/review', { wipLimit: 2 }));
    await createTask(server, { title: 'Already in review', status: 'review' });
    const a = await createTask(server, { title: 'First', status: 'todo' });
    const b = await createTask(server, { title: 'Second', status: 'todo' });
    const before = await snapshot(server);
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id, b.id], change: { status: 'review' } }),
      409,
      /WIP limit 2.*2 more card\(s\).*nothing was changed/,
    );
    assert.deepEqual(await snapshot(server), before);
    okData(await server.api('POST', '/api/tasks/bulk', { ids: [a.id], change: { status: 'review' } }));
  });

  it("when one card's version is stale, then the answer is 412 and nothing is written", async () => {
    const a = await createTask(server, 'Read once');
    const b = await createTask(server, 'Read twice');
    const etagA = (await server.api('GET', `/api/tasks/${a.id}`)).headers.get('etag') as string;
    const etagB = (await server.api('GET', `/api/tasks/${b.id}`)).headers.get('etag') as string;
    okData(await server.api('PUT', `/api/tasks/${b.id}`, { assignee: 'someone' }));
    const before = await snapshot(server);
    failsWith(
      await server.api('POST', '/api/tasks/bulk', {
        ids: [a.id, b.id],
        change: { priority: 'high' },
        versions: { [a.id]: etagA, [b.id]: etagB },
      }),
      412,
      new RegExp(`"${b.id}" \\(now`),
    );
    assert.deepEqual(await snapshot(server), before);
  });

  it('when one card file was broken by a hand edit, then the answer is 409 naming it and the other cards are untouched', async () => {
    const a = await createTask(server, 'Untouched');
    const b = await createTask(server, 'Edited by hand');
    const file = cardFile(server, 'default', 'backlog', b.id);
    // A file that does not parse is refused whether or not the watcher has seen the edit yet.
    const broken = (await fs.readFile(file, 'utf8')).replace(/^---\n/, '---\npriority: [unclosed\n');
    await fs.writeFile(file, broken);
    const untouched = await fs.readFile(cardFile(server, 'default', 'backlog', a.id), 'utf8');
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id, b.id], change: { priority: 'high' } }),
      409,
      new RegExp(`${b.id}\\.md does not parse`),
    );
    assert.equal(await fs.readFile(cardFile(server, 'default', 'backlog', a.id), 'utf8'), untouched);
    assert.equal(await fs.readFile(file, 'utf8'), broken);
  });

  it('when a request mixes kinds, or names a card twice, then it is a 400 saying what to send', async () => {
    const a = await createTask(server, 'Once');
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id], change: { priority: 'high', archive: true } }),
      400,
      /exactly one kind of change.*priority and archive/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id], change: { position: 2 } }),
      400,
      /position goes with status/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id, a.id], change: { priority: 'high' } }),
      400,
      /named more than once/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/bulk', {
        ids: [a.id],
        change: { priority: 'high' },
        changes: [{ id: a.id, priority: 'low' }],
      }),
      400,
      /either "ids".*or "changes"/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/bulk', {
        changes: [
          { id: a.id, priority: 'low' },
          { id: a.id, assignee: 'x' },
        ],
      }),
      400,
      /same kind/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id], change: { status: 'nowhere' } }),
      400,
      /"nowhere" is not a column/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/bulk', { ids: [a.id], change: { labels: { set: ['a'], add: ['b'] } } }),
      400,
      /"set".*not both/,
    );
    failsWith(await server.api('POST', '/api/tasks/bulk', { ids: [], change: { priority: 'high' } }), 400);
  });

  it('when WebSocket clients watch a bulk change of three cards, then they get exactly one event per card', async () => {
    const ids = [];
    for (const title of ['W1', 'W2', 'W3']) ids.push((await createTask(server, title)).id);
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      okData(await server.api('POST', '/api/tasks/bulk', { ids, change: { priority: 'low' } }));
      await waitUntil(() => socket.events().length >= 3, 5000, 'three events');
      okData(await server.api('POST', '/api/tasks', { title: 'marker' }), 201);
      await socket.waitFor((m) => m.event === 'task.created', 5000);
      const events = socket.events().filter((m) => m.event !== 'task.created');
      assert.deepEqual(
        events.map((m) => [m.event, m.data.taskId, m.card.priority]),
        ids.map((id) => ['task.updated', id, 'low']),
      );
      const revisions = events.map((m) => m.revision as number);
      assert.deepEqual(
        revisions,
        revisions.map((_, i) => revisions[0] + i),
        'consecutive revisions',
      );
    } finally {
      socket.close();
    }
  });

  it('when the VS Code webview bridge sends a bulk change with a WIP warning, then it applies like HTTP and passes the warning on', async () => {
    okData(await server.api('PUT', '/api/columns/review', { wipLimit: 1 }));
    const a = await createTask(server, { title: 'Bridged A', status: 'todo' }, 'default');
    const b = await createTask(server, { title: 'Bridged B', status: 'todo' }, 'default');
    const answer = await new Dispatcher(server.running.workspace).dispatch({
      method: 'POST',
      path: '/boards/default/tasks/bulk',
      body: { ids: [a.id, b.id], change: { status: 'review' } },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(
      (answer.body as { data: { id: string; status: string }[] }).data.map((t) => t.status),
      ['review', 'review'],
    );
    assert.match(JSON.stringify(answer), /over its WIP limit \(2\/1\)/);
  });
});
