import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Dispatcher } from '../../server/api/dispatch';
import { startTestServer, type TestServer } from '../helpers/testServer';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly these headers (fetch would add Accept-Encoding of its own). */
function rawGet(server: TestServer, urlPath: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(server.url + urlPath, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Headers that say something about the answer (not the connection or the clock). */
function answerHeaders(answer: RawAnswer): Record<string, unknown> {
  const { date, connection, 'keep-alive': keepAlive, ...rest } = answer.headers;
  return rest;
}

/**
 * A conditional header that changes nothing here (nothing carries Last-Modified) but makes the
 * request unusual, so it is answered by Express rather than by the fast lane (api/fastLane.ts).
 */
const THROUGH_EXPRESS = { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' };

describe('lists and searches on the fast lane: the same answers as through Express', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    for (let i = 1; i <= 30; i++) {
      const content = `# ${i % 3 === 0 ? 'Deliver the webhook' : 'Polish the sidebar'} ${i}\n\n${'Notes about the work. '.repeat(40)}\n`;
      const created = await server.api('POST', '/api/tasks', {
        content,
        status: i % 2 ? 'todo' : 'backlog',
        priority: i % 4 ? 'low' : 'high',
      });
      assert.equal(created.status, 201, created.body?.error);
    }
  });
  after(async () => server.close());

  const cases: Array<[string, string, Record<string, string>]> = [
    ['a whole list', '/api/tasks', {}],
    ['an exact search', '/api/tasks?q=webhook', {}],
    ['a fuzzy search', '/api/tasks?q=webhok&fuzzy=true', {}],
    ['a filtered list on the board-scoped path', '/api/boards/default/tasks?priority=high&status=todo', {}],
    ['a page with a next link', '/api/tasks?limit=5&fields=id,title', {}],
    ['a repeated parameter', '/api/tasks?fields=id&fields=title', {}],
    ['a list to a client that takes gzip', '/api/tasks', { 'Accept-Encoding': 'gzip, deflate, br' }],
    [
      'a list to a client that ranks gzip below the plain body',
      '/api/tasks',
      { 'Accept-Encoding': 'gzip;q=0.5, identity' },
    ],
    ['an unknown parameter', '/api/tasks?colour=blue', {}],
    ['a priority that does not exist', '/api/tasks?priority=urgent', {}],
  ];
  for (const [what, urlPath, headers] of cases) {
    it(`when ${what} is asked, then the answer is the same, status, headers and bytes, on both paths`, async () => {
      const lane = await rawGet(server, urlPath, headers);
      const express = await rawGet(server, urlPath, { ...headers, ...THROUGH_EXPRESS });
      assert.equal(lane.status, express.status);
      assert.deepEqual(answerHeaders(lane), answerHeaders(express));
      assert.ok(lane.body.equals(express.body), `bodies differ: ${lane.body.length} and ${express.body.length} bytes`);
    });
  }

  it('when a client takes gzip, then a large list comes compressed under its own ETag and unpacks to the plain answer', async () => {
    const plain = await rawGet(server, '/api/tasks');
    const packed = await rawGet(server, '/api/tasks', { 'Accept-Encoding': 'gzip' });
    assert.equal(packed.headers['content-encoding'], 'gzip');
    assert.equal(packed.headers.etag, `${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    assert.ok(gunzipSync(packed.body).equals(plain.body));
  });

  it('when a page is asked, then its total and next page are in the headers, with the other parameters kept', async () => {
    const page = await rawGet(server, '/api/tasks?limit=5&fields=id,title');
    assert.equal(page.headers['x-total-count'], '30');
    assert.match(String(page.headers.link), /^<\/api\/tasks\?limit=5&fields=id,title&cursor=[^>]+>; rel="next"$/);
    assert.equal(JSON.parse(page.body.toString()).data.length, 5);
  });

  it('when a query is malformed, then the 400 names the parameter, as before', async () => {
    const answer = await rawGet(server, '/api/tasks?priority=urgent');
    assert.equal(answer.status, 400);
    assert.match(JSON.parse(answer.body.toString()).error, /priority/);
  });
});

describe('a card read on the fast lane: the same card on every path', () => {
  let server: TestServer;
  let id: string;
  before(async () => {
    server = await startTestServer();
    const blocker = await server.api('POST', '/api/tasks', { content: '# Pick the provider' });
    const created = await server.api('POST', '/api/tasks', {
      content: '# Ship the \u00e9t\u00e9 release \u{1F680}\n\n- [x] tag\n- [ ] notes with "quotes" and \\ slashes\n',
      status: 'in-progress',
      priority: 'high',
      assignee: 'Ada',
      labels: ['backend'],
      metadata: { links: { jira: 'KB-7' } },
      dueDate: '2026-12-01',
      blockedBy: [blocker.body!.data.id],
    });
    assert.equal(created.status, 201, created.body?.error);
    id = created.body!.data.id;
    assert.equal(
      (await server.api('POST', `/api/tasks/${id}/comments`, { author: 'Lena', content: 'Looks good \u2014 ship it' }))
        .status,
      201,
    );
  });
  after(async () => server.close());

  it('when a card with comments, a checklist, a blocker and non-ASCII text is read, then both HTTP paths send the same bytes and the bridge the same card', async () => {
    const lane = await rawGet(server, `/api/tasks/${id}`);
    const express = await rawGet(server, `/api/tasks/${id}`, THROUGH_EXPRESS);
    assert.equal(lane.status, 200);
    assert.deepEqual(answerHeaders(lane), answerHeaders(express));
    assert.ok(lane.body.equals(express.body), `bodies differ: ${lane.body.length} and ${express.body.length} bytes`);
    const card = JSON.parse(lane.body.toString('utf8')).data;
    assert.equal(card.title, 'Ship the \u00e9t\u00e9 release \u{1F680}');
    assert.deepEqual(
      card.checklistItems.map((item: { done: boolean }) => item.done),
      [true, false],
    );
    assert.deepEqual([card.comments.length, card.blocked, card.openBlockers], [1, true, 1]);
    assert.equal(lane.headers.etag, express.headers.etag);
    assert.equal(Number(lane.headers['content-length']), lane.body.length);
    const bridged = await new Dispatcher(server.running.workspace).dispatch({ method: 'GET', path: `/tasks/${id}` });
    assert.equal(JSON.stringify((bridged.body as { data: unknown }).data), JSON.stringify(card));
    // The bridge hands the page the same version for If-Match as HTTP's ETag.
    assert.equal(bridged.etag, lane.headers.etag);
  });

  it('when the card is read with its ETag, then the answer is 304 without a body; after a change, the new card', async () => {
    const first = await rawGet(server, `/api/tasks/${id}`);
    const again = await rawGet(server, `/api/tasks/${id}`, { 'If-None-Match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal((await server.api('PUT', `/api/tasks/${id}`, { priority: 'low' })).status, 200);
    const changed = await rawGet(server, `/api/tasks/${id}`, { 'If-None-Match': String(first.headers.etag) });
    assert.equal(changed.status, 200);
    assert.equal(JSON.parse(changed.body.toString('utf8')).data.priority, 'low');
  });
});
