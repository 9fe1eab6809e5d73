import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { file } from '../helpers/attachments';
import { LIST_DEFAULTS, withListDefaults, withoutListDefaults } from '../../server/core/shapes/listDefaults';

/** `compact=true` on the task list: the empty defaults left out, and nothing else lost. */
describe('API lists: the compact list', function () {
  this.timeout(30_000);
  let server: TestServer;
  const as = (agent: string) => ({ 'X-Kanban-Agent': agent });

  before(async () => {
    server = await startTestServer();
    const bare = await createTask(server, 'Bare card');
    const full = await createTask(server, {
      content: '# Every field set\n\n- [x] one\n- [ ] two\n',
      priority: 'high',
      assignee: 'ada',
      dueDate: '2026-12-01',
      labels: ['bug'],
      metadata: { team: 'core' },
      forms: [{ name: 'bug-report', schema: { type: 'object', properties: { steps: { type: 'string' } } } }],
      actions: ['build'],
      blockedBy: [bare.id],
      relatesTo: [bare.id],
      duplicateOf: [bare.id],
    });
    await createTask(server, { content: '# Sub-card\n', parent: bare.id });
    await createTask(server, { content: '# Empty action map\n', actions: {} });
    okData(await server.api('POST', `/api/tasks/${full.id}/forms/bug-report/submit`, { data: { steps: 'click' } }));
    okData(await server.api('POST', `/api/tasks/${full.id}/comments`, { author: 'ada', content: 'seen' }), 201);
    okData(await server.api('POST', `/api/tasks/${full.id}/attachments`, { files: [file('a.txt', Buffer.from('a'))] }));
    okData(await server.api('POST', `/api/tasks/${full.id}/open`));
    okData(await server.api('PUT', `/api/tasks/${full.id}/session`, { state: 'active', note: 'on it' }, as('a1')));
    const done = await createTask(server, 'Finished card');
    okData(await server.api('PATCH', `/api/tasks/${done.id}/move`, { status: 'done' }));
    const archived = await createTask(server, 'Archived card');
    // Waits only on a finished card: it has blockers, yet is not blocked.
    await createTask(server, { content: '# Waits on an archived card\n', blockedBy: [archived.id] });
    okData(await server.api('POST', `/api/tasks/${archived.id}/archive`));
    const claimed = await createTask(server, 'Claimed card');
    okData(await server.api('POST', `/api/tasks/${claimed.id}/claim`, {}, as('a2')));
    // The test server has no sign-in, so every request is the same reader: someone else acts in process.
    const actOn = (id: string) =>
      server.running.workspace.cardStates.recordActivity(server.running.workspace.index.get('default', id)!, 'bob');
    await actOn((await createTask(server, 'Changed by someone else')).id);
    const openUnread = await createTask(server, 'Opened, then changed by someone else');
    okData(await server.api('POST', `/api/tasks/${openUnread.id}/open`));
    await actOn(openUnread.id);
  });
  after(async () => server?.close());

  const list = async (query: string) =>
    okData<any[]>(await server.api('GET', `/api/tasks?includeArchived=true${query}`));

  it('when the compact list has its defaults filled in, then its cards are exactly the full list', async () => {
    const full = await list('');
    const compact = await list('&compact=true');
    assert.equal(full.length, 10);
    const neverSet = Object.entries(LIST_DEFAULTS)
      .filter(([field, empty]) => full.every((card) => JSON.stringify(card[field]) === JSON.stringify(empty)))
      .map(([field]) => field);
    assert.deepEqual(neverSet, [], 'some card sets each field that has a default');
    assert.deepEqual(
      compact.map((entry) => withListDefaults(entry)),
      full,
    );
  });

  it('when the compact list or a page of it is read, then each entry is its full entry without its defaults, in the same key order', async () => {
    const full = await list('');
    const has = (what: string, test: (card: any) => boolean) => assert.ok(full.some(test), `no card ${what}`);
    has('claimed', (card) => card.claim !== null);
    has('with a session', (card) => card.session !== null);
    has('opened', (card) => card.cardState.open && !card.cardState.unread);
    has('unread', (card) => !card.cardState.open && card.cardState.unread);
    has('opened and unread', (card) => card.cardState.open && card.cardState.unread);
    has('blocked', (card) => card.blocked && card.openBlockers > 0);
    has('waiting only on finished cards', (card) => card.blockedBy.length > 0 && !card.blocked);
    has('blocking a finished card', (card) => card.blocks.length > 0 && !card.blocked);
    for (const [compactQuery, fullQuery] of [
      ['&compact=true', ''],
      ['&compact=true&limit=50&sort=title', '&limit=50&sort=title'],
    ]) {
      const expected = (await list(fullQuery)).map((card) => withoutListDefaults(card));
      assert.equal(JSON.stringify(await list(compactQuery)), JSON.stringify(expected), compactQuery);
    }
  });

  it('when a card has no optional field set, then its compact entry holds only the fields every card has', async () => {
    const entry = (await list('&compact=true')).find((t) => t.title === 'Finished card');
    assert.deepEqual(Object.keys(entry).sort(), [
      'boardId',
      'completedAt',
      'content',
      'created',
      'filePath',
      'id',
      'modified',
      'position',
      'priority',
      'status',
      'title',
    ]);
  });

  it('when the compact list is read, then no entry holds a field at its empty default', async () => {
    for (const entry of await list('&compact=true')) {
      for (const [field, empty] of Object.entries(LIST_DEFAULTS))
        if (field in entry)
          assert.notDeepEqual(entry[field], empty, `${entry.title}: ${field} is its default and still sent`);
    }
  });

  it('when a card sets every optional field, then its compact entry keeps them all', async () => {
    const entry = (await list('&compact=true')).find((t) => t.title === 'Every field set');
    const missing = Object.keys(LIST_DEFAULTS).filter((field) => !(field in entry));
    // Only what other cards or later steps would set is left out: it is not archived, finished, a sub-card, waited for or duplicated.
    assert.deepEqual(missing.sort(), ['archivedAt', 'blocks', 'children', 'completedAt', 'duplicates', 'parent']);
    assert.deepEqual(entry.actions, ['build']);
    assert.deepEqual(entry.cardState, { open: true, unread: false });
  });

  it('when an empty action map is listed compact, then it stays: only the exact default is left out', async () => {
    const entry = (await list('&compact=true')).find((t) => t.title === 'Empty action map');
    assert.deepEqual(entry.actions, {});
  });

  it('when a page of the compact list is asked, then its entries are compact too', async () => {
    const page = okData<any[]>(await server.api('GET', '/api/tasks?compact=true&limit=2&sort=title'));
    assert.equal(page.length, 2);
    for (const entry of page) assert.ok(!('claim' in entry), `${entry.title} still holds claim: null`);
  });

  it("when the OpenAPI document is read, then the list entry names each left-out field's default", async () => {
    const doc = (await server.api('GET', '/api/docs/json')).body as any;
    const properties = doc.components.schemas.TaskListEntry.properties;
    for (const [field, empty] of Object.entries(LIST_DEFAULTS))
      assert.deepEqual(properties[field].default, empty, field);
    assert.ok(
      doc.paths['/tasks'].get.parameters.some((p: { name: string }) => p.name === 'compact'),
      'the list route documents compact',
    );
  });

  it('when compact is combined with fields, then the list answers 400 saying why', async () => {
    failsWith(await server.api('GET', '/api/tasks?compact=true&fields=id,title'), 400, /compact.*fields/);
  });
});
