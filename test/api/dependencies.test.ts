import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, failsWith, listIds, okData } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import type { CardProviderName } from '../storage/helpers/cardProviders';
import { useCardProviderServer } from '../helpers/perProvider';

/** Markdown and one SQL provider; the second board `ops` has columns inbox, doing, closed. */
const PROVIDERS: CardProviderName[] = ['markdown', 'sqlite'];

for (const providerName of PROVIDERS) {
  describe(`API dependencies (${providerName})`, () => {
    let server: TestServer;
    useCardProviderServer(providerName, (started) => (server = started));

    const get = async (id: string, boardId = 'default') =>
      okData(
        await server.api('GET', boardId === 'default' ? `/api/tasks/${id}` : `/api/boards/${boardId}/tasks/${id}`),
      );

    it('when a card is created blocked by a partial id on another board, then the whole id is stored and both sides show the link', async () => {
      const blocker = await createTask(server, 'Provision database', 'ops');
      const card = await createTask(server, { content: '# Deploy app\n', blockedBy: ['provision'] });
      assert.deepEqual(card.blockedBy, [blocker.id]);
      assert.equal(card.blocked, true);
      assert.deepEqual((await get(blocker.id, 'ops')).blocks, [card.id]);
      const listed = okData(await server.api('GET', '/api/boards/ops/tasks')).find((t: any) => t.id === blocker.id);
      assert.deepEqual([listed.blocks, listed.blocked, listed.blockedBy], [[card.id], false, []]);
      if (providerName === 'markdown') {
        const text = await fs.readFile(cardFile(server, 'default', 'backlog', card.id), 'utf8');
        assert.match(text, new RegExp(`blockedBy:\\n\\s+- ${blocker.id}\\n`));
      }
      await server.restart();
      assert.deepEqual((await get(blocker.id, 'ops')).blocks, [card.id], 'the reverse index is rebuilt at start');
    });

    it('when a blocker reaches the last column of its board or is unblocked by PUT, then blocked turns false in lists too', async () => {
      const blocker = await createTask(server, 'Write spec', 'ops');
      const card = await createTask(server, { content: '# Build\n', blockedBy: [blocker.id] });
      assert.equal(okData(await server.api('GET', '/api/tasks')).find((t: any) => t.id === card.id).blocked, true);
      okData(await server.api('PATCH', `/api/boards/ops/tasks/${blocker.id}/move`, { status: 'closed' }));
      assert.equal(
        okData(await server.api('GET', '/api/tasks')).find((t: any) => t.id === card.id).blocked,
        false,
        'the cached list follows the blocker',
      );
      okData(await server.api('PATCH', `/api/boards/ops/tasks/${blocker.id}/move`, { status: 'doing' }));
      assert.equal((await get(card.id)).blocked, true);
      const cleared = okData(await server.api('PUT', `/api/tasks/${card.id}`, { blockedBy: [] }));
      assert.deepEqual([cleared.blockedBy, cleared.blocked], [[], false]);
      assert.deepEqual((await get(blocker.id, 'ops')).blocks, []);
    });

    it('when a blocker finishes, then the blocked card has a new ETag, so a revalidating client is not told 304', async () => {
      const blocker = await createTask(server, 'Blocker');
      const card = await createTask(server, { content: '# Waits\n', blockedBy: [blocker.id] });
      const before = (await server.api('GET', `/api/tasks/${card.id}`)).headers.get('etag') as string;
      okData(await server.api('PATCH', `/api/tasks/${blocker.id}/move`, { status: 'done' }));
      const again = await server.api('GET', `/api/tasks/${card.id}`, undefined, { 'If-None-Match': before });
      assert.equal(okData(again).blocked, false);
      assert.notEqual(again.headers.get('etag'), before);
    });

    it('when blockedBy would make a cycle or names the card itself, then the PUT is a 400 naming it and nothing changes', async () => {
      const a = await createTask(server, 'Alpha');
      const b = await createTask(server, { content: '# Beta\n', blockedBy: [a.id] });
      const c = await createTask(server, { content: '# Gamma\n', blockedBy: [b.id] }, 'ops');
      failsWith(
        await server.api('PUT', `/api/tasks/${a.id}`, { blockedBy: [c.id] }),
        400,
        new RegExp(
          `"${c.id}" would make a cycle: ${a.id} is blocked by ${c.id} is blocked by ${b.id} is blocked by ${a.id}`,
        ),
      );
      failsWith(
        await server.api('PUT', `/api/tasks/${a.id}`, { blockedBy: [a.id] }),
        400,
        /cannot be blocked by itself/,
      );
      assert.deepEqual((await get(a.id)).blockedBy, []);
    });

    it('when blockedBy names an unknown or ambiguous id, then create and update are a 400 naming it', async () => {
      const card = await createTask(server, 'Target');
      await createTask(server, 'Shared one');
      await createTask(server, 'Shared two');
      failsWith(
        await server.api('POST', '/api/tasks', { content: '# X\n', blockedBy: ['no-such-card'] }),
        400,
        /blockedBy: no card "no-such-card"/,
      );
      failsWith(
        await server.api('PUT', `/api/tasks/${card.id}`, { blockedBy: ['shared'] }),
        400,
        /"shared" matches 2 cards/,
      );
      failsWith(await server.api('PUT', `/api/tasks/${card.id}`, { blockedBy: 'x' }), 400);
      assert.equal((await listIds(server)).length, 3, 'the refused create made no card');
    });

    it('when a blocker is deleted for good, then each card it blocked loses it with a real write and its own event', async () => {
      const blocker = await createTask(server, 'Blocker');
      const other = await createTask(server, 'Other');
      const one = await createTask(server, { content: '# One\n', blockedBy: [blocker.id, other.id] });
      const two = await createTask(server, { content: '# Two\n', blockedBy: [blocker.id] }, 'ops');
      const events = await eventsDuring(server, async () =>
        okData(await server.api('DELETE', `/api/tasks/${blocker.id}/permanent`)),
      );
      const updated = events
        .filter((e) => e.event === 'task.updated')
        .map((e) => [e.boardId, e.data.taskId, e.card?.blockedBy]);
      assert.deepEqual(
        updated.sort(),
        [
          ['default', one.id, [other.id]],
          ['ops', two.id, []],
        ].sort(),
      );
      await server.restart();
      assert.deepEqual((await get(one.id)).blockedBy, [other.id]);
      assert.deepEqual((await get(two.id, 'ops')).blockedBy, []);
    });

    it('when some blockers finish or are archived, then openBlockers counts only the open ones, in lists, projections and the card', async () => {
      const done = await createTask(server, 'Done blocker');
      const archived = await createTask(server, 'Archived blocker', 'ops');
      const open = await createTask(server, 'Open blocker');
      const card = await createTask(server, {
        content: '# Waits for three\n',
        blockedBy: [done.id, archived.id, open.id],
      });
      assert.deepEqual([card.blocked, card.openBlockers], [true, 3]);
      okData(await server.api('PATCH', `/api/tasks/${done.id}/move`, { status: 'done' }));
      okData(await server.api('POST', `/api/boards/ops/tasks/${archived.id}/archive`));
      const listed = okData(await server.api('GET', '/api/tasks')).find((t: any) => t.id === card.id);
      assert.deepEqual([listed.blocked, listed.openBlockers], [true, 1], 'the cached list follows the blockers');
      const projected = okData(await server.api('GET', '/api/tasks?fields=id,openBlockers')).find(
        (t: any) => t.id === card.id,
      );
      assert.deepEqual(projected, { id: card.id, openBlockers: 1 });
      okData(await server.api('PATCH', `/api/tasks/${open.id}/move`, { status: 'done' }));
      const read = await get(card.id);
      assert.deepEqual([read.blocked, read.openBlockers], [false, 0]);
      assert.equal(okData(await server.api('GET', '/api/tasks')).find((t: any) => t.id === open.id).openBlockers, 0);
    });

    it('when lists ask ready=true, then only cards neither blocked nor in the last column come, on either board', async () => {
      const blocker = await createTask(server, 'First');
      const waiting = await createTask(server, { content: '# Waiting\n', blockedBy: [blocker.id] });
      const finished = await createTask(server, { content: '# Finished\n', status: 'done' });
      const opsFree = await createTask(server, 'Ops free', 'ops');
      const opsWaiting = await createTask(server, { content: '# Ops waiting\n', blockedBy: [waiting.id] }, 'ops');
      assert.deepEqual(await listIds(server, '?ready=true'), [blocker.id]);
      assert.deepEqual((await listIds(server, '?ready=false')).sort(), [waiting.id, finished.id].sort());
      assert.deepEqual(await listIds(server, '?ready=true', 'ops'), [opsFree.id]);
      okData(await server.api('PATCH', `/api/tasks/${blocker.id}/move`, { status: 'done' }));
      assert.deepEqual(await listIds(server, '?ready=true'), [waiting.id]);
      const page = okData(await server.api('GET', '/api/boards/ops/tasks?ready=true&limit=1&fields=id,blocked'));
      assert.deepEqual(page, [{ id: opsFree.id, blocked: false }]);
      assert.ok(opsWaiting.blocked);
    });
  });
}

