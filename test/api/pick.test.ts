import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData, readConfig } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';

/**
 * POST /tasks/pick: the best ready card, claimed in the same step. Ready: not blocked, archived,
 * deleted or claimed, in the asked column or the board's ready-to-start columns.
 */
describe('API pick: the next card for an agent', function () {
  this.timeout(30_000);
  let server: TestServer;
  const as = (agent: string) => ({ 'X-Kanban-Agent': agent });
  const pick = async (agent: string, body: Record<string, unknown> = {}, path = '/api/tasks/pick') => {
    const answer = await server.api('POST', path, body, as(agent));
    if (answer.status === 204) return null;
    return okData(answer);
  };

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  it('when cards wait, then pick answers them by priority, then due date (none last), then board order', async () => {
    const made = async (title: string, fields: Record<string, unknown> = {}) =>
      (await createTask(server, { content: `# ${title}\n`, status: 'todo', ...fields })).id;
    await made('low', { priority: 'low' });
    await made('high second', { priority: 'high' });
    await made('critical, no due date', { priority: 'critical' });
    await made('critical, due late', { priority: 'critical', dueDate: '2027-03-01' });
    await made('critical, due early', { priority: 'critical', dueDate: '2027-02-01' });
    await made('in backlog, high', { priority: 'high', status: 'backlog' });
    const order: string[] = [];
    for (let i = 0; ; i++) {
      const card = await pick(`a${i}`);
      if (!card) break;
      assert.equal(card.claim.agent, `a${i}`);
      order.push(card.title);
    }
    assert.deepEqual(order, [
      'critical, due early',
      'critical, due late',
      'critical, no due date',
      'in backlog, high',
      'high second',
      'low',
    ]);
  });

  it('when a card is blocked, archived, deleted, in progress, done or claimed, then pick skips it, and with nothing left it answers 204', async () => {
    const blocker = await createTask(server, { content: '# Blocker\n', status: 'in-progress' });
    await createTask(server, { content: '# Blocked\n', status: 'todo', priority: 'critical', blockedBy: [blocker.id] });
    const archived = await createTask(server, { content: '# Archived\n', status: 'todo', priority: 'critical' });
    okData(await server.api('POST', `/api/tasks/${archived.id}/archive`));
    const deleted = await createTask(server, { content: '# Deleted\n', status: 'todo', priority: 'critical' });
    okData(await server.api('DELETE', `/api/tasks/${deleted.id}`));
    await createTask(server, { content: '# Done\n', status: 'done', priority: 'critical' });
    const claimed = await createTask(server, { content: '# Claimed\n', status: 'todo', priority: 'critical' });
    okData(await server.api('POST', `/api/tasks/${claimed.id}/claim`, {}, as('owner')));
    const ready = await createTask(server, { content: '# Ready\n', status: 'todo', priority: 'low' });

    assert.equal((await pick('picker')).id, ready.id);
    const none = await server.api('POST', '/api/tasks/pick', {}, as('picker'));
    assert.deepEqual([none.status, none.body], [204, null]);
    assert.equal(await pick('owner'), null, 'not even its own claimed card');

    okData(await server.api('PATCH', `/api/tasks/${blocker.id}/move`, { status: 'done' }));
    assert.equal((await pick('picker')).title, 'Blocked', 'once its blocker is done it is ready');
  });

  it('when the request filters by status, labels, assignee or priority, then only matching cards are picked', async () => {
    await createTask(server, { content: '# Backlog bug\n', status: 'backlog', labels: ['bug'], priority: 'critical' });
    await createTask(server, {
      content: '# Todo bug for ada\n',
      status: 'todo',
      labels: ['bug', 'ui'],
      assignee: 'Ada',
    });
    await createTask(server, { content: '# Review item\n', status: 'review', labels: ['bug'] });
    assert.equal((await pick('a1', { status: 'review' })).title, 'Review item', 'an asked column may be any column');
    assert.equal((await pick('a2', { labels: ['bug', 'ui'] })).title, 'Todo bug for ada');
    assert.equal(await pick('a3', { assignee: 'ada' }), null, 'that one is taken now');
    assert.equal((await pick('a4', { priority: 'critical', labels: ['bug'] })).title, 'Backlog bug');
    failsWith(
      await server.api('POST', '/api/tasks/pick', { status: 'nowhere' }, as('a5')),
      400,
      /status "nowhere" is not a column of board "default"/,
    );
    failsWith(await server.api('POST', '/api/tasks/pick', {}), 400, /name the agent/);
  });

  it('when moveTo is given, then the picked card is claimed and moved through the normal move, with its events', async () => {
    const task = await createTask(server, { content: '# Start me\n', status: 'todo' });
    let picked: any;
    const events = await eventsDuring(server, async () => (picked = await pick('mover', { moveTo: 'in-progress' })));
    assert.deepEqual([picked.id, picked.status, picked.claim.agent], [task.id, 'in-progress', 'mover']);
    assert.deepEqual(
      events.map((e) => e.event),
      ['task.claimed', 'task.moved'],
    );
    assert.deepEqual(
      [events[1].data.from, events[1].data.to, events[1].card?.claim?.agent],
      ['todo', 'in-progress', 'mover'],
    );
  });

  it('when the move to moveTo is refused (a WIP limit that blocks), then the answer is that 409 and the claim is given back', async () => {
    await server.api('PUT', '/api/boards/default', { wipPolicy: 'block' });
    okData(await server.api('PUT', '/api/columns/in-progress', { wipLimit: 1 }));
    await createTask(server, { content: '# Busy\n', status: 'in-progress' });
    const task = await createTask(server, { content: '# Waiting\n', status: 'todo' });
    failsWith(await server.api('POST', '/api/tasks/pick', { moveTo: 'in-progress' }, as('a1')), 409, /WIP limit/);
    const card = okData(await server.api('GET', `/api/tasks/${task.id}`));
    assert.deepEqual([card.status, card.claim], ['todo', null]);
    assert.equal((await pick('a2')).id, task.id, 'the card is free to pick again');
  });

  it('when the board sets pickFrom, then pick takes cards only from those columns; the board twin and board in the body pick on that board', async () => {
    okData(
      await server.api('POST', '/api/boards', {
        id: 'ops',
        name: 'Ops',
        columns: [
          { id: 'inbox', name: 'Inbox' },
          { id: 'triaged', name: 'Triaged' },
          { id: 'doing', name: 'Doing' },
          { id: 'done', name: 'Done' },
        ],
      }),
      201,
    );
    await server.running.workspace.updateConfig((draft) => {
      draft.boards.find((b) => b.id === 'ops')!.pickFrom = ['triaged'];
    });
    await createTask(server, { content: '# Untriaged\n', status: 'inbox', priority: 'critical' }, 'ops');
    const triaged = await createTask(server, { content: '# Triaged\n', status: 'triaged' }, 'ops');
    const other = await createTask(server, { content: '# On the default board\n', status: 'todo' });
    assert.equal((await pick('a1', {}, '/api/boards/ops/tasks/pick')).id, triaged.id);
    assert.equal(await pick('a2', {}, '/api/boards/ops/tasks/pick'), null);
    assert.equal((await pick('a3', { board: 'ops', status: 'inbox' })).title, 'Untriaged');
    assert.equal((await pick('a4')).id, other.id, 'the default board has its own ready columns');
    failsWith(
      await server.api('POST', '/api/boards/ops/tasks/pick', { board: 'default' }, as('a5')),
      400,
      /board "default" in the body is not the board of the path/,
    );
    failsWith(
      await server.api('POST', '/api/tasks/pick', { board: 'nope' }, as('a5')),
      400,
      /board "nope" does not exist/,
    );
  });

  it('when the column pickFrom names is deleted, then it leaves pickFrom, and an emptied pickFrom goes', async () => {
    okData(
      await server.api('POST', '/api/boards', {
        id: 'ops',
        name: 'Ops',
        columns: [
          { id: 'a', name: 'A' },
          { id: 'b', name: 'B' },
          { id: 'doing', name: 'Doing' },
        ],
      }),
      201,
    );
    await server.running.workspace.updateConfig((draft) => {
      draft.boards.find((b) => b.id === 'ops')!.pickFrom = ['a', 'b'];
    });
    okData(await server.api('DELETE', '/api/boards/ops/columns/b'));
    assert.deepEqual((await readConfig(server)).boards.find((b: any) => b.id === 'ops').pickFrom, ['a']);
    okData(await server.api('DELETE', '/api/boards/ops/columns/a'));
    assert.equal('pickFrom' in (await readConfig(server)).boards.find((b: any) => b.id === 'ops'), false);
  });
});
