import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';

/**
 * GET /context: the board for an agent about to work. Each card sits in the first section that
 * fits (awaiting input, blocked, in progress); `next` is what pick would hand out, in its order.
 */
describe('API context: the board at a glance for agents', function () {
  this.timeout(30_000);
  let server: TestServer;
  const as = (agent: string) => ({ 'X-Kanban-Agent': agent });
  const made = async (title: string, fields: Record<string, unknown> = {}) =>
    (await createTask(server, { content: `# ${title}\n`, status: 'todo', ...fields })).id as string;
  const context = async (path = '/api/context') => okData(await server.api('GET', path));
  const ids = (cards: { id: string }[]) => cards.map((c) => c.id);

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  it('when cards are worked on, waited on and blocked, then each shows once, in its section, with its claim and session', async () => {
    const working = await made('Working', { status: 'in-progress' });
    const inReview = await made('In review', { status: 'review' });
    const claimed = await made('Claimed in todo');
    okData(
      await server.api('PUT', `/api/tasks/${claimed}/session`, { state: 'active', note: 'on it' }, as('claude-1')),
    );
    const asking = await made('Asking', { status: 'in-progress' });
    okData(
      await server.api(
        'PUT',
        `/api/tasks/${asking}/session`,
        { state: 'awaitingInput', note: 'which port?' },
        as('claude-2'),
      ),
    );
    const blocked = await made('Blocked', { blockedBy: [working] });
    await made('Done and blocked', { status: 'done', blockedBy: [working] });
    const free = await made('Free');

    const data = await context();
    assert.deepEqual(data.board, { id: 'default', name: 'Default' });
    assert.deepEqual(ids(data.inProgress), [claimed, working, inReview], 'board order: todo, in-progress, review');
    assert.deepEqual(ids(data.awaitingInput), [asking]);
    assert.deepEqual(ids(data.blocked), [blocked]);
    assert.deepEqual(ids(data.next), [free]);
    assert.deepEqual(data.counts, { inProgress: 3, awaitingInput: 1, blocked: 1, pickable: 1 });

    const claimedCard = data.inProgress[0];
    assert.equal(claimedCard.claim.agent, 'claude-1');
    assert.ok(Date.parse(claimedCard.claim.until) > Date.now());
    assert.deepEqual(claimedCard.session, { agent: 'claude-1', state: 'active', note: 'on it', stale: false });
    assert.equal(data.inProgress[1].claim, undefined, 'no claim, no field');
    assert.deepEqual(data.awaitingInput[0].session, {
      agent: 'claude-2',
      state: 'awaitingInput',
      note: 'which port?',
      stale: false,
    });
    assert.deepEqual(data.blocked[0].waitsFor, [working]);
  });

  it('when more cards are ready than five, then next lists the first five in the order pick hands them out', async () => {
    await made('low', { priority: 'low' });
    await made('high', { priority: 'high' });
    await made('critical, no due', { priority: 'critical' });
    await made('critical, due early', { priority: 'critical', dueDate: '2027-02-01' });
    await made('backlog, high', { priority: 'high', status: 'backlog' });
    await made('medium');
    await made('claimed, critical', { priority: 'critical' }).then((id) =>
      server.api('POST', `/api/tasks/${id}/claim`, {}, as('holder')),
    );
    const data = await context();
    assert.equal(data.counts.pickable, 6);
    assert.equal(data.next.length, 5);
    const picked: string[] = [];
    for (let i = 0; i < 6; i++) picked.push(okData(await server.api('POST', '/api/tasks/pick', {}, as(`p${i}`))).id);
    assert.deepEqual(ids(data.next), picked.slice(0, 5), 'the same order as pick');
  });

  it("when a board is named in the path, then the context is that board's", async () => {
    okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
    const card = await createTask(server, { content: '# On ops\n', status: 'todo' }, 'ops');
    const data = await context('/api/boards/ops/context');
    assert.deepEqual(data.board, { id: 'ops', name: 'Ops' });
    assert.deepEqual(ids(data.next), [card.id]);
    assert.deepEqual(ids((await context()).next), [], 'the default board has none');
  });
});