describe('dependencies edited by hand', () => {
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(async () => server?.close());

  it('when blockedBy is added to a card file by hand, then an event comes and the blocker lists it in blocks', async () => {
    const blocker = await createTask(server, 'Blocker by hand');
    const card = await createTask(server, 'Waits by hand');
    okData(await server.api('GET', '/api/tasks'));
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const file = cardFile(server, 'default', 'backlog', card.id);
      const text = await fs.readFile(file, 'utf8');
      await fs.writeFile(file, text.replace('\n---\n', `\nblockedBy:\n  - ${blocker.id}\n---\n`));
      await socket.waitFor((m) => m.event === 'task.updated' && m.data?.taskId === card.id, 8000);
      const listed = okData(await server.api('GET', '/api/tasks'));
      assert.deepEqual(listed.find((t: any) => t.id === blocker.id).blocks, [card.id]);
      assert.equal(listed.find((t: any) => t.id === card.id).blocked, true);
    } finally {
      socket.close();
    }
  });

  it('when a card file names an unknown blocker, then the card reads as not blocked and the id is kept', async () => {
    const card = await createTask(server, 'Hand edited');
    const file = cardFile(server, 'default', 'backlog', card.id);
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('\n---\n', '\nblockedBy:\n  - gone-2020-01-01\n---\n'));
    await server.restart();
    const read = okData(await server.api('GET', `/api/tasks/${card.id}`));
    assert.deepEqual([read.blockedBy, read.blocked], [['gone-2020-01-01'], false]);
  });
});
