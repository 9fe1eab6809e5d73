import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { configWith, setUpCardProvider } from '../storage/helpers/cardProviders';
import { Dispatcher } from '../../server/api/dispatch';
import { waitUntil as waitFor } from '../helpers/waiting';

/**
 * Lists are answered from kept serialized answers. Each test reads a list first (so an answer is
 * kept), changes something one particular way, and checks the very next list shows the change.
 */
const waitUntil = (check: () => Promise<boolean>) => waitFor(check, 5000);

async function list(server: TestServer, query = '', headers: Record<string, string> = {}): Promise<any[]> {
  const answer = await server.api('GET', `/api/tasks${query}`, undefined, headers);
  assert.equal(answer.status, 200, answer.body?.error);
  return answer.body!.data;
}

async function create(server: TestServer, content: string, fields: Record<string, unknown> = {}): Promise<any> {
  const answer = await server.api('POST', '/api/tasks', { content, ...fields });
  assert.equal(answer.status, 201, answer.body?.error);
  return answer.body!.data;
}

const titles = (tasks: any[]) => tasks.map((t) => t.title);

describe('list answers kept between reads', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({ config: configWith({}) });
  });
  afterEach(async () => server.close());

  it('when the same list is read twice with nothing changed, then both answers are equal', async () => {
    await create(server, '# One');
    await create(server, '# Two', { status: 'todo' });
    assert.deepEqual(await list(server), await list(server));
  });

  it('when a list is sent from kept bytes, then they are exactly the JSON of the list built as objects', async () => {
    await create(server, '# Ünïcödé 🚀 naïve — 漢字\n\n"quoted" \\ back\\slash\ttab', {
      labels: ['bug', 'ops'],
      assignee: 'zoë',
      dueDate: '2026-05-01',
      metadata: { links: { jira: 'ABC-1' }, n: 3, flag: true, list: [1, 'two', null] },
    });
    const moved = await create(server, '# Second', { status: 'todo' });
    await server.api('PATCH', `/api/tasks/${moved.id}/move`, { status: 'review', position: 0 });
    const deleted = await create(server, '# Gone');
    await server.api('DELETE', `/api/tasks/${deleted.id}`);
    const dispatcher = new Dispatcher(server.running.workspace);
    for (const query of ['', '?includeDeleted=true', '?q=%C3%BC', '?q=secnod&fuzzy=true', '?label=bug']) {
      const raw = await rawGet(`${server.url}/api/tasks${query}`, {});
      const viaObjects = await dispatcher.dispatch({ method: 'GET', path: `/tasks${query}` });
      assert.equal(raw.body.toString('utf8'), JSON.stringify(viaObjects.body), `query "${query}"`);
    }
  });

  it('when a task is created, updated, moved and deleted through the API, then the next list shows each change', async () => {
    const first = await create(server, '# First');
    assert.deepEqual(titles(await list(server)), ['First']);
    const second = await create(server, '# Second');
    assert.deepEqual(titles(await list(server)), ['First', 'Second']);
    await server.api('PUT', `/api/tasks/${first.id}`, { content: '# First, renamed' });
    assert.deepEqual(titles(await list(server)), ['First, renamed', 'Second']);
    await server.api('PATCH', `/api/tasks/${second.id}/move`, { status: 'backlog', position: 0 });
    const moved = await list(server);
    assert.deepEqual(titles(moved), ['Second', 'First, renamed']);
    assert.deepEqual(
      moved.map((t) => t.position),
      [0, 1],
    );
    await server.api('DELETE', `/api/tasks/${second.id}`);
    assert.deepEqual(titles(await list(server)), ['First, renamed']);
    assert.deepEqual(titles(await list(server, '?includeDeleted=true')), ['First, renamed', 'Second']);
  });

  it('when a search was answered and a matching card is added, then the same search finds it', async () => {
    await create(server, '# Apple pie');
    assert.deepEqual(titles(await list(server, '?q=apple')), ['Apple pie']);
    assert.deepEqual(titles(await list(server, '?q=aple&fuzzy=true')), ['Apple pie']);
    await create(server, '# Apple crumble');
    assert.deepEqual(titles(await list(server, '?q=apple')).sort(), ['Apple crumble', 'Apple pie']);
    assert.deepEqual(titles(await list(server, '?q=aple&fuzzy=true')).sort(), ['Apple crumble', 'Apple pie']);
  });

  it('when a comment is added, then the next list counts it', async () => {
    const task = await create(server, '# Discussed');
    assert.equal((await list(server))[0].commentCount, 0);
    const answer = await server.api('POST', `/api/tasks/${task.id}/comments`, { author: 'ann', content: 'hello' });
    assert.equal(answer.status, 201, answer.body?.error);
    assert.equal((await list(server))[0].commentCount, 1);
  });

  it('when columns are reordered through the API, then the next list follows the new column order', async () => {
    await create(server, '# In backlog', { status: 'backlog' });
    await create(server, '# In todo', { status: 'todo' });
    assert.deepEqual(titles(await list(server)), ['In backlog', 'In todo']);
    const columns = (await server.api('GET', '/api/columns')).body!.data.map((c: any) => c.id) as string[];
    const reordered = ['todo', ...columns.filter((c) => c !== 'todo')];
    assert.equal((await server.api('PUT', '/api/columns/reorder', { columnIds: reordered })).status, 200);
    assert.deepEqual(titles(await list(server)), ['In todo', 'In backlog']);
  });

  it('when a label joins a group, then the next list filtered by that group finds its cards', async () => {
    await create(server, '# Labelled', { labels: ['urgent'] });
    assert.deepEqual(await list(server, '?labelGroup=severity'), []);
    assert.equal((await server.api('PUT', '/api/labels/urgent', { color: '#ff0000', group: 'severity' })).status, 200);
    assert.deepEqual(titles(await list(server, '?labelGroup=severity')), ['Labelled']);
  });

  it('when a label is renamed, then the next list shows the new name on the card', async () => {
    await create(server, '# Tagged', { labels: ['old-name'] });
    assert.deepEqual((await list(server))[0].labels, ['old-name']);
    assert.equal((await server.api('PATCH', '/api/labels/old-name', { newName: 'new-name' })).status, 200);
    assert.deepEqual((await list(server))[0].labels, ['new-name']);
  });

  it('when a card is opened, then the next list shows it open', async () => {
    const task = await create(server, '# Looked at');
    assert.equal((await list(server))[0].cardState.open, false);
    assert.equal((await server.api('POST', `/api/tasks/${task.id}/open`)).status, 200);
    assert.equal((await list(server))[0].cardState.open, true);
  });

  it('when a card file is edited by hand, then the next list after the watcher shows the edit', async () => {
    const task = await create(server, '# Before the edit');
    assert.deepEqual(titles(await list(server)), ['Before the edit']);
    const file = path.join(server.root, '.kanban/boards/default', task.status, `${task.id}.md`);
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('# Before the edit', '# After the edit'));
    await waitUntil(async () => titles(await list(server))[0] === 'After the edit');
  });

  it('when .kanban.json is edited by hand to reorder columns, then the next list follows it', async () => {
    await create(server, '# In backlog', { status: 'backlog' });
    await create(server, '# In todo', { status: 'todo' });
    assert.deepEqual(titles(await list(server)), ['In backlog', 'In todo']);
    const configPath = path.join(server.root, '.kanban.json');
    const config = JSON.parse(await fs.readFile(configPath, 'utf8'));
    const board = config.boards.find((b: any) => b.id === 'default');
    board.columns.reverse();
    await fs.writeFile(configPath, JSON.stringify(config, null, 2));
    await waitUntil(async () => titles(await list(server))[0] === 'In todo');
  });

  it('when a client sends back the ETag of an unchanged list, then it gets 304, and after a change the new list', async () => {
    const task = await create(server, '# Cached');
    const first = await server.api('GET', '/api/tasks');
    const etag = first.headers.get('etag');
    assert.ok(etag, 'a list answer carries an ETag');
    const again = await fetch(`${server.url}/api/tasks`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    await server.api('PUT', `/api/tasks/${task.id}`, { content: '# Cached, changed' });
    const after = await fetch(`${server.url}/api/tasks`, { headers: { 'if-none-match': etag } });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), etag);
    assert.deepEqual(titles(((await after.json()) as any).data), ['Cached, changed']);
  });

  it('when another query is asked, then its ETag differs and it is never answered 304 for the first', async () => {
    await create(server, '# Something');
    const all = await server.api('GET', '/api/tasks');
    const other = await fetch(`${server.url}/api/tasks?q=nothing-matches`, {
      headers: { 'if-none-match': all.headers.get('etag')! },
    });
    assert.equal(other.status, 200);
    assert.deepEqual(((await other.json()) as any).data, []);
  });
});

