import { strict as assert } from 'node:assert';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, listIds, okData } from '../helpers/envelope';
import { CARD_PROVIDERS, configWith, setUpCardProvider, type CardProviderSetup } from './helpers/cardProviders';

/**
 * One HTTP behaviour suite, run against every card.storage provider: whatever the provider, a
 * client sees the same answers, and everything survives a restart (which reloads from the store).
 */
const VARIANTS = [
  ...CARD_PROVIDERS.map((providerName) => ({ providerName, driver: undefined as string | undefined })),
  // SQLite as VS Code runs it: the WebAssembly build (see server/storage/sqlite/wasmSqlite.ts).
  { providerName: 'sqlite' as const, driver: 'wasm' },
];

for (const { providerName, driver } of VARIANTS) {
  describe(`card.storage ${providerName}${driver ? ` (${driver} driver)` : ''}: the same HTTP behaviour`, function () {
    this.timeout(30_000);
    let provider: CardProviderSetup;
    let server: TestServer;

    beforeEach(async () => {
      if (driver) process.env.KANBAN_SQLITE_DRIVER = driver;
      provider = await setUpCardProvider(providerName);
      server = await startTestServer({ config: configWith(provider.plugins) });
    });
    afterEach(async () => {
      await server?.close();
      await provider?.cleanup();
      delete process.env.KANBAN_SQLITE_DRIVER;
    });

    it('when the storage and the workspace are asked for, then both name this provider', async () => {
      const storage = okData(await server.api('GET', '/api/storage'));
      assert.equal(storage.card.provider, providerName);
      if (providerName === 'sqlite') assert.equal(storage.card.driver, driver ?? 'native');
      const workspace = okData(await server.api('GET', '/api/workspace'));
      assert.deepEqual(workspace.providers.card, storage.card);
      await createTask(server, 'Counted');
      assert.equal(okData(await server.api('GET', '/api/workspace')).cardCount, 1);
    });

    it('when a card with every field is created, then after a restart it reads back exactly the same', async () => {
      const fields = {
        content: '# Ünïcode ✓ title 🚀\n\nLine one\n\n```js\nconst x = "---";\n```\n\ttabbed\n',
        status: 'todo',
        priority: 'critical',
        assignee: 'Zoë',
        dueDate: '2026-12-31T17:00:00Z',
        labels: ['bug', 'ui'],
        metadata: { sprint: 4, links: { jira: 'ABC-1' }, flags: [true, null, 'x'] },
        forms: [{ name: 'triage' }],
        formData: { triage: { severity: 'high' } },
        actions: { deploy: 'Deploy', rollback: 'Roll back' },
      };
      const created = await createTask(server, fields);
      await server.restart();
      const read = okData(await server.api('GET', `/api/tasks/${created.id}`));
      for (const [key, value] of Object.entries(fields)) assert.deepEqual(read[key], value, `field ${key}`);
      assert.equal(read.created, created.created);
      assert.equal(read.modified, created.modified);
      assert.equal(read.title, 'Ünïcode ✓ title 🚀');
    });

    it('when cards are moved to positions and columns, then the order is the same after a restart', async () => {
      const ids: string[] = [];
      for (const title of ['One', 'Two', 'Three', 'Four']) ids.push((await createTask(server, title)).id);
      okData(await server.api('PATCH', `/api/tasks/${ids[3]}/move`, { status: 'backlog', position: 0 }));
      okData(await server.api('PATCH', `/api/tasks/${ids[0]}/move`, { status: 'backlog', position: 2 }));
      okData(await server.api('PATCH', `/api/tasks/${ids[1]}/move`, { status: 'done', position: 0 }));
      const before = await listIds(server);
      assert.deepEqual(before, [ids[3], ids[0], ids[2], ids[1]]);
      await server.restart();
      assert.deepEqual(await listIds(server), before);
      const done = okData(await server.api('GET', `/api/tasks/${ids[1]}`));
      assert.equal(done.status, 'done');
      assert.ok(done.completedAt, 'a card in the last column has completedAt');
    });

    it('when comments are added, edited and deleted, then the list and its order survive a restart', async () => {
      const card = await createTask(server, 'Discussed');
      const first = okData(
        await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'ana', content: 'first\n\n- a\n- b' }),
        201,
      );
      const second = okData(
        await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'bo', content: 'second: "quoted" ---' }),
        201,
      );
      const third = okData(
        await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'cy', content: 'third' }),
        201,
      );
      okData(await server.api('PUT', `/api/tasks/${card.id}/comments/${first.id}`, { content: 'first, edited' }));
      okData(await server.api('DELETE', `/api/tasks/${card.id}/comments/${second.id}`));
      await server.restart();
      const comments = okData(await server.api('GET', `/api/tasks/${card.id}/comments`));
      assert.deepEqual(
        comments.map((c: any) => [c.id, c.author, c.content]),
        [
          [first.id, 'ana', 'first, edited'],
          [third.id, 'cy', 'third'],
        ],
      );
      assert.ok(comments[0].modified, 'an edited comment keeps its edit time');
    });

    it('when a card is soft deleted and brought back, then after a restart it is back in its column', async () => {
      const card = await createTask(server, 'Come back');
      okData(await server.api('DELETE', `/api/tasks/${card.id}`));
      await server.restart();
      assert.deepEqual(await listIds(server), []);
      assert.deepEqual(await listIds(server, '?includeDeleted=true'), [card.id]);
      okData(await server.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'todo' }));
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${card.id}`)).status, 'todo');
    });

    it('when a card is deleted for good, then after a restart it and its comments are gone, and a new card of its title starts empty', async () => {
      const card = await createTask(server, 'Gone');
      okData(await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'a', content: 'c' }), 201);
      okData(await server.api('DELETE', `/api/tasks/${card.id}/permanent`));
      await server.restart();
      failsWith(await server.api('GET', `/api/tasks/${card.id}`), 404);
      failsWith(await server.api('GET', `/api/tasks/${card.id}/comments`), 404);
      const again = await createTask(server, 'Gone');
      assert.notEqual(again.id, card.id);
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${again.id}/comments`)), []);
    });

    it('when a card is transferred to another board, then after a restart it lives there with its comments', async () => {
      const card = await createTask(server, 'Travelling');
      okData(await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'a', content: 'packed' }), 201);
      okData(await server.api('POST', `/api/boards/ops/tasks/${card.id}/transfer`, { targetStatus: 'doing' }));
      await server.restart();
      assert.deepEqual(await listIds(server), []);
      const moved = okData(await server.api('GET', `/api/boards/ops/tasks/${card.id}`));
      assert.equal(moved.status, 'doing');
      assert.deepEqual(
        moved.comments.map((c: any) => c.content),
        ['packed'],
      );
    });

    it('when cards share a title, then each gets its own id, also after a restart', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await createTask(server, 'Same title')).id);
      assert.equal(new Set(ids).size, 3);
      for (const id of ids) assert.match(id, /^same-title-\d{4}-\d{2}-\d{2}-[a-z0-9]{4}$/);
      await server.restart();
      const fourth = (await createTask(server, 'Same title')).id;
      assert.ok(!ids.includes(fourth), fourth);
      assert.deepEqual((await listIds(server)).sort(), [...ids, fourth].sort());
    });

    it('when many cards are created at once, then every one is stored with a distinct id', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => server.api('POST', '/api/tasks', { content: `# Burst ${i % 4}\n` })),
      );
      const ids = answers.map((a) => okData(a, 201).id);
      assert.equal(new Set(ids).size, 40);
      await server.restart();
      assert.deepEqual((await listIds(server)).sort(), [...ids].sort());
    });

    it('when a label is renamed, then cards carry the new name after a restart', async () => {
      const card = await createTask(server, { content: '# Labelled\n', labels: ['old', 'keep'] });
      okData(await server.api('PUT', '/api/labels/old', { color: '#ff0000' }));
      okData(await server.api('PATCH', '/api/labels/old', { newName: 'new' }));
      await server.restart();
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${card.id}`)).labels.sort(), ['keep', 'new']);
    });

    it('when files are attached, then the card references them after a restart and they download', async () => {
      const card = await createTask(server, 'With files');
      const data = Buffer.from('hello attachments ✓').toString('base64');
      okData(await server.api('POST', `/api/tasks/${card.id}/attachments`, { files: [{ name: 'notes.txt', data }] }));
      await server.restart();
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${card.id}`)).attachments, ['notes.txt']);
      const download = await fetch(`${server.url}/api/tasks/${card.id}/attachments/notes.txt`);
      assert.equal(download.status, 200);
      assert.equal(await download.text(), 'hello attachments ✓');
    });

    it('when cards are searched by metadata after a restart, then the stored values match', async () => {
      await createTask(server, { content: '# Sprint four\n', metadata: { sprint: 4, links: { jira: 'ABC-1' } } });
      await createTask(server, { content: '# Sprint five\n', metadata: { sprint: 5 } });
      await server.restart();
      const found = okData(await server.api('GET', `/api/tasks?q=${encodeURIComponent('meta.links.jira: ABC-1')}`));
      assert.deepEqual(
        found.map((t: any) => t.title),
        ['Sprint four'],
      );
    });
  });
}
