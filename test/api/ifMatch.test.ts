import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';

/** Optimistic concurrency: a client that read version A never overwrites version B. */
describe('API: ETag and If-Match', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server.close());

  const etagOf = async (url: string) => {
    const answer = await server.api('GET', url);
    okData(answer);
    const etag = answer.headers.get('etag');
    assert.ok(etag, `${url} answers an ETag`);
    return etag;
  };

  it('when a card changed after it was read, then a write with the old ETag answers 412 and changes nothing', async () => {
    const task = await createTask(server, 'Drawer left open');
    const stale = await etagOf(`/api/tasks/${task.id}`);
    okData(await server.api('PUT', `/api/tasks/${task.id}`, { assignee: 'Ana' }));
    for (const [method, url, body] of [
      ['PUT', `/api/tasks/${task.id}`, { content: '# Older text\n' }],
      ['PATCH', `/api/tasks/${task.id}/move`, { status: 'done', position: 0 }],
      ['DELETE', `/api/tasks/${task.id}`, undefined],
      ['DELETE', `/api/tasks/${task.id}/permanent`, undefined],
    ] as const) {
      failsWith(await server.api(method, url, body, { 'if-match': stale }), 412, /changed since you read it/);
    }
    const now = okData(await server.api('GET', `/api/tasks/${task.id}`));
    assert.equal(now.assignee, 'Ana');
    assert.equal(now.title, 'Drawer left open');
    assert.equal(now.status, 'backlog');
  });

  it('when the ETag is current, then the write goes through and answers the new ETag', async () => {
    const task = await createTask(server, 'Fresh read');
    const current = await etagOf(`/api/tasks/${task.id}`);
    const answer = await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }, { 'if-match': current });
    assert.equal(okData(answer).priority, 'high');
    const next = answer.headers.get('etag');
    assert.ok(next && next !== current, 'a new version');
    assert.equal(await etagOf(`/api/tasks/${task.id}`), next);
    okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'low' }, { 'if-match': '*' }));
  });

  it('when board, settings or labels changed after they were read, then a write with the old ETag answers 412', async () => {
    const board = await etagOf('/api/boards/default');
    okData(await server.api('PUT', '/api/boards/default', { description: 'newer' }));
    failsWith(await server.api('PUT', '/api/boards/default', { description: 'older' }, { 'if-match': board }), 412);
    const settings = await etagOf('/api/settings');
    okData(await server.api('PUT', '/api/settings', { compactMode: true }));
    failsWith(await server.api('PUT', '/api/settings', { compactMode: false }, { 'if-match': settings }), 412);
    const labels = await etagOf('/api/labels');
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    failsWith(await server.api('PUT', '/api/labels/bug', { color: '#00ff00' }, { 'if-match': labels }), 412);
    assert.equal(okData(await server.api('GET', '/api/boards/default')).description, 'newer');
    assert.equal(okData(await server.api('GET', '/api/settings')).compactMode, true);
    assert.equal(okData(await server.api('GET', '/api/labels')).bug.color, '#ff0000');
  });

  it('when two clients write with the same ETag at once, then exactly one succeeds', async () => {
    const task = await createTask(server, 'Race');
    const etag = await etagOf(`/api/tasks/${task.id}`);
    const answers = await Promise.all(
      ['Ana', 'Ben', 'Cy'].map((assignee) =>
        server.api('PUT', `/api/tasks/${task.id}`, { assignee }, { 'if-match': etag }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 412, 412]);
  });
});
