import { strict as assert } from 'node:assert';
import { startTestServer, type ApiAnswer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { LIST_FIELDS } from '../../server/core/listPaging';

/** Projection, sorting and strict query parameters of the task list, on a small board. */
describe('API lists: fields, sort and strict query parameters', () => {
  let server: TestServer;
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    const cards: [string, Record<string, unknown>][] = [
      ['banana', { priority: 'low', dueDate: '2026-03-01', status: 'todo' }],
      ['Apple', { priority: 'critical' }],
      ['cherry', { priority: 'high', dueDate: '2026-01-15' }],
      ['date', { priority: 'critical', dueDate: '2026-02-01', status: 'done' }],
    ];
    for (const [title, fields] of cards) ids[title] = (await createTask(server, { title, ...fields })).id;
  });
  after(async () => server?.close());

  const titles = async (query: string) =>
    okData<any[]>(await server.api('GET', `/api/tasks?${query}`)).map((t) => t.title);

  it('when fields=id,title,status is asked, then each entry has exactly those keys', async () => {
    const data = okData<any[]>(await server.api('GET', '/api/tasks?fields=id,title,status'));
    assert.equal(data.length, 4);
    for (const task of data) assert.deepEqual(Object.keys(task), ['id', 'title', 'status']);
  });

  it('when fields leaves out id, then id is still there, first', async () => {
    const data = okData<any[]>(await server.api('GET', '/api/tasks?fields=priority,title'));
    assert.deepEqual(Object.keys(data[0]), ['id', 'title', 'priority']);
  });

  it('when a projected list is compared with the full one, then the values are the same; with every field, the entries are equal', async () => {
    const full = okData<any[]>(await server.api('GET', '/api/tasks'));
    const projected = okData<any[]>(
      await server.api('GET', '/api/tasks?fields=position,dueDate,cardState,commentCount'),
    );
    assert.deepEqual(
      projected,
      full.map((t) => ({
        id: t.id,
        dueDate: t.dueDate,
        commentCount: t.commentCount,
        position: t.position,
        cardState: t.cardState,
      })),
    );
    const everyField = await server.api('GET', `/api/tasks?fields=${LIST_FIELDS.join(',')}`);
    assert.deepEqual(okData<any[]>(everyField), full);
    assert.deepEqual(Object.keys(okData<any[]>(everyField)[0]), Object.keys(full[0]), 'keys in read-model order');
    assert.ok(
      full.every((t) => typeof t.filePath === 'string'),
      'the markdown store names a file per card',
    );
  });

  it('when sorted by title, priority or due, then the order is by that value, ties by id, cards without a due date last both ways', async () => {
    assert.deepEqual(await titles('sort=title'), ['Apple', 'banana', 'cherry', 'date']);
    assert.deepEqual(await titles('sort=-title'), ['date', 'cherry', 'banana', 'Apple']);
    const byRank = [ids.Apple, ids.date].sort();
    assert.deepEqual(
      okData<any[]>(await server.api('GET', '/api/tasks?sort=priority&fields=id')).map((t) => t.id),
      [...byRank, ids.cherry, ids.banana],
    );
    assert.deepEqual(await titles('sort=due'), ['cherry', 'date', 'banana', 'Apple']);
    assert.deepEqual(await titles('sort=-due'), ['banana', 'date', 'cherry', 'Apple']);
  });

  it('when the whole list is read, then X-Total-Count counts it and there is no Link', async () => {
    const answer = await server.api('GET', '/api/tasks?priority=critical');
    assert.equal(answer.headers.get('x-total-count'), '2');
    assert.equal(answer.headers.get('link'), null);
  });

  it('when a page is read again unchanged with its ETag, then 304; after a change, the page answers again', async () => {
    const first = await fetch(`${server.url}/api/tasks?limit=2&fields=id`);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    assert.equal(
      (await fetch(`${server.url}/api/tasks?limit=2&fields=id`, { headers: { 'if-none-match': etag } })).status,
      304,
    );
    await server.api('PUT', `/api/tasks/${ids.cherry}`, { assignee: 'ada' });
    assert.equal(
      (await fetch(`${server.url}/api/tasks?limit=2&fields=id`, { headers: { 'if-none-match': etag } })).status,
      200,
    );
  });

  describe('refused with 400 and a message naming the problem', () => {
    const cases: [string, string, RegExp][] = [
      [
        'an unknown field',
        'fields=id,colour',
        /unknown field "colour" in fields; valid fields: id, boardId, title, .*cardState/,
      ],
      ['an unknown sort', 'sort=size', /"sort" must be one of position, -position, created/],
      ['archived with a value other than only', 'archived=yes', /^query parameter "archived" must be "only"$/],
      ['limit=0', 'limit=0', /"limit" must be a whole number from 1 to 1000/],
      ['limit=1001', 'limit=1001', /"limit" must be a whole number from 1 to 1000/],
      [
        'a garbage cursor',
        'cursor=not-a-cursor',
        /cursor is not one a list answer gave out; start again without cursor/,
      ],
      [
        'an unknown parameter',
        'limt=5',
        /^unknown query parameter "limt"; this route accepts: q, fuzzy, .*limit, cursor, fields, sort, meta.<field>$/,
      ],
      ['sort with a fuzzy search', 'q=aple&fuzzy=true&sort=title', /sort cannot be combined with a fuzzy search/],
    ];
    for (const [what, query, message] of cases) {
      it(`when the list gets ${what}, then 400`, async () => {
        failsWith(await server.api('GET', `/api/tasks?${query}`), 400, message);
      });
    }

    it('when a cursor is used with another sort or other filters, then 400 saying so', async () => {
      const link = (await server.api('GET', '/api/tasks?limit=1&sort=title')).headers.get('link') ?? '';
      const cursor = new URL(/<([^>]+)>/.exec(link)?.[1] ?? '', 'http://x').searchParams.get('cursor');
      assert.ok(cursor, link);
      okData(await server.api('GET', `/api/tasks?limit=1&sort=title&cursor=${cursor}`));
      failsWith(
        await server.api('GET', `/api/tasks?limit=1&sort=created&cursor=${cursor}`),
        400,
        /cursor belongs to sort=title, not sort=created/,
      );
      failsWith(
        await server.api('GET', `/api/tasks?limit=1&sort=title&priority=high&cursor=${cursor}`),
        400,
        /cursor belongs to another board or other filters/,
      );
    });

    it('when a route without query parameters gets one, then 400 saying it accepts none', async () => {
      failsWith(
        await server.api('GET', '/api/boards?page=2'),
        400,
        /^unknown query parameter "page"; this route accepts none$/,
      );
      failsWith(await server.api('GET', `/api/tasks/${ids.Apple}?fields=id`), 400, /unknown query parameter "fields"/);
    });

    it('when meta.<field> filters are sent to the list, then they are still accepted', async () => {
      assert.deepEqual(okData<any[]>(await server.api('GET', '/api/tasks?meta.sprint=s1')), []);
    });
  });
});

