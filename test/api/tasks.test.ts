import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { waitUntil } from '../helpers/waiting';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, failsWith, okData } from '../helpers/envelope';

const READ_MODEL_KEYS = [
  'id',
  'boardId',
  'title',
  'content',
  'status',
  'priority',
  'assignee',
  'dueDate',
  'labels',
  'metadata',
  'forms',
  'formData',
  'actions',
  'attachments',
  'comments',
  'commentCount',
  'created',
  'modified',
  'completedAt',
  'position',
  'cardState',
];

function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

describe('API tasks: create, read, update', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('creating', () => {
    it('when a task is created with only content, then 201 with the board defaults, a title from the first heading and a slug-date id', async () => {
      const before = utcToday();
      const task = await createTask(server, { content: 'intro line\n\n# Fix the Login Page!\n\nsteps' });
      const after = utcToday();
      assert.ok(
        [before, after].some((day) => new RegExp(`^fix-the-login-page-${day}-[a-z0-9]{4}$`).test(task.id)),
        task.id,
      );
      assert.equal(task.title, 'Fix the Login Page!');
      assert.equal(task.boardId, 'default');
      assert.equal(task.status, 'backlog');
      assert.equal(task.priority, 'medium');
      assert.equal(task.position, 0);
      assert.deepEqual(task.labels, []);
      assert.equal(task.assignee, null);
      assert.equal(task.dueDate, null);
      assert.equal(task.completedAt, null);
      assert.deepEqual(task.cardState, { unread: false, open: false });
      for (const key of READ_MODEL_KEYS) assert.ok(key in task, `read model lacks ${key}`);
    });

    it('when a task is created, then its Markdown file is in the board/status folder', async () => {
      const task = await createTask(server, 'On disk');
      const text = await fs.readFile(cardFile(server, 'default', 'backlog', task.id), 'utf8');
      assert.ok(text.startsWith(`---\nid: ${task.id}\nstatus: backlog\npriority: medium\n`), text);
      assert.ok(text.endsWith('---\n\n# On disk\n'), text);
    });

    it('when every field is given, then every field is stored and read back', async () => {
      const fields = {
        content: '# Full\n\nbody',
        status: 'todo',
        priority: 'critical',
        assignee: 'Ana',
        dueDate: '2026-12-31T17:00:00Z',
        labels: ['ui', 'bug'],
        metadata: { sprint: 4, links: { jira: 'ABC-1' } },
        actions: { deploy: 'Deploy' },
      };
      const created = await createTask(server, fields);
      const fetched = okData(await server.api('GET', `/api/tasks/${created.id}`));
      for (const [key, value] of Object.entries(fields)) assert.deepEqual(fetched[key], value, key);
      assert.equal(fetched.title, 'Full');
    });

    it('when three tasks share a title on one day, then their ids share the slug and date and differ in the random suffix', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await createTask(server, 'Same title')).id);
      for (const id of ids) assert.match(id, /^same-title-\d{4}-\d{2}-\d{2}-[a-z0-9]{4}$/);
      assert.equal(new Set(ids).size, 3);
      assert.equal(new Set(ids.map((id) => id.slice(0, -5))).size, 1);
    });

    it('when a task is created in the last column, then completedAt is set', async () => {
      const task = await createTask(server, { content: '# Already done', status: 'done' });
      assert.ok(task.completedAt);
    });

    it('when the board default priority is set, then new cards use it', async () => {
      okData(await server.api('PUT', '/api/boards/default', { defaultPriority: 'low' }));
      assert.equal((await createTask(server, 'Low by default')).priority, 'low');
    });

    const invalid: [string, unknown, RegExp][] = [
      ['content is missing', { status: 'todo' }, /"content"/],
      ['content has no title', { content: '   \n\n' }, /content/],
      ['the status is not a column', { content: '# x', status: 'nowhere' }, /status "nowhere"/],
      ['the status is the hidden deleted column', { content: '# x', status: 'deleted' }, /status "deleted"/],
      ['the priority is unknown', { content: '# x', priority: 'urgent' }, /priority/],
      ['dueDate is not a date', { content: '# x', dueDate: 'next friday' }, /dueDate/],
      ['dueDate is not a real day', { content: '# x', dueDate: '2026-02-30' }, /dueDate/],
      ['a field is unknown', { content: '# x', title: 'Set title' }, /"title"/],
      ['the read-only id is sent', { content: '# x', id: 'my-id' }, /"id"/],
      ['the read-only created is sent', { content: '# x', created: '2026-01-01' }, /"created"/],
      ['labels is not a list', { content: '# x', labels: 'bug' }, /labels/],
      ['a label is empty', { content: '# x', labels: [''] }, /label/],
      ['metadata is a list', { content: '# x', metadata: [1] }, /metadata/],
      ['content is a number', { content: 42 }, /content/],
    ];
    for (const [what, body, message] of invalid) {
      it(`when ${what}, then 400 and no card file is written`, async () => {
        failsWith(await server.api('POST', '/api/tasks', body), 400, message);
        assert.equal(await exists(`${server.root}/.kanban/boards`), false);
      });
    }

    it('when the board of the twin does not exist, then 404', async () => {
      failsWith(await server.api('POST', '/api/boards/nope/tasks', { content: '# x' }), 404, /nope/);
    });
  });

  describe('reading and partial ids', () => {
    let alpha: any;
    let beta: any;
    beforeEach(async () => {
      alpha = await createTask(server, 'Alpha release');
      beta = await createTask(server, 'Alpha review');
    });

    it('when the full id is given, then that task comes back with its comments', async () => {
      const task = okData(await server.api('GET', `/api/tasks/${alpha.id}`));
      assert.equal(task.id, alpha.id);
      assert.deepEqual(task.comments, []);
    });

    it('when a unique prefix is given, then the task it starts is found', async () => {
      assert.equal(okData(await server.api('GET', '/api/tasks/alpha-rel')).id, alpha.id);
    });

    it('when a unique inner part is given, then the task containing it is found', async () => {
      assert.equal(okData(await server.api('GET', '/api/tasks/review')).id, beta.id);
    });

    it('when the part matches several tasks, then 400 lists the candidates', async () => {
      const error = failsWith(await server.api('GET', '/api/tasks/alpha'), 400, /matches 2 cards/);
      assert.ok(error.includes(alpha.id) && error.includes(beta.id), error);
    });

    it('when one id is the prefix of another, then the exact id wins', async () => {
      // A card whose id starts with alpha's whole id (an older card's `-2`), written as a file.
      const twin = `${alpha.id}-2`;
      const file = (id: string) => path.join(server.root, '.kanban/boards/default/backlog', `${id}.md`);
      await fs.writeFile(
        file(twin),
        (await fs.readFile(file(alpha.id), 'utf8')).replace(`id: ${alpha.id}`, `id: ${twin}`),
      );
      await waitUntil(
        async () => (await server.api('GET', `/api/tasks/${twin}`)).status === 200,
        5000,
        'the twin is served',
      );
      assert.equal(okData(await server.api('GET', `/api/tasks/${alpha.id}`)).id, alpha.id);
    });

    it('when nothing matches, then 404', async () => {
      failsWith(await server.api('GET', '/api/tasks/gamma'), 404, /gamma/);
    });

    it('when the task lives on another board, then the default-board route does not find it', async () => {
      okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
      const other = await createTask(server, 'Ops only', 'ops');
      failsWith(await server.api('GET', `/api/tasks/${other.id}`), 404);
      assert.equal(okData(await server.api('GET', `/api/boards/ops/tasks/${other.id}`)).id, other.id);
    });

    it('when partial ids are used on update, move and delete, then they act on the matched task', async () => {
      okData(await server.api('PUT', '/api/tasks/alpha-rel', { priority: 'high' }));
      okData(await server.api('PATCH', '/api/tasks/alpha-rel/move', { status: 'todo' }));
      okData(await server.api('DELETE', '/api/tasks/alpha-rel'));
      const task = okData(await server.api('GET', `/api/tasks/${alpha.id}`));
      assert.equal(task.priority, 'high');
      assert.equal(task.status, 'deleted');
      failsWith(await server.api('PUT', '/api/tasks/alpha', { priority: 'low' }), 400, /matches 2 cards/);
    });

    it('when no task is open in a board UI, then the active task is null', async () => {
      assert.equal(okData(await server.api('GET', '/api/tasks/active')), null);
      assert.equal(okData(await server.api('GET', '/api/boards/default/tasks/active')), null);
    });
  });

  describe('updating', () => {
    it('when only some fields are sent, then the others keep their values and the id never changes', async () => {
      const task = await createTask(server, {
        content: '# Old title',
        assignee: 'Ana',
        labels: ['ui'],
        metadata: { a: 1 },
      });
      const updated = okData(
        await server.api('PUT', `/api/tasks/${task.id}`, { content: '# New title\n', priority: 'high' }),
      );
      assert.equal(updated.id, task.id);
      assert.equal(updated.title, 'New title');
      assert.equal(updated.priority, 'high');
      assert.equal(updated.assignee, 'Ana');
      assert.deepEqual(updated.labels, ['ui']);
      assert.deepEqual(updated.metadata, { a: 1 });
      assert.ok(updated.modified >= task.modified);
      assert.equal(updated.created, task.created);
      assert.ok(await exists(cardFile(server, 'default', 'backlog', task.id)), 'the file keeps its name');
    });

    it('when assignee and dueDate are set to null, then they are cleared', async () => {
      const task = await createTask(server, { content: '# Clear me', assignee: 'Ana', dueDate: '2026-01-01' });
      const updated = okData(await server.api('PUT', `/api/tasks/${task.id}`, { assignee: null, dueDate: null }));
      assert.equal(updated.assignee, null);
      assert.equal(updated.dueDate, null);
      const text = await fs.readFile(cardFile(server, 'default', 'backlog', task.id), 'utf8');
      assert.ok(!text.includes('assignee') && !text.includes('dueDate'), text);
    });

    it('when the status changes through PUT, then the file moves to the new status folder', async () => {
      const task = await createTask(server, 'Move by put');
      const updated = okData(await server.api('PUT', `/api/tasks/${task.id}`, { status: 'review' }));
      assert.equal(updated.status, 'review');
      assert.ok(await exists(cardFile(server, 'default', 'review', task.id)));
      assert.equal(await exists(cardFile(server, 'default', 'backlog', task.id)), false);
    });

    const invalid: [string, unknown, RegExp][] = [
      ['the status is not a column', { status: 'nowhere' }, /status "nowhere"/],
      ['the priority is unknown', { priority: 'p1' }, /priority/],
      ['dueDate is not ISO 8601', { dueDate: '31/12/2026' }, /dueDate/],
      ['content loses its title', { content: '' }, /content/],
      ['the read-only id is sent', { id: 'x' }, /"id"/],
      ['the read-only title is sent', { title: 'x' }, /"title"/],
      ['the read-only modified is sent', { modified: '2026-01-01' }, /"modified"/],
      ['the read-only position is sent', { position: 2 }, /"position"/],
      ['the read-only boardId is sent', { boardId: 'other' }, /"boardId"/],
      ['the read-only comments are sent', { comments: [] }, /"comments"/],
      ['assignee is a number', { assignee: 5 }, /assignee/],
    ];
    for (const [what, body, message] of invalid) {
      it(`when ${what}, then 400 and the task is unchanged`, async () => {
        const task = await createTask(server, 'Unchanged');
        const before = await fs.readFile(cardFile(server, 'default', 'backlog', task.id), 'utf8');
        failsWith(await server.api('PUT', `/api/tasks/${task.id}`, body), 400, message);
        assert.equal(await fs.readFile(cardFile(server, 'default', 'backlog', task.id), 'utf8'), before);
      });
    }

    it('when the task does not exist, then 404', async () => {
      failsWith(await server.api('PUT', '/api/tasks/nothing-here', { priority: 'low' }), 404);
    });
  });
});
