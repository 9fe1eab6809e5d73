import { activateWith, deactivate, double, folderWithCards, runCommand, waitFor } from './helpers/harness';
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { findFreePort } from '../../extension/server/freePort';

async function occupy(port: number): Promise<net.Server> {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
  return blocker;
}

async function portIsFree(port: number): Promise<boolean> {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('extension API server', () => {
  const blockers: net.Server[] = [];
  afterEach(async () => {
    await deactivate();
    for (const blocker of blockers.splice(0)) await new Promise((resolve) => blocker.close(resolve));
  });

  it('when Start API Server runs, then /api/tasks over HTTP shows the same cards as the service, and the status bar shows the URL', async () => {
    const port = await findFreePort('127.0.0.1');
    const folder = await folderWithCards(['Visible over HTTP']);
    const parts = activateWith([folder], { 'kanban.server.port': port });
    await runCommand('kanban.startApiServer');
    const response = await fetch(`http://127.0.0.1:${port}/api/tasks`);
    const body = (await response.json()) as { data: { title: string }[] };
    assert.deepEqual(
      body.data.map((t) => t.title),
      ['Visible over HTTP'],
    );
    assert.equal(double.statusItem('kanban.apiServer')!.text, `$(broadcast) Kanban API 127.0.0.1:${port}`);
    assert.match(double.messages.at(-1)!.text, new RegExp(`running at http://127.0.0.1:${port}/api`));
    assert.equal(parts.control.state.kind, 'running');
  });

  it('when a card is created over HTTP, then an open board panel receives the event at once', async () => {
    const folder = await folderWithCards([]);
    activateWith([folder], { 'kanban.server.port': 0 });
    await runCommand('kanban.openBoard');
    const webview = double.panels[0].webview;
    webview.send({ type: 'ready' });
    await waitFor(() => webview.posted.find((m) => m.type === 'hello'), 'hello');
    await runCommand('kanban.startApiServer');
    const url = (double.statusItem('kanban.apiServer')!.tooltip as string).match(/(http:\/\/\S+)\/api/)![1];
    const created = await fetch(`${url}/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: '# From curl\n' }),
    });
    assert.equal(created.status, 201);
    const event = await waitFor(
      () => webview.posted.find((m) => m.type === 'event' && m.event === 'task.created'),
      'task.created event',
    );
    assert.equal(event.card.title, 'From curl');
  });

  it('when the port is in use, then a warning offers another port and choosing it starts the server there', async () => {
    const taken = await findFreePort('127.0.0.1');
    blockers.push(await occupy(taken));
    const folder = await folderWithCards(['Port test']);
    activateWith([folder], { 'kanban.server.port': taken });
    let offered: string[] = [];
    double.answer('message', (shown: { text: string; items: string[] }) => {
      offered = shown.items;
      assert.match(shown.text, new RegExp(`port ${taken} on 127.0.0.1 is already in use`));
      return shown.items[0];
    });
    await runCommand('kanban.startApiServer');
    assert.match(offered[0], /^Use Port \d+$/);
    assert.deepEqual(offered.slice(1), ['Enter Another Port…', 'Open Settings']);
    const chosen = Number(offered[0].replace('Use Port ', ''));
    const response = await fetch(`http://127.0.0.1:${chosen}/api/boards`);
    assert.equal(response.status, 200);
  });

  it('when the port is in use and the warning is dismissed, then the server stays off and the extension keeps working', async () => {
    const taken = await findFreePort('127.0.0.1');
    blockers.push(await occupy(taken));
    const parts = activateWith([await folderWithCards([])], { 'kanban.server.port': taken });
    await runCommand('kanban.startApiServer');
    assert.equal(parts.control.state.kind, 'stopped');
    assert.equal(double.statusItem('kanban.apiServer')!.visible, false);
    assert.ok(double.messages.some((m) => m.kind === 'warning' && /already in use/.test(m.text)));
  });

  it('when the port setting changes while the server runs, then it moves to the new port without a reload', async () => {
    const first = await findFreePort('127.0.0.1');
    const parts = activateWith([await folderWithCards(['Mover'])], { 'kanban.server.port': first });
    await runCommand('kanban.startApiServer');
    const second = await findFreePort('127.0.0.1');
    double.setSetting('kanban.server.port', second);
    await waitFor(
      () => parts.control.state.kind === 'running' && parts.control.state.port === second,
      'the server on the new port',
    );
    assert.equal((await fetch(`http://127.0.0.1:${second}/api/tasks`)).status, 200);
    assert.ok(await portIsFree(first), 'the old port is freed');
  });

  it('when auto-start is switched on, then the server starts without a reload', async () => {
    const port = await findFreePort('127.0.0.1');
    const parts = activateWith([await folderWithCards([])], { 'kanban.server.port': port });
    double.setSetting('kanban.server.autoStart', true);
    await waitFor(() => parts.control.state.kind === 'running', 'auto-start');
    assert.equal((await fetch(`http://127.0.0.1:${port}/api/boards`)).status, 200);
  });

  it('when Stop API Server runs or the extension deactivates, then the port is free again', async () => {
    const port = await findFreePort('127.0.0.1');
    activateWith([await folderWithCards([])], { 'kanban.server.port': port, 'kanban.server.autoStart': true });
    await waitFor(async () => !(await portIsFree(port)), 'auto-started server');
    await runCommand('kanban.stopApiServer');
    assert.ok(await portIsFree(port));
    assert.equal(double.statusItem('kanban.apiServer')!.visible, false);
    await runCommand('kanban.startApiServer');
    assert.ok(!(await portIsFree(port)));
    await deactivate();
    assert.ok(await portIsFree(port));
  });

  it('when Copy API URL runs with the server up, then the clipboard holds the /api URL', async () => {
    const port = await findFreePort('127.0.0.1');
    activateWith([await folderWithCards([])], { 'kanban.server.port': port });
    await runCommand('kanban.startApiServer');
    await runCommand('kanban.copyApiUrl');
    assert.equal(double.clipboard, `http://127.0.0.1:${port}/api`);
    await runCommand('kanban.openApiDocs');
    assert.deepEqual(double.openedExternal, [`http://127.0.0.1:${port}/api/docs`]);
    const docs = await fetch(`http://127.0.0.1:${port}/api/docs`);
    assert.equal(docs.status, 200);
  });

  it('when Copy API URL runs with the server off and the offer is dismissed, then nothing is copied', async () => {
    activateWith([await folderWithCards([])]);
    await runCommand('kanban.copyApiUrl');
    assert.equal(double.clipboard, '');
    assert.match(double.messages.at(-1)!.text, /not running/);
  });

  it('when the host setting is a public address and no auth is configured, then the server refuses with a clear message', async () => {
    const parts = activateWith([await folderWithCards([])], {
      'kanban.server.port': 0,
      'kanban.server.host': '0.0.0.0',
    });
    await runCommand('kanban.startApiServer');
    assert.equal(parts.control.state.kind, 'stopped');
    assert.match(double.messages.find((m) => m.kind === 'error')!.text, /refusing to serve 0\.0\.0\.0/);
  });
});
