import { strict as assert } from 'node:assert';
import { Dispatcher } from '../../server/api/dispatch';
import { startTestServer, type TestServer } from '../helpers/testServer';

describe('in-process dispatcher (the VS Code webview bridge)', () => {
  let server: TestServer;
  let dispatcher: Dispatcher;
  beforeEach(async () => {
    server = await startTestServer();
    dispatcher = new Dispatcher(server.running.workspace);
  });
  afterEach(async () => server.close());

  it('when a card is created through the bridge, then HTTP sees it with the same envelope', async () => {
    const created = await dispatcher.dispatch({
      method: 'POST',
      path: '/boards/default/tasks',
      body: { content: '# Bridged', priority: 'high' },
    });
    assert.equal(created.status, 201);
    const id = (created.body as { data: { id: string } }).data.id;
    const overHttp = await server.api('GET', `/api/tasks/${id}`);
    assert.equal(overHttp.body!.data.priority, 'high');
  });

  it('when a query string is given, then it filters as over HTTP', async () => {
    await dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: '# Alpha bug' } });
    await dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: '# Beta' } });
    const found = await dispatcher.dispatch({ method: 'GET', path: '/tasks?q=alpha' });
    assert.deepEqual(
      (found.body as { data: { title: string }[] }).data.map((t) => t.title),
      ['Alpha bug'],
    );
  });

  it('when asked as JSON bytes, then a list comes as the same bytes as over HTTP, with nothing in body', async () => {
    await dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: '# Alpha' } });
    await dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: '# Beta ☕' } });
    const asJson = await dispatcher.dispatch({ method: 'GET', path: '/boards/default/tasks', asJson: true });
    assert.equal(asJson.status, 200);
    assert.equal(asJson.body, null);
    const overHttp = await fetch(`${server.url}/api/boards/default/tasks`).then((r) => r.text());
    assert.equal(new TextDecoder().decode(asJson.json), overHttp);
    const asObjects = await dispatcher.dispatch({ method: 'GET', path: '/boards/default/tasks' });
    assert.equal(asObjects.json, undefined);
    assert.deepEqual(asObjects.body, JSON.parse(overHttp));
  });

  it('when the request is invalid or unknown, then the answer is the same 4xx envelope as HTTP', async () => {
    const invalid = await dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: '# X', bogus: 1 } });
    assert.equal(invalid.status, 400);
    assert.match((invalid.body as { error: string }).error, /bogus/);
    const unknown = await dispatcher.dispatch({ method: 'GET', path: '/nope' });
    assert.equal(unknown.status, 404);
    const badEncoding = await dispatcher.dispatch({ method: 'GET', path: '/tasks/%E0%A4%A' });
    assert.equal(badEncoding.status, 400);
  });

  it('when an attachment is downloaded through the bridge, then its bytes come back as base64', async () => {
    const created = await dispatcher.dispatch({ method: 'POST', path: '/tasks', body: { content: '# Files' } });
    const id = (created.body as { data: { id: string } }).data.id;
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    await dispatcher.dispatch({
      method: 'POST',
      path: `/tasks/${id}/attachments`,
      body: { files: [{ name: 'b.bin', data: bytes.toString('base64') }] },
    });
    const download = await dispatcher.dispatch({ method: 'GET', path: `/tasks/${id}/attachments/b.bin` });
    const data = (download.body as { data: { base64: string; contentType: string } }).data;
    assert.deepEqual(Buffer.from(data.base64, 'base64'), bytes);
    assert.equal(data.contentType, 'application/octet-stream');
  });
});
