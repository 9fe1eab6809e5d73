import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles, startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, failsWith, listIds, okData } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';
import { forEachBoard, useCardProviderServer, useServerWithOpsBoard } from '../helpers/perProvider';
import { runAutoArchive } from '../../server/service/archive';
import { waitUntil } from '../helpers/waiting';

/** The routes of one board: the default board's unscoped ones, or a named board's twins. */
function routesOf(boardId: string | undefined) {
  const base = boardId ? `/api/boards/${boardId}` : '/api';
  return { tasks: `${base}/tasks`, columns: `${base}/columns`, board: boardId ?? 'default' };
}

describe('API archive: archive, restore, lists and auto-archive', () => {
  let server: TestServer;
  useServerWithOpsBoard((started) => (server = started));

  forEachBoard((boardId, on) => {
    const r = routesOf(boardId);

    describe(`on ${on}`, () => {
      it('when a card is archived, then it keeps its status, leaves the list and its file moves under archived/', async () => {
        const task = await createTask(server, { content: '# Ship it\n', status: 'review' }, boardId);
        const events = await eventsDuring(server, async () => {
          const archived = okData(await server.api('POST', `${r.tasks}/${task.id}/archive`));
          assert.equal(archived.status, 'review');
          assert.match(archived.archivedAt, /^\d{4}-\d\d-\d\dT/);
        });
        assert.deepEqual(
          events.map((e) => e.event),
          ['task.archived'],
        );
        assert.equal(events[0].card?.id, task.id);
        assert.deepEqual(await listIds(server, '', boardId), []);
        assert.deepEqual(await listIds(server, '?includeArchived=true', boardId), [task.id]);
        assert.deepEqual(await listIds(server, '?archived=only', boardId), [task.id]);
        const file = cardFile(server, r.board, 'archived', task.id);
        assert.ok(await exists(file), 'the card file is under archived/');
        assert.equal(
          await exists(cardFile(server, r.board, 'review', task.id)),
          false,
          'no second copy in the status folder',
        );
        const text = await fs.readFile(file, 'utf8');
        assert.match(text, /^status: review$/m);
        assert.match(text, /^archivedAt: /m);
        const board = okData<any[]>(await server.api('GET', '/api/boards')).find((b) => b.id === r.board);
        assert.equal(board.taskCount, 0, 'archived cards are not counted on the board');
      });

      it('when an archived card is restored, then it is back in the column it kept, without archivedAt', async () => {
        const task = await createTask(server, { content: '# Back again\n', status: 'todo' }, boardId);
        await createTask(server, { content: '# Already there\n', status: 'todo' }, boardId);
        okData(await server.api('POST', `${r.tasks}/${task.id}/archive`));
        const events = await eventsDuring(server, async () => {
          const restored = okData(await server.api('POST', `${r.tasks}/${task.id}/restore`));
          assert.equal(restored.status, 'todo');
          assert.equal(restored.archivedAt, null);
          assert.equal(restored.position, 1, 'a restored card goes to the end of its column');
        });
        assert.deepEqual(
          events.map((e) => [e.event, e.data.from, e.data.to]),
          [['task.restored', 'archived', 'todo']],
        );
        assert.ok(await exists(cardFile(server, r.board, 'todo', task.id)));
        assert.equal(await exists(cardFile(server, r.board, 'archived', task.id)), false);
        assert.deepEqual(await listIds(server, '?archived=only', boardId), []);
      });

      it('when a soft-deleted card is restored, then it goes back to the column it was deleted from, or to the status asked for', async () => {
        const columns = okData(await server.api('GET', r.columns)).map((c: { id: string }) => c.id);
        const from = columns[columns.length - 2];
        const first = await createTask(server, { content: '# Deleted one\n', status: from }, boardId);
        const second = await createTask(server, { content: '# Deleted two\n', status: from }, boardId);
        okData(await server.api('DELETE', `${r.tasks}/${first.id}`));
        okData(await server.api('DELETE', `${r.tasks}/${second.id}`));
        const back = okData(await server.api('POST', `${r.tasks}/${first.id}/restore`));
        assert.equal(back.status, from);
        assert.notEqual(from, columns[0], 'the column left is not the default one, so the test tells them apart');
        const last = columns[columns.length - 1];
        const asked = okData(await server.api('POST', `${r.tasks}/${second.id}/restore`, { status: last }));
        assert.equal(asked.status, last);
        assert.ok(asked.completedAt, 'a card restored into the last column is completed');
      });

      it('when a card that is neither archived nor deleted is restored, or a restore names no column, then the answer is a 400 that says why', async () => {
        const task = await createTask(server, { content: '# Active\n' }, boardId);
        failsWith(await server.api('POST', `${r.tasks}/${task.id}/restore`), 400, /neither archived nor deleted/);
        okData(await server.api('POST', `${r.tasks}/${task.id}/archive`));
        failsWith(
          await server.api('POST', `${r.tasks}/${task.id}/restore`, { status: 'nowhere' }),
          400,
          /"nowhere" is not a column/,
        );
        failsWith(await server.api('POST', `${r.tasks}/no-such-card/archive`), 404);
      });

      it('when archive is sent twice, then the second answer is the archived card and nothing is emitted', async () => {
        const task = await createTask(server, { content: '# Twice\n' }, boardId);
        const first = okData(await server.api('POST', `${r.tasks}/${task.id}/archive`));
        const events = await eventsDuring(server, async () => {
          const again = okData(await server.api('POST', `${r.tasks}/${task.id}/archive`));
          assert.equal(again.archivedAt, first.archivedAt);
        });
        assert.deepEqual(events, []);
      });

      it('when archive or restore carries a stale If-Match, then it is refused with 412 and the card stays where it was', async () => {
        const task = await createTask(server, { content: '# Versioned\n' }, boardId);
        const read = await server.api('GET', `${r.tasks}/${task.id}`);
        const etag = read.headers.get('etag') as string;
        okData(await server.api('PUT', `${r.tasks}/${task.id}`, { priority: 'high' }));
        failsWith(await server.api('POST', `${r.tasks}/${task.id}/archive`, undefined, { 'If-Match': etag }), 412);
        assert.deepEqual(await listIds(server, '', boardId), [task.id]);
        const current = (await server.api('GET', `${r.tasks}/${task.id}`)).headers.get('etag') as string;
        const archived = await server.api('POST', `${r.tasks}/${task.id}/archive`, undefined, { 'If-Match': current });
        okData(archived);
        failsWith(await server.api('POST', `${r.tasks}/${task.id}/restore`, undefined, { 'If-Match': current }), 412);
        okData(
          await server.api('POST', `${r.tasks}/${task.id}/restore`, undefined, {
            'If-Match': archived.headers.get('etag') as string,
          }),
        );
      });

      it('when a column is archived all at once, then each card is archived with its own event and the column is empty', async () => {
        const a = await createTask(server, { content: '# A\n', status: 'done' }, boardId);
        const b = await createTask(server, { content: '# B\n', status: 'done' }, boardId);
        const other = await createTask(server, { content: '# Other\n', status: 'todo' }, boardId);
        const events = await eventsDuring(server, async () => {
          const archived = okData<any[]>(await server.api('POST', `${r.columns}/done/archive`));
          assert.deepEqual(
            archived.map((t) => t.id),
            [a.id, b.id],
          );
        });
        assert.deepEqual(
          events.map((e) => [e.event, e.data.taskId]),
          [
            ['task.archived', a.id],
            ['task.archived', b.id],
          ],
        );
        assert.deepEqual(await listIds(server, '', boardId), [other.id]);
        assert.deepEqual(await listIds(server, '?archived=only&status=done', boardId), [a.id, b.id]);
        assert.deepEqual(await listIds(server, '?archived=only&status=todo', boardId), []);
        failsWith(await server.api('POST', `${r.columns}/nowhere/archive`), 404, /not a column/);
      });

      it('when an archived card is moved, then it is back in the column it was moved to', async () => {
        const task = await createTask(server, { content: '# Moved out\n' }, boardId);
        okData(await server.api('POST', `${r.tasks}/${task.id}/archive`));
        const moved = okData(await server.api('PATCH', `${r.tasks}/${task.id}/move`, { status: 'todo', position: 0 }));
        assert.equal(moved.archivedAt, null);
        assert.deepEqual(await listIds(server, '?status=todo', boardId), [task.id]);
      });
    });
  });

  it('when the archive is searched, then text and paging work within it', async () => {
    const ids: string[] = [];
    for (const title of ['Login bug', 'Logout bug', 'Docs']) {
      const task = await createTask(server, { content: `# ${title}\n` });
      okData(await server.api('POST', `/api/tasks/${task.id}/archive`));
      ids.push(task.id);
    }
    assert.deepEqual(await listIds(server, '?archived=only&q=bug'), ids.slice(0, 2));
    const page = await server.api('GET', '/api/tasks?archived=only&limit=2');
    assert.equal(okData<any[]>(page).length, 2);
    assert.equal(page.headers.get('x-total-count'), '3');
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    assert.ok(next, 'a Link to the next page');
    const rest = okData<any[]>(await server.api('GET', next));
    assert.deepEqual(
      [...okData<any[]>(page), ...rest].map((t) => t.id),
      ids,
      'the pages hold the archive once, in order',
    );
    const projected = okData<any[]>(await server.api('GET', '/api/tasks?archived=only&fields=id,archivedAt'));
    assert.ok(projected.every((t) => Object.keys(t).join() === 'id,archivedAt' && typeof t.archivedAt === 'string'));
    failsWith(await server.api('GET', '/api/tasks?archived=all'), 400, /archived/);
  });

  it('when a column id is "archived", then it is refused as reserved', async () => {
    failsWith(await server.api('POST', '/api/columns', { id: 'archived', name: 'Archive' }), 400, /reserved/);
  });
});