/** A GET with exactly these headers (fetch() adds its own Accept-Encoding). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('list answers kept between reads: compression', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    for (let i = 0; i < 40; i++)
      await create(server, `# Card number ${i}\n\n${'Some longer text that repeats. '.repeat(10)}`);
  });
  after(async () => server.close());

  it('when the client accepts gzip, then a large list comes compressed and unpacks to the plain answer', async () => {
    const plain = await rawGet(`${server.url}/api/tasks`, {});
    assert.equal(plain.headers['content-encoding'], undefined);
    const packed = await rawGet(`${server.url}/api/tasks`, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(packed.headers['content-encoding'], 'gzip');
    assert.ok(packed.body.length < plain.body.length / 2, 'the compressed answer is smaller');
    assert.deepEqual(JSON.parse(gunzipSync(packed.body).toString('utf8')), JSON.parse(plain.body.toString('utf8')));
    assert.equal(JSON.parse(plain.body.toString('utf8')).data.length, 40);
  });

  it('when a compressed list is asked again with its ETag, then 304; the plain ETag does not match the compressed one', async () => {
    const packed = await rawGet(`${server.url}/api/tasks`, { 'accept-encoding': 'gzip' });
    const etag = packed.headers.etag as string;
    assert.equal(
      (await rawGet(`${server.url}/api/tasks`, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status,
      304,
    );
    const plain = await rawGet(`${server.url}/api/tasks`, { 'if-none-match': etag });
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
  });
});

describe('list answers kept between reads: per actor', () => {
  const ALICE = 'alice-token-0123456789';
  const BOB = 'bob-token-0123456789';
  let server: TestServer;
  beforeEach(async () => {
    const config = configWith({
      'auth.identity': {
        provider: 'token',
        options: {
          tokens: [
            { token: ALICE, subject: 'alice', role: 'editor' },
            { token: BOB, subject: 'bob', role: 'editor' },
          ],
        },
      },
    });
    server = await startTestServer({ config });
  });
  afterEach(async () => server.close());

  it('when alice opens a card, then her list shows it open and bob’s, read just before, does not', async () => {
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const created = await server.api('POST', '/api/tasks', { content: '# Shared' }, as(ALICE));
    assert.equal(created.status, 201, created.body?.error);
    assert.equal((await list(server, '', as(BOB)))[0].cardState.open, false);
    assert.equal((await list(server, '', as(ALICE)))[0].cardState.open, false);
    assert.equal(
      (await server.api('POST', `/api/tasks/${created.body!.data.id}/open`, undefined, as(ALICE))).status,
      200,
    );
    assert.equal((await list(server, '', as(ALICE)))[0].cardState.open, true);
    assert.equal((await list(server, '', as(BOB)))[0].cardState.open, false);
  });
});

describe('list answers kept between reads: storage changes', () => {
  it('when the cards are migrated to SQLite, then the next list no longer names Markdown files', async () => {
    const server = await startTestServer({ config: configWith({}) });
    try {
      await create(server, '# Migrating');
      assert.match((await list(server))[0].filePath, /\.md$/);
      assert.equal((await server.api('POST', '/api/storage/migrate-to-sqlite', {})).status, 200);
      const after = await list(server);
      assert.deepEqual(titles(after), ['Migrating']);
      assert.equal(after[0].filePath, undefined);
    } finally {
      await server.close();
    }
  });

  it('when another server writes to the shared SQLite database, then the next list here shows its card', async () => {
    const provider = await setUpCardProvider('sqlite');
    const first = await startTestServer({ config: configWith(provider.plugins) });
    const second = await startTestServer({ root: first.root });
    try {
      await create(first, '# From the first');
      await waitUntil(async () => titles(await list(second)).includes('From the first'));
      await create(first, '# Also from the first');
      await waitUntil(async () => titles(await list(second)).length === 2);
      assert.deepEqual(titles(await list(second)).sort(), ['Also from the first', 'From the first']);
    } finally {
      await second.running.close();
      await first.close();
    }
  });
});
