import { isDeepStrictEqual } from 'node:util';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FileWatcher } from '../../server/live/fileWatcher';
import { createTask } from '../../server/service/tasks';
import { Workspace } from '../../server/service/workspace';
import { serializeCard } from '../../server/storage/cardFile';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';

describe('file watching', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  const cardFile = (id: string, status = 'backlog') =>
    path.join(server.root, '.kanban/boards/default', status, `${id}.md`);

  it('when the service writes a card, then the watcher emits no echo event', async () => {
    const seen: string[] = [];
    server.running.workspace.events.on((e) => seen.push(e.event));
    const created = await server.api('POST', '/api/tasks', { content: '# Quiet' });
    await server.api('PUT', `/api/tasks/${created.body!.data.id}`, { priority: 'high' });
    await new Promise((r) => setTimeout(r, 400));
    await server.running.watcher!.settled();
    assert.deepEqual(seen, ['task.created', 'task.updated']);
  });

  it('when a card file is added by hand, then the card appears within a second', async () => {
    const created = await server.api('POST', '/api/tasks', { content: '# Template' });
    const text = await fs.readFile(cardFile(created.body!.data.id), 'utf8');
    await fs.writeFile(
      cardFile('hand-made-2026-01-01'),
      text.replace(/^id: .*$/m, 'id: hand-made-2026-01-01').replace('# Template', '# Hand made'),
    );
    await waitUntil(async () => (await server.api('GET', '/api/tasks/hand-made-2026-01-01')).status === 200, 1000);
  });

  it('when a card file is deleted by hand, then the card disappears', async () => {
    const created = await server.api('POST', '/api/tasks', { content: '# Doomed' });
    await fs.rm(cardFile(created.body!.data.id));
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${created.body!.data.id}`)).status === 404, 1000);
  });

  it('when a card file is moved to another status folder by hand, then the card moves and is not deleted', async () => {
    const created = await server.api('POST', '/api/tasks', { content: '# Wanderer' });
    const id = created.body!.data.id;
    await fs.mkdir(path.dirname(cardFile(id, 'review')), { recursive: true });
    await fs.rename(cardFile(id), cardFile(id, 'review'));
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).body?.data?.status === 'review', 1000);
    await server.running.watcher!.settled();
    assert.equal((await server.api('GET', `/api/tasks/${id}`)).body!.data.status, 'review');
  });

  it('when a card file stops parsing, then it is reported, left untouched and its last good version is served until fixed', async () => {
    const created = await server.api('POST', '/api/tasks', { content: '# Fragile' });
    const id = created.body!.data.id;
    const good = await fs.readFile(cardFile(id), 'utf8');
    const broken = good.replace('priority: medium', 'priority: [unclosed');
    await fs.writeFile(cardFile(id), broken);
    await waitUntil(async () => (await server.api('GET', '/api/workspace')).body!.data.invalidFiles.length === 1, 1000);
    assert.equal((await server.api('GET', `/api/tasks/${id}`)).body!.data.title, 'Fragile');
    assert.equal(await fs.readFile(cardFile(id), 'utf8'), broken);
    await fs.writeFile(cardFile(id), good.replace('# Fragile', '# Fixed'));
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).body!.data.title === 'Fixed', 1000);
    assert.deepEqual((await server.api('GET', '/api/workspace')).body!.data.invalidFiles, []);
  });

  it('when .kanban.json becomes invalid, then the last good config stays and the file is reported', async () => {
    await server.api('PUT', '/api/settings', { compactMode: true });
    await fs.writeFile(path.join(server.root, '.kanban.json'), '{ broken');
    await waitUntil(
      async () =>
        (await server.api('GET', '/api/workspace')).body!.data.invalidFiles.some(
          (f: { path: string }) => f.path === '.kanban.json',
        ),
      1000,
    );
    assert.equal((await server.api('GET', '/api/settings')).body!.data.compactMode, true);
  });

  it('when 1,000 card files change at once, then the index equals a fresh load', async function () {
    // A budget for 2,600 file operations whose writer and watcher share this one process: 4 s on
    // an idle two-core machine, 30 s and more late in a full run with both cores busy.
    this.timeout(120_000);
    const workspace = server.running.workspace;
    const template = (await server.api('POST', '/api/tasks', { content: '# Seed' })).body!.data;
    const seed = workspace.index.findById(template.id)!;
    const statuses = ['backlog', 'todo', 'in-progress', 'review', 'done'];
    // A git checkout: 1,000 new files, spread over folders, written as fast as possible.
    await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const id = `burst-${i}-2026-01-01`;
        const status = statuses[i % statuses.length];
        const card = { ...seed, id, status, content: `# Burst ${i}`, order: '' };
        await fs.mkdir(path.dirname(cardFile(id, status)), { recursive: true });
        await fs.writeFile(cardFile(id, status), serializeCard(card));
      }),
    );
    await waitUntil(() => workspace.index.allCards().length === 1001, 45_000, 'the 1,000 new cards in the index');
    // Then rewrite half of them and delete a hundred.
    await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const file = cardFile(`burst-${i}-2026-01-01`, statuses[i % statuses.length]);
        await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(`# Burst ${i}`, `# Changed ${i}`));
      }),
    );
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fs.rm(cardFile(`burst-${900 + i}-2026-01-01`, statuses[(900 + i) % statuses.length])),
      ),
    );
    // Every file is written: a fresh load is the truth, and the watched index must come to equal it
    // (the last events of the burst may still be on their way; a lost one never arrives).
    const fresh = await Workspace.open({ root: server.root });
    const snapshot = (ws: Workspace) =>
      ws.index
        .allCards()
        .map((c) => serializeCard(c) + c.status)
        .sort();
    try {
      const truth = snapshot(fresh);
      assert.equal(truth.length, 901);
      await waitUntil(
        () => server.running.watcher!.settled().then(() => isDeepStrictEqual(snapshot(workspace), truth)),
        45_000,
        'the index equal to a fresh load',
      ).catch(() => undefined);
      assert.deepEqual(snapshot(workspace), truth);
    } finally {
      await fresh.close();
    }
  });

  it('when card files change between the load and the start of watching, then the watcher applies those changes', async () => {
    const root = await makeTempDir('kanban-since-load-');
    const first = await Workspace.open({ root });
    const ids: string[] = [];
    for (const title of ['Edited', 'Removed', 'Kept']) ids.push((await createTask(first, 'default', { title })).id);
    await first.close();
    const ws = await Workspace.open({ root });
    const watcher = new FileWatcher(ws);
    try {
      const [edited, removed, kept] = ids.map((id) => ws.store.filePathOf!(ws.index.findById(id)!));
      const editedFile = path.join(root, edited);
      await fs.writeFile(
        editedFile,
        (await fs.readFile(editedFile, 'utf8')).replace('# Edited', '# Edited while loading'),
      );
      await fs.rm(path.join(root, removed));
      await watcher.start();
      await waitUntil(
        () => ws.index.findById(ids[0])?.content.includes('while loading') === true && !ws.index.findById(ids[1]),
        5000,
        'the edit and the removal applied',
      );
      assert.ok(ws.index.findById(ids[2]), `${kept} stays`);
    } finally {
      await watcher.close();
      await ws.close();
    }
  });
});