describe('API archive: a soft delete remembers its column across a restart', () => {
  for (const providerName of ['markdown', 'sqlite'] as const) {
    describe(`with ${providerName} cards`, () => {
      let server: TestServer;
      useCardProviderServer(providerName, (started) => (server = started));

      it('when a deleted card is restored after a restart, then it goes back to the column it was deleted from', async () => {
        const task = await createTask(server, { content: '# Kept place\n', status: 'review' });
        okData(await server.api('DELETE', `/api/tasks/${task.id}`));
        await server.restart();
        assert.equal(okData(await server.api('POST', `/api/tasks/${task.id}/restore`)).status, 'review');
      });

      it('when the column it was deleted from is gone, then a restore puts it in the default column', async () => {
        const task = await createTask(server, { content: '# Lost place\n', status: 'review' });
        okData(await server.api('DELETE', `/api/tasks/${task.id}`));
        okData(await server.api('DELETE', '/api/columns/review'));
        await server.restart();
        assert.equal(okData(await server.api('POST', `/api/tasks/${task.id}/restore`)).status, 'backlog');
      });
    });
  }
});

describe('API archive: auto-archive and hand-moved files', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  /** A card file written by hand, completed `daysAgo` days ago in the board's last column. */
  async function writeDoneCard(root: string, boardId: string, id: string, daysAgo: number): Promise<void> {
    const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const file = path.join(root, '.kanban', 'boards', boardId, 'done', `${id}.md`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      `---\nid: ${id}\nstatus: done\npriority: medium\ncreated: ${at}\nmodified: ${at}\ncompletedAt: ${at}\n---\n\n# ${id}\n`,
    );
  }

  it('when the server starts with autoArchiveDays set, then cards done longer ago are archived on both boards and fresher ones stay', async () => {
    const root = await fs.mkdtemp(path.join((await import('node:os')).tmpdir(), 'kanban-archive-'));
    await writeDoneCard(root, 'default', 'old-2026-01-01', 10);
    await writeDoneCard(root, 'default', 'fresh-2026-01-01', 2);
    await writeDoneCard(root, 'ops', 'ops-old-2026-01-01', 10);
    const config = {
      version: 2,
      defaultBoard: 'default',
      boards: [
        { id: 'default', name: 'Default', autoArchiveDays: 7 },
        { id: 'ops', name: 'Ops', autoArchiveDays: 7 },
      ],
    };
    server = await startTestServer({ root, config });
    assert.deepEqual(await listIds(server, '?archived=only'), ['old-2026-01-01']);
    assert.deepEqual(await listIds(server), ['fresh-2026-01-01']);
    assert.deepEqual(await listIds(server, '?archived=only', 'ops'), ['ops-old-2026-01-01']);
    assert.ok(await exists(path.join(root, '.kanban/boards/default/archived/old-2026-01-01.md')));
  });

  it('when the hourly check runs later, then cards that have since passed autoArchiveDays are archived, and PUT /boards turns it on and off', async () => {
    server = await startTestServer();
    const task = await createTask(server, { content: '# Finished\n', status: 'done' });
    const ws = server.running.workspace;
    const inEightDays = new Date(Date.now() + 8 * 86_400_000);
    assert.deepEqual(await runAutoArchive(ws, inEightDays), [], 'nothing happens while no board sets autoArchiveDays');
    assert.equal(okData(await server.api('PUT', '/api/boards/default', { autoArchiveDays: 7 })).autoArchiveDays, 7);
    assert.deepEqual(await runAutoArchive(ws), [], 'a card done today is not archived yet');
    const events = await eventsDuring(server, async () => {
      const archived = await runAutoArchive(ws, inEightDays);
      assert.deepEqual(
        archived.map((t) => t.id),
        [task.id],
      );
    });
    assert.deepEqual(
      events.map((e) => [e.event, e.data.auto]),
      [['task.archived', true]],
    );
    assert.equal(
      okData(await server.api('PUT', '/api/boards/default', { autoArchiveDays: null })).autoArchiveDays,
      null,
    );
    failsWith(await server.api('PUT', '/api/boards/default', { autoArchiveDays: 0 }), 400);
  });

  it('when a card file is moved into archived/ by hand, then the card is archived; moved back out, it is not', async () => {
    server = await startTestServer();
    const task = await createTask(server, { content: '# By hand\n', status: 'todo' });
    const from = cardFile(server, 'default', 'todo', task.id);
    const to = cardFile(server, 'default', 'archived', task.id);
    await fs.mkdir(path.dirname(to), { recursive: true });
    const seen: string[] = [];
    server.running.workspace.events.on((e) => seen.push(e.event));
    await fs.rename(from, to);
    await waitUntil(
      async () => (await listIds(server!, '?archived=only')).includes(task.id),
      5000,
      'the hand-archived card in the archive',
    );
    await waitUntil(() => seen.includes('task.archived'), 5000, 'task.archived for the hand move');
    const card = okData(await server.api('GET', `/api/tasks/${task.id}`));
    assert.equal(card.status, 'todo');
    assert.ok(card.archivedAt);
    assert.deepEqual(await listIds(server), []);
    await fs.rename(to, from);
    await waitUntil(async () => (await listIds(server!)).includes(task.id), 5000, 'the card back in its column');
    await waitUntil(() => seen.includes('task.restored'), 5000, 'task.restored for the hand move');
    assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).archivedAt, null);
  });

  it('when a crash left a card both in its column and under archived/, then the newer (archived) copy wins at start', async () => {
    server = await startTestServer();
    const task = await createTask(server, { content: '# Torn archive\n', status: 'todo' });
    okData(await server.api('POST', `/api/tasks/${task.id}/archive`));
    await server.running.close();
    // Replay the crash: the archived copy was written, the old file was never removed.
    const archivedText = await fs.readFile(cardFile(server, 'default', 'archived', task.id), 'utf8');
    const older = archivedText
      .replace(/^archivedAt: .*\n/m, '')
      .replace(/^modified: .*$/m, `modified: ${task.modified}`);
    await fs.writeFile(cardFile(server, 'default', 'todo', task.id), older);
    await server.restart();
    assert.deepEqual(await listIds(server), []);
    assert.deepEqual(await listIds(server, '?archived=only'), [task.id]);
    const files = await listFiles(path.join(server.root, '.kanban', 'boards'));
    assert.deepEqual(
      files.filter((f) => f.endsWith(`${task.id}.md`)),
      [`default/archived/${task.id}.md`],
    );
  });
});