describe('API create with title and body', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  it('when a card is created with title and body, then its content is "# <title>", a blank line and the body', async () => {
    const task = okData(
      await server.api('POST', '/api/tasks', {
        title: 'Fix the login',
        body: 'It times out.\n\n- step one',
        priority: 'high',
      }),
      201,
    );
    assert.equal(task.title, 'Fix the login');
    assert.equal(task.content, '# Fix the login\n\nIt times out.\n\n- step one');
    assert.equal(task.priority, 'high');
    assert.match(task.id, /^fix-the-login-\d{4}-\d{2}-\d{2}-[a-z0-9]{4}$/);
  });

  it('when a card is created with a title only, then its content is the heading alone', async () => {
    assert.equal(
      okData(await server.api('POST', '/api/tasks', { title: 'Just a title' }), 201).content,
      '# Just a title\n',
    );
  });

  it('when title and content are both sent, then 400 saying to send one or the other', async () => {
    failsWith(
      await server.api('POST', '/api/tasks', { title: 'A', content: '# B' }),
      400,
      /send "content" .* or "title" with an optional "body", not both/,
    );
  });

  it('when body comes without title, or the title is empty or several lines, then 400', async () => {
    failsWith(
      await server.api('POST', '/api/tasks', { content: '# A', body: 'more' }),
      400,
      /"body" goes with "title"/,
    );
    failsWith(await server.api('POST', '/api/tasks', { title: '  ' }), 400, /title must not be empty/);
    failsWith(await server.api('POST', '/api/tasks', { title: 'one\ntwo' }), 400, /title must be one line/);
    failsWith(await server.api('POST', '/api/tasks', { priority: 'low' }), 400, /"content".*or send "title"/);
  });
});

describe('API lists: paging a fuzzy search', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    for (const title of ['Apple pie', 'Apple tart', 'Aple crumble', 'Pineapple', 'Maple syrup', 'Banana bread'])
      await createTask(server, { title });
  });
  after(async () => server?.close());

  it('when a fuzzy search is paged one card at a time while a matching card is added, then the pages give the score order of the whole answer', async () => {
    const whole = okData<any[]>(await server.api('GET', '/api/tasks?q=apple&fuzzy=true&fields=id')).map((t) => t.id);
    assert.ok(whole.length >= 4, `${whole.length} matches`);
    const paged: string[] = [];
    let url: string | undefined = '/api/tasks?q=apple&fuzzy=true&fields=id&limit=1';
    while (url) {
      const answer: ApiAnswer = await server.api('GET', url);
      paged.push(...okData<any[]>(answer).map((t) => t.id));
      url = /<([^>]+)>/.exec(answer.headers.get('link') ?? '')?.[1];
      if (paged.length === 2) await createTask(server, { title: 'Apple strudel' });
    }
    const strudel = paged.find((id) => id.startsWith('apple-strudel'));
    assert.deepEqual(
      paged.filter((id) => id !== strudel),
      whole,
    );
  });
});
