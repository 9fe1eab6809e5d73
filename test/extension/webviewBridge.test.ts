import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  openReadyBoard,
  repoRoot,
  runCommand,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { boardHtml } from '../../extension/webview/boardHtml';
import { boardCardsPath } from '../../webview/listQuery';
import { FakeWebviewPanel } from './helpers/vscodeDouble';

async function request(
  panel: FakeWebviewPanel,
  id: number,
  method: string,
  path: string,
  body?: unknown,
  responseType?: string,
) {
  panel.webview.send({ type: 'request', id, method, path, body, responseType });
  return waitFor(() => panel.webview.posted.find((m) => m.type === 'response' && m.id === id), `response ${id}`);
}

describe('extension webview bridge', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when the page says ready, then the host answers hello with the revision and only then sends events', async () => {
    activateWith([await folderWithCards(['One'])]);
    await runCommand('kanban.openBoard');
    const panel = double.panels[0];
    assert.equal(panel.webview.posted.length, 0);
    panel.webview.send({ type: 'ready' });
    const hello = await waitFor(() => panel.webview.posted.find((m) => m.type === 'hello'), 'hello');
    assert.equal(typeof hello.revision, 'number');
    assert.equal(panel.webview.posted[0].type, 'hello');
  });

  it('when the page requests an API route, then it gets the same status and envelope as HTTP would give', async () => {
    activateWith([await folderWithCards(['Listed'])]);
    const panel = await openReadyBoard();
    const list = await request(panel, 1, 'GET', '/tasks');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((t: { title: string }) => t.title),
      ['Listed'],
    );
    const bad = await request(panel, 2, 'POST', '/tasks', { content: '# x', priority: 'urgent' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.ok, false);
    assert.match(bad.body.error, /priority/);
    const missing = await request(panel, 3, 'GET', '/no/such/route');
    assert.equal(missing.status, 404);
  });

  it('when the metrics panel asks for the flow metrics, then it gets the envelope HTTP gives, parsed', async () => {
    activateWith([await folderWithCards(['Counted'])]);
    const panel = await openReadyBoard();
    const answer = await request(panel, 1, 'GET', '/boards/default/metrics?from=2026-03-01&to=2026-03-31');
    assert.equal(answer.status, 200);
    assert.equal(answer.body.ok, true);
    assert.equal(answer.body.data.board, 'default');
    assert.equal(answer.body.data.from, '2026-03-01T00:00:00.000Z');
    assert.equal(answer.body.data.cumulativeFlow.days.length, 31);
  });

  it('when the page moves a card, then the file moves and the page receives the move event', async () => {
    const folder = await folderWithCards(['Drag me']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 1, 'GET', '/tasks')).body.data;
    const moved = await request(panel, 2, 'PATCH', `/tasks/${task.id}/move`, { status: 'done', position: 0 });
    assert.equal(moved.status, 200);
    await fs.access(path.join(folder, '.kanban', 'boards', 'default', 'done', `${task.id}.md`));
    const event = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'event' && m.event === 'task.moved'),
      'move event',
    );
    assert.equal(event.data.to, 'done');
    assert.equal(event.card.status, 'done');
  });

  it("when the page releases an agent's claim (the drawer's Release claim), then it acts as a person: the claim goes and the page hears task.released", async () => {
    activateWith([await folderWithCards(['Held by an agent'])]);
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 1, 'GET', '/tasks')).body.data;
    const claimed = await request(panel, 2, 'POST', `/tasks/${task.id}/claim`, { agent: 'agent-1' });
    assert.equal(claimed.body.data.claim.agent, 'agent-1');
    const released = await request(panel, 3, 'DELETE', `/tasks/${task.id}/claim`);
    assert.deepEqual([released.status, released.body.data.claim], [200, null]);
    const event = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'event' && m.event === 'task.released'),
      'release event',
    );
    assert.deepEqual([event.data.agent, event.data.forced, event.card.claim], ['agent-1', false, null]);
  });

  it('when a card file is edited by hand, then the open page receives the change from the shared file watcher', async () => {
    const folder = await folderWithCards(['Hand edited']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 1, 'GET', '/tasks')).body.data;
    const file = path.join(folder, '.kanban', 'boards', 'default', 'backlog', `${task.id}.md`);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('# Hand edited', '# Edited in an editor'));
    const event = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'event' && m.event === 'task.updated'),
      'update event',
    );
    assert.equal(event.card.title, 'Edited in an editor');
  });

  it("when the page moves a card into a column over its WIP limit, then the response carries the server's warning, as HTTP sends it in Warning", async () => {
    activateWith([await folderWithCards(['Already busy', 'One more'], { status: 'in-progress' })]);
    const panel = await openReadyBoard();
    const limited = await request(panel, 1, 'PUT', '/columns/in-progress', { wipLimit: 2 });
    assert.equal(limited.status, 200);
    assert.equal(limited.warnings, undefined, 'an answer without a warning carries none');
    const created = await request(panel, 2, 'POST', '/tasks', { content: '# Third\n', status: 'backlog' });
    assert.equal(created.warnings, undefined);
    const moved = await request(panel, 3, 'PATCH', `/tasks/${created.body.data.id}/move`, { status: 'in-progress' });
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.warnings, ['column In Progress is over its WIP limit (3/2)']);
  });

  it('when the page sends If-Match, then the bridge checks it like HTTP: the ETag comes back, a stale one answers 412', async () => {
    const folder = await folderWithCards(['Versioned']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 1, 'GET', '/tasks')).body.data;
    const read = await request(panel, 2, 'GET', `/tasks/${task.id}`);
    assert.equal(read.status, 200);
    assert.match(read.etag, /^"[^"]+"$/);
    panel.webview.send({
      type: 'request',
      id: 3,
      method: 'PUT',
      path: `/tasks/${task.id}`,
      body: { priority: 'high' },
      ifMatch: read.etag,
    });
    const saved = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'response' && m.id === 3),
      'response 3',
    );
    assert.equal(saved.status, 200);
    assert.ok(saved.etag && saved.etag !== read.etag, 'the save answers the new version');
    panel.webview.send({
      type: 'request',
      id: 4,
      method: 'PUT',
      path: `/tasks/${task.id}`,
      body: { priority: 'low' },
      ifMatch: read.etag,
    });
    const stale = await waitFor(
      () => panel.webview.posted.find((m) => m.type === 'response' && m.id === 4),
      'response 4',
    );
    assert.equal(stale.status, 412);
    assert.equal(stale.body.ok, false);
    assert.match(stale.body.error, /changed since you read it/);
    const file = await fs.readFile(
      path.join(folder, '.kanban', 'boards', 'default', 'backlog', `${task.id}.md`),
      'utf8',
    );
    assert.match(file, /priority: high/);
  });

  it('when the page asks for a file as base64, then it gets the protocol FilePayload', async () => {
    activateWith([await folderWithCards(['With file'])]);
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 1, 'GET', '/tasks')).body.data;
    const upload = await request(panel, 2, 'POST', `/tasks/${task.id}/attachments`, {
      files: [{ name: 'note.txt', data: Buffer.from('hello').toString('base64') }],
    });
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    const file = await request(panel, 3, 'GET', `/tasks/${task.id}/attachments/note.txt`, undefined, 'base64');
    assert.equal(file.status, 200);
    assert.equal(Buffer.from(file.body.data, 'base64').toString(), 'hello');
    assert.match(file.body.contentType, /text\/plain/);
  });

  it('when the page sends malformed messages, then they are ignored and the bridge keeps answering', async () => {
    activateWith([await folderWithCards(['Robust'])]);
    const panel = await openReadyBoard();
    const before = panel.webview.posted.length;
    for (const junk of [
      null,
      42,
      'ready',
      { type: 'request' },
      { type: 'request', id: 'x', method: 'GET', path: '/tasks' },
      { type: 'request', id: 9, method: 'GET', path: 'http://evil/' },
      { type: 'nope' },
    ]) {
      panel.webview.send(junk);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(panel.webview.posted.length, before);
    assert.equal((await request(panel, 10, 'GET', '/boards')).status, 200);
  });

  it('when the page asks to copy text (Copy id, Copy link), then the editor clipboard holds it; an oversized text is refused', async () => {
    activateWith([await folderWithCards(['Copied'])]);
    const panel = await openReadyBoard();
    panel.webview.send({ type: 'copyText', text: 'copied-2026-01-01' });
    await waitFor(() => double.clipboard === 'copied-2026-01-01', 'the clipboard');
    panel.webview.send({ type: 'copyText', text: 'x'.repeat(5000) });
    panel.webview.send({ type: 'copyText', text: 'after' });
    await waitFor(() => double.clipboard === 'after', 'the later copy');
    assert.deepEqual(double.clipboardWrites, ['copied-2026-01-01', 'after']);
  });

  it("when the page asks for the cards, then they come as the compact list's UTF-8 JSON; a write answers with its object", async () => {
    activateWith([await folderWithCards(['First', 'Café ☕ über'])]);
    const panel = await openReadyBoard();
    const list = await request(panel, 1, 'GET', boardCardsPath('default'));
    assert.equal(list.status, 200);
    // A plain Uint8Array, not a Node Buffer: the editor would send a Buffer as an array of numbers.
    assert.equal(list.utf8Kind, 'Uint8Array', 'the list was not sent as plain bytes');
    const entries = JSON.parse(new TextDecoder().decode(list.utf8)).data as { title: string }[];
    assert.deepEqual(
      entries.map((t) => t.title),
      ['First', 'Café ☕ über'],
    );
    assert.ok(
      entries.every((t) => !('labels' in t) && !('claim' in t)),
      'the empty defaults were sent',
    );
    const created = await request(panel, 2, 'POST', '/boards/default/tasks', { content: '# Third\n', status: 'todo' });
    assert.equal(created.status, 201);
    assert.equal(created.utf8, undefined);
    assert.equal(created.body.data.title, 'Third');
  });

  it('when the page asks to open a card file by its path, then that file opens; a path outside the kanban root does not', async () => {
    const folder = await folderWithCards(['Opened']);
    activateWith([folder]);
    const panel = await openReadyBoard();
    const list = await (async () => {
      panel.webview.send({ type: 'request', id: 1, method: 'GET', path: '/tasks' });
      return waitFor(() => panel.webview.posted.find((m) => m.type === 'response' && m.id === 1), 'the list');
    })();
    const filePath = list.body.data[0].filePath as string;
    panel.webview.send({ type: 'openFile', path: '../../etc/passwd' });
    panel.webview.send({ type: 'openFile', path: filePath });
    await waitFor(() => double.openedDocuments.length > 0, 'an opened document');
    assert.deepEqual(double.openedDocuments, [path.join(folder, ...filePath.split('/'))]);
  });

  it('when the board page is built, then its policy allows only the nonce script and the built assets', async () => {
    activateWith([await folderWithCards([])]);
    await runCommand('kanban.openBoard');
    const panel = double.panels[0];
    const html = panel.webview.html;
    const policy = /content="([^"]+)"/.exec(html)![1];
    const nonce = /script-src 'nonce-([A-Za-z0-9]+)'/.exec(policy)![1];
    assert.ok(nonce.length >= 16);
    // A module script: the chunks it imports later (the metrics' Chart.js) go under its nonce, from
    // dist/webview/chunks/, inside the one resource root below.
    assert.match(
      html,
      new RegExp(
        `<script type="module" nonce="${nonce}" src="https://file\\+\\.vscode-resource\\.test[^"]*/dist/webview/main\\.js"`,
      ),
    );
    // The icon font's stylesheet, from the same origin its font is allowed from.
    assert.match(
      html,
      /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.test[^"]*\/dist\/webview\/codicon\.css"/,
    );
    assert.match(policy, /font-src https:\/\/file\+\.vscode-resource\.test/);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|\*/);
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /connect-src 'none'/);
    assert.deepEqual(
      panel.webview.options.localResourceRoots!.map((u) => u.fsPath),
      [path.join(repoRoot, 'dist', 'webview')],
    );
    assert.notEqual(
      boardHtml({ cspSource: 'x', scriptUri: 'a', styleUri: 'b', iconStyleUri: 'c', title: 't' }).match(
        /nonce-(\w+)/,
      )![1],
      nonce,
      'a new nonce per page',
    );
  });

  it('when Open Board runs twice, then the one panel is revealed instead of a second one', async () => {
    activateWith([await folderWithCards([])]);
    await runCommand('kanban.openBoard');
    await runCommand('kanban.openBoard');
    assert.equal(double.panels.length, 1);
    assert.equal(double.panels[0].revealed, 1);
  });

  it('when the window reloads, then the serializer brings the board back connected to the service', async () => {
    activateWith([await folderWithCards(['Survives reload'])]);
    await openReadyBoard();
    // A reload ends the old page; VS Code then hands a new panel (with the page's saved state) to the serializer.
    double.panels[0].dispose();
    const restored = new FakeWebviewPanel('kanban.board', 'Kanban', {});
    await double.serializers.get('kanban.board')!.deserializeWebviewPanel(restored, { boardId: 'default' });
    assert.match(restored.webview.html, /main\.js/);
    assert.equal(restored.disposed, false);
    restored.webview.send({ type: 'ready' });
    await waitFor(() => restored.webview.posted.find((m) => m.type === 'hello'), 'hello after restore');
    restored.webview.send({ type: 'request', id: 1, method: 'GET', path: '/tasks' });
    const list = await waitFor(
      () => restored.webview.posted.find((m) => m.type === 'response'),
      'response after restore',
    );
    assert.equal(list.body.data[0].title, 'Survives reload');
  });

  it('when the kanban location setting changes, then open pages are told to reconnect and get a new hello from the new folder', async () => {
    const folder = await folderWithCards(['At the root']);
    const nested = path.join(folder, 'nested');
    await fs.mkdir(nested);
    activateWith([folder]);
    const panel = await openReadyBoard();
    double.setSetting('kanban.location', 'nested');
    await waitFor(() => panel.webview.posted.filter((m) => m.type === 'hello').length === 2, 'second hello');
    const types = panel.webview.posted.map((m) => m.type);
    assert.ok(types.indexOf('disconnected') < types.lastIndexOf('hello'));
    const list = await request(panel, 5, 'GET', '/tasks');
    assert.deepEqual(list.body.data, []);
  });
});
