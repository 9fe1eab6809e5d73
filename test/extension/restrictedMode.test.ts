import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  listFiles,
  openReadyBoard,
  repoRoot,
  runCommand,
  tempFolder,
  waitFor,
} from './helpers/harness';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { BoardTree } from '../../extension/sidebar/boardTree';
import type { CardNode, ColumnNode } from '../../extension/sidebar/boardTreeItems';
import { findFreePort } from '../../extension/server/freePort';
import { MCP_PROVIDER_ID } from '../../extension/mcpRegistration';
import { RESTRICTED_NOTICE, RESTRICTED_WRITE } from '../../extension/trust';
import type { FakeWebviewPanel } from './helpers/vscodeDouble';
import packageJson from '../../package.json';

let nextId = 1;
async function request(panel: FakeWebviewPanel, method: string, path: string, body?: unknown) {
  const id = nextId++;
  panel.webview.send({ type: 'request', id, method, path, body });
  return waitFor(() => panel.webview.posted.find((m) => m.type === 'response' && m.id === id), `response ${id}`);
}

function readOnlyNotices(panel: FakeWebviewPanel): (string | null)[] {
  return panel.webview.posted.filter((m) => m.type === 'readOnly').map((m) => m.notice);
}

/** Every file under the folder with its bytes and modification time: any write shows. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const files = await listFiles(root);
  const entries = await Promise.all(
    files.map(async (file) => {
      const full = path.join(root, file);
      const [text, stat] = await Promise.all([fs.readFile(full, 'utf8'), fs.stat(full)]);
      return [file, `${stat.mtimeMs} ${text}`] as const;
    }),
  );
  return new Map(entries);
}

describe('extension: Restricted Mode shows the board read-only', () => {
  afterEach(async () => {
    await deactivate();
  });

  it('when the folder is not trusted, then the board and the sidebar list the cards and the page says it is read-only', async () => {
    activateWith([await folderWithCards(['Readable'], { status: 'todo' })], {}, { trusted: false });
    const panel = await openReadyBoard();
    const list = await request(panel, 'GET', '/tasks');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((t: { title: string }) => t.title),
      ['Readable'],
    );
    assert.deepEqual(readOnlyNotices(panel), [RESTRICTED_NOTICE]);
    const tree = double.treeViews.get('kanban.sidebar')!.options.treeDataProvider as BoardTree;
    const todo = ((await tree.getChildren()) as ColumnNode[]).find((c) => c.columnId === 'todo')!;
    const rows = (await tree.getChildren(todo)) as CardNode[];
    assert.deepEqual(
      rows.map((r) => tree.getTreeItem(r).label),
      ['Readable'],
    );
  });

  it('when the folder is not trusted, then a write from the page is refused with the Restricted Mode message and no file changes', async () => {
    const folder = await folderWithCards(['Stays put']);
    activateWith([folder], {}, { trusted: false });
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 'GET', '/tasks')).body.data;
    const before = await snapshot(folder);
    const moved = await request(panel, 'PATCH', `/tasks/${task.id}/move`, { status: 'done', position: 0 });
    assert.equal(moved.status, 403);
    assert.deepEqual(moved.body, { ok: false, error: RESTRICTED_WRITE });
    const created = await request(panel, 'POST', '/tasks', { content: '# New\n' });
    assert.equal(created.status, 403);
    assert.deepEqual(await snapshot(folder), before);
  });

  it('when the folder is not trusted, then opening its board writes nothing to it until trust is granted', async () => {
    const folder = await folderWithCards(['Untouched']);
    await fs.rm(path.join(folder, '.kanban', '.state'), { recursive: true, force: true });
    // A temporary file a crashed write left (its process is gone): a trusted open removes it.
    const leftOver = '.kanban.json.tmp-999999-abc-1';
    await fs.writeFile(path.join(folder, leftOver), 'left over');
    const before = await snapshot(folder);
    const parts = activateWith([folder], {}, { trusted: false });
    const panel = await openReadyBoard();
    // Closing the read-only service waits for all it started (the index cache, say, is saved in
    // the background after a load): the folder then shows every write it would ever make. Trust
    // below reopens the folder's service (closing it again is harmless).
    await (await parts.services.get(parts.folders.primary()!)).close();
    assert.deepEqual(await snapshot(folder), before);
    const hellos = panel.webview.posted.filter((m) => m.type === 'hello').length;
    double.grantTrust();
    await waitFor(() => panel.webview.posted.filter((m) => m.type === 'hello').length > hellos, 'hello after trust');
    const files = await waitFor(async () => {
      const now = await listFiles(folder);
      return now.includes('.kanban/.state/card-index.json') ? now : null;
    }, 'the index cache of a trusted open');
    assert.ok(!files.includes(leftOver));
  });

  it('when the folder is not trusted, then Add Card refuses at once with the message and asks nothing', async () => {
    const folder = await folderWithCards([]);
    const before = await listFiles(folder);
    activateWith([folder], {}, { trusted: false });
    await runCommand('kanban.addCard');
    const refusal = await waitFor(() => double.messages.find((m) => m.text.includes(RESTRICTED_WRITE)), 'refusal');
    assert.equal(refusal.kind, 'warning');
    assert.deepEqual(refusal.items, ['Manage Workspace Trust']);
    assert.deepEqual(await listFiles(folder), before);
  });

  it('when the folder is not trusted and has no board, then Create Board and the offer of Open Board refuse with the message and write nothing', async () => {
    const folder = await tempFolder();
    activateWith([folder], {}, { trusted: false });
    await runCommand('kanban.createBoard');
    await waitFor(() => double.messages.find((m) => m.text.includes(RESTRICTED_WRITE)), 'refusal of Create Board');
    double.messages.length = 0;
    await runCommand('kanban.openBoard');
    await waitFor(() => double.messages.find((m) => m.text.includes(RESTRICTED_WRITE)), 'refusal of the offer');
    assert.ok(!double.messages.some((m) => /has no board yet/.test(m.text)), 'no offer to create a board');
    assert.deepEqual(await fs.readdir(folder), []);
  });

  it('when the folder is not trusted, then no API server starts, even with auto-start, and Start API Server says why', async () => {
    const port = await findFreePort('127.0.0.1');
    const parts = activateWith(
      [await folderWithCards([])],
      { 'kanban.server.port': port, 'kanban.server.autoStart': true },
      { trusted: false },
    );
    const states: string[] = [];
    parts.control.server.onDidChange((state) => states.push(state.kind));
    await runCommand('kanban.startApiServer');
    // Auto-start at activation, had it gone on, would have asked for the folder's service and queued
    // a start on the server the moment it opened. Once the service is open for this test too, and a
    // stop queued behind any such start has run, that start would show: the server never moved.
    await parts.services.get(parts.folders.primary()!);
    await parts.control.server.stop();
    assert.deepEqual(states, []);
    assert.equal(parts.control.state.kind, 'stopped');
    const refusal = double.messages.find((m) => m.text.includes('API server starts only in a trusted folder'));
    assert.ok(refusal, JSON.stringify(double.messages));
    assert.deepEqual(refusal.items, ['Manage Workspace Trust']);
  });

  it('when the folder is not trusted, then no MCP server is offered to agent mode until it is', async () => {
    activateWith([await folderWithCards([])], {}, { trusted: false });
    assert.equal(double.mcpProviders.has(MCP_PROVIDER_ID), false);
    double.grantTrust();
    assert.equal(double.mcpProviders.has(MCP_PROVIDER_ID), true);
  });

  it('when the folder is trusted, then the MCP server is offered at once', () => {
    activateWith([repoRoot]);
    assert.equal(double.mcpProviders.has(MCP_PROVIDER_ID), true);
  });

  it('when trust is granted, then the open board becomes writable without a reload and auto-start starts the server', async () => {
    const folder = await folderWithCards(['Will move']);
    const port = await findFreePort('127.0.0.1');
    const parts = activateWith(
      [folder],
      { 'kanban.server.port': port, 'kanban.server.autoStart': true },
      { trusted: false },
    );
    const panel = await openReadyBoard();
    const [task] = (await request(panel, 'GET', '/tasks')).body.data;
    const hellos = panel.webview.posted.filter((m) => m.type === 'hello').length;
    double.grantTrust();
    await waitFor(() => panel.webview.posted.filter((m) => m.type === 'hello').length > hellos, 'hello after trust');
    assert.deepEqual(readOnlyNotices(panel), [RESTRICTED_NOTICE, null]);
    const moved = await request(panel, 'PATCH', `/tasks/${task.id}/move`, { status: 'done', position: 0 });
    assert.equal(moved.status, 200);
    await fs.access(path.join(folder, '.kanban', 'boards', 'default', 'done', `${task.id}.md`));
    await waitFor(() => parts.control.state.kind === 'running', 'auto-start once trusted');
  });

  it('when a board loads its card store from a module of the folder, then Restricted Mode does not load it and says to trust the folder', async () => {
    const folder = await folderWithCards([]);
    const module = path.join(folder, 'store.js');
    await fs.writeFile(module, `require('fs').writeFileSync(${JSON.stringify(`${module}.ran`)}, 'ran');\n`);
    await fs.writeFile(
      path.join(folder, '.kanban.json'),
      JSON.stringify({ plugins: { 'card.storage': { provider: './store.js' } } }),
    );
    activateWith([folder], {}, { trusted: false });
    const panel = await openBoardAfterRefusal();
    const answer = await request(panel, 'GET', '/tasks');
    assert.equal(answer.status, 503);
    assert.match(answer.body.error, /Restricted Mode: this board's card.storage provider "\.\/store\.js"/);
    await assert.rejects(fs.access(`${module}.ran`));
  });
});

/** Open Board when the service cannot open: the page gets no hello, only the list of broken files. */
async function openBoardAfterRefusal(): Promise<FakeWebviewPanel> {
  await runCommand('kanban.openBoard');
  const panel = double.panels.at(-1)!;
  panel.webview.send({ type: 'ready' });
  await waitFor(() => panel.webview.posted.find((m) => m.type === 'invalidFiles'), 'the refusal');
  return panel;
}

describe('extension manifest: what a cloned repository cannot decide', () => {
  type Setting = { scope?: string };
  const settings = packageJson.contributes.configuration.properties as Record<string, Setting>;

  it('when package.json is read, then the API server settings are machine-scoped, so workspace settings cannot set them', () => {
    for (const key of ['kanban.server.host', 'kanban.server.port', 'kanban.server.autoStart'])
      assert.equal(settings[key].scope, 'machine', key);
  });

  it('when package.json is read, then untrusted workspaces get limited support and the server settings are restricted', () => {
    const declared = (packageJson as { capabilities?: { untrustedWorkspaces?: Record<string, unknown> } }).capabilities
      ?.untrustedWorkspaces;
    assert.equal(declared?.supported, 'limited');
    assert.equal(typeof declared?.description, 'string');
    assert.deepEqual(declared?.restrictedConfigurations, [
      'kanban.server.autoStart',
      'kanban.server.host',
      'kanban.server.port',
    ]);
  });
});
