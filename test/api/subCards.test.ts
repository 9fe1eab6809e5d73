import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { type TestServer } from '../helpers/testServer';
import { cardFile, createTask, failsWith, listIds, okData } from '../helpers/envelope';
import type { CardProviderName } from '../storage/helpers/cardProviders';
import { useCardProviderServer } from '../helpers/perProvider';

/** Markdown and one SQL provider; the second board `ops` has columns inbox, doing, closed. */
const PROVIDERS: CardProviderName[] = ['markdown', 'sqlite'];

for (const providerName of PROVIDERS) {
  describe(`API sub-cards and relations (${providerName})`, () => {
    let server: TestServer;
    useCardProviderServer(providerName, (started) => (server = started));

    const get = async (id: string, boardId = 'default') =>
      okData(
        await server.api('GET', boardId === 'default' ? `/api/tasks/${id}` : `/api/boards/${boardId}/tasks/${id}`),
      );
    const logTexts = async (id: string, boardId = 'default') =>
      okData<any[]>(await server.api('GET', `/api/boards/${boardId}/tasks/${id}/logs`)).map((e) => e.text);

    it('when a card is created with a partial parent id, then the whole id is stored and the parent counts it as an open sub-card', async () => {
      const parent = await createTask(server, 'Release the installer');
      const child = await createTask(server, { content: '# Sign the binaries\n', parent: 'release-the' });
      assert.equal(child.parent, parent.id);
      assert.deepEqual((await get(parent.id)).children, { total: 1, done: 0 });
      assert.equal((await get(parent.id)).parent, null);
      if (providerName === 'markdown') {
        const text = await fs.readFile(cardFile(server, 'default', 'backlog', child.id), 'utf8');
        assert.match(text, new RegExp(`\\nparent: ${parent.id}\\n`));
      }
      await server.restart();
      assert.equal((await get(child.id)).parent, parent.id, 'the parent survives a restart');
      assert.deepEqual((await get(parent.id)).children, { total: 1, done: 0 }, 'the reverse index is rebuilt');
    });

    it('when sub-cards are done (last column) or archived, then children.done counts them, and soft-deleted ones leave the total', async () => {
      const parent = await createTask(server, 'Epic');
      const [a, b, c, d] = await Promise.all(
        ['A', 'B', 'C', 'D'].map((t) => createTask(server, { content: `# ${t}\n`, parent: parent.id })),
      );
      okData(await server.api('PATCH', `/api/tasks/${a.id}/move`, { status: 'done' }));
      okData(await server.api('POST', `/api/tasks/${b.id}/archive`));
      okData(await server.api('DELETE', `/api/tasks/${c.id}`));
      assert.deepEqual((await get(parent.id)).children, { total: 3, done: 2 });
      const listed = okData<any[]>(await server.api('GET', '/api/tasks')).find((t) => t.id === parent.id);
      assert.deepEqual(listed.children, { total: 3, done: 2 }, 'the list says the same');
      const projected = okData<any[]>(await server.api('GET', '/api/tasks?fields=children,parent')).find(
        (t) => t.id === d.id,
      );
      assert.deepEqual(projected, { id: d.id, parent: parent.id, children: { total: 0, done: 0 } });
    });

    it('when a parent would make a cycle, names the card itself, is unknown or is on another board, then the write is a 400 naming the problem', async () => {
      const top = await createTask(server, 'Top');
      const middle = await createTask(server, { content: '# Middle\n', parent: top.id });
      const bottom = await createTask(server, { content: '# Bottom\n', parent: middle.id });
      const cycle = failsWith(await server.api('PUT', `/api/tasks/${top.id}`, { parent: bottom.id }), 400, /cycle/);
      assert.match(cycle, new RegExp(`${top.id} is a sub-card of ${bottom.id} is a sub-card of ${middle.id}`));
      failsWith(await server.api('PUT', `/api/tasks/${top.id}`, { parent: top.id }), 400, /its own parent/);
      failsWith(
        await server.api('POST', '/api/tasks', { content: '# Orphan\n', parent: 'no-such-card' }),
        400,
        /parent: no card "no-such-card"/,
      );
      const elsewhere = await createTask(server, 'On ops', 'ops');
      failsWith(
        await server.api('PUT', `/api/tasks/${top.id}`, { parent: elsewhere.id }),
        400,
        /parent: no card .* on board "default"/,
      );
      assert.equal((await get(top.id)).parent, null, 'nothing was written');
      const cleared = okData(await server.api('PUT', `/api/tasks/${bottom.id}`, { parent: null }));
      assert.equal(cleared.parent, null);
      assert.deepEqual((await get(middle.id)).children, { total: 0, done: 0 });
    });

    it('when the list is filtered by parent or topLevel, then only the sub-cards or only the cards without a parent come back', async () => {
      const parent = await createTask(server, 'Parent card');
      const child = await createTask(server, { content: '# Child card\n', parent: parent.id });
      const loner = await createTask(server, 'Loner');
      assert.deepEqual(await listIds(server, `?parent=${parent.id}`), [child.id]);
      assert.deepEqual(await listIds(server, '?parent=parent-ca'), [child.id], 'a partial id works');
      assert.deepEqual((await listIds(server, '?topLevel=true')).sort(), [parent.id, loner.id].sort());
      assert.deepEqual(await listIds(server, '?topLevel=false'), [child.id]);
      failsWith(await server.api('GET', '/api/tasks?parent=nothing-like-it'), 400, /parent: no card/);
    });

    it('when a parent moves to the last column with sub-cards open, then the move happens with a Warning header naming them', async () => {
      const parent = await createTask(server, 'Ship it');
      const open = await createTask(server, { content: '# Still open\n', parent: parent.id });
      const moved = await server.api('PATCH', `/api/tasks/${parent.id}/move`, { status: 'done' });
      assert.equal(okData(moved).status, 'done');
      assert.equal(
        moved.headers.get('warning'),
        `299 - "card ${parent.id} is done but 1 of its sub-cards is still open (${open.id})"`,
      );
      okData(await server.api('PATCH', `/api/tasks/${parent.id}/move`, { status: 'todo' }));
      const byPut = await server.api('PUT', `/api/tasks/${parent.id}`, { status: 'done' });
      assert.match(String(byPut.headers.get('warning')), /1 of its sub-cards is still open/);
      okData(await server.api('PATCH', `/api/tasks/${open.id}/move`, { status: 'done' }));
      okData(await server.api('PATCH', `/api/tasks/${parent.id}/move`, { status: 'review' }));
      const clean = await server.api('PATCH', `/api/tasks/${parent.id}/move`, { status: 'done' });
      okData(clean);
      assert.equal(clean.headers.get('warning'), null, 'no warning once every sub-card is done');
    });

    it('when a bulk change moves a parent to the last column with a sub-card open, then the answer carries the same Warning', async () => {
      const parent = await createTask(server, 'Bulk parent');
      const open = await createTask(server, { content: '# Open child\n', parent: parent.id });
      const other = await createTask(server, 'Bystander');
      const bulk = await server.api('POST', '/api/tasks/bulk', {
        ids: [parent.id, other.id],
        change: { status: 'done' },
      });
      okData(bulk);
      assert.match(
        String(bulk.headers.get('warning')),
        new RegExp(`card ${parent.id} is done but 1 of its sub-cards is still open \\(${open.id}\\)`),
      );
    });

    it('when a card declares relatesTo, then both cards show the relation under related, and only the declaring one stores it', async () => {
      const a = await createTask(server, 'Login page');
      const b = await createTask(server, 'Password reset', 'ops');
      const created = await createTask(server, { content: '# Session timeout\n', relatesTo: ['login-p', b.id] });
      assert.deepEqual(created.relatesTo, [a.id, b.id]);
      assert.deepEqual(created.related, [a.id, b.id]);
      const other = await get(a.id);
      assert.deepEqual([other.relatesTo, other.related], [[], [created.id]]);
      assert.deepEqual((await get(b.id, 'ops')).related, [created.id]);
      failsWith(
        await server.api('PUT', `/api/tasks/${a.id}`, { relatesTo: [a.id] }),
        400,
        /relatesTo: a card cannot name itself/,
      );
      failsWith(
        await server.api('PUT', `/api/tasks/${a.id}`, { relatesTo: ['zzz-none'] }),
        400,
        /relatesTo: no card "zzz-none"/,
      );
    });

    it('when a card is marked duplicateOf another, then the original lists it under duplicates, and the reverse mark is refused', async () => {
      const original = await createTask(server, 'Crash on start');
      const dup = await createTask(server, { content: '# App crashes at launch\n', duplicateOf: ['crash-on'] });
      assert.deepEqual(dup.duplicateOf, [original.id]);
      const shown = await get(original.id);
      assert.deepEqual([shown.duplicates, shown.duplicateOf], [[dup.id], []]);
      failsWith(
        await server.api('PUT', `/api/tasks/${original.id}`, { duplicateOf: [dup.id] }),
        400,
        /already a duplicate/,
      );
      const before = (await server.api('GET', `/api/tasks/${original.id}`)).headers.get('etag');
      okData(await server.api('PUT', `/api/tasks/${dup.id}`, { duplicateOf: null }));
      const after = await server.api('GET', `/api/tasks/${original.id}`);
      assert.deepEqual(okData(after).duplicates, []);
      assert.notEqual(after.headers.get('etag'), before, 'the original has a new ETag when its duplicates change');
    });

    it('when a card is archived, then relations to it stay (as blockedBy does) and an archived sub-card counts as done', async () => {
      const parent = await createTask(server, 'Parent');
      const target = await createTask(server, 'Target');
      const linked = await createTask(server, {
        content: '# Linked\n',
        parent: parent.id,
        relatesTo: [target.id],
        duplicateOf: [target.id],
      });
      okData(await server.api('POST', `/api/tasks/${target.id}/archive`));
      okData(await server.api('POST', `/api/tasks/${linked.id}/archive`));
      const kept = await get(linked.id);
      assert.deepEqual([kept.parent, kept.relatesTo, kept.duplicateOf], [parent.id, [target.id], [target.id]]);
      assert.deepEqual((await get(parent.id)).children, { total: 1, done: 1 });
    });

    it('when a card is deleted for good, then every card naming it drops it, and its sub-cards lose their parent with a log entry saying so', async () => {
      const gone = await createTask(server, 'Doomed parent');
      const child = await createTask(server, { content: '# Child\n', parent: gone.id, relatesTo: [gone.id] });
      const dup = await createTask(server, { content: '# Dup\n', duplicateOf: [gone.id], blockedBy: [gone.id] });
      okData(await server.api('DELETE', `/api/tasks/${gone.id}/permanent`));
      const orphan = await get(child.id);
      assert.deepEqual([orphan.parent, orphan.relatesTo, orphan.related], [null, [], []]);
      const freed = await get(dup.id);
      assert.deepEqual([freed.duplicateOf, freed.blockedBy], [[], []]);
      assert.deepEqual(await logTexts(child.id), [
        `no longer a sub-card of ${gone.id}: the parent was deleted for good`,
      ]);
      assert.deepEqual(await logTexts(dup.id), [], 'only a lost parent is logged');
      await server.restart();
      assert.equal((await get(child.id)).parent, null, 'the change was written, not only indexed');
    });

    it('when a parent is transferred to another board, then its sub-cards stay and lose their parent (logged), and relations follow the card', async () => {
      const parent = await createTask(server, 'Moving parent');
      const child = await createTask(server, { content: '# Staying child\n', parent: parent.id });
      const friend = await createTask(server, { content: '# Friend\n', relatesTo: [parent.id] });
      okData(await server.api('POST', `/api/boards/ops/tasks/${parent.id}/transfer`, {}));
      const stayed = await get(child.id);
      assert.deepEqual([stayed.boardId, stayed.parent], ['default', null]);
      assert.deepEqual(await logTexts(child.id), [
        `no longer a sub-card of ${parent.id}: the parent moved to board ops`,
      ]);
      const moved = await get(parent.id, 'ops');
      assert.deepEqual([moved.children, moved.related], [{ total: 0, done: 0 }, [friend.id]]);
    });

    it('when a sub-card is transferred to another board, then it leaves its parent behind and its log says so', async () => {
      const parent = await createTask(server, 'Home parent');
      const child = await createTask(server, { content: '# Wandering child\n', parent: parent.id });
      const moved = okData(await server.api('POST', `/api/boards/ops/tasks/${child.id}/transfer`, {}));
      assert.equal(moved.parent, null);
      assert.deepEqual((await get(parent.id)).children, { total: 0, done: 0 });
      assert.deepEqual(await logTexts(child.id, 'ops'), [
        `no longer a sub-card of ${parent.id}: it moved to board ops`,
      ]);
    });
  });
}

for (const providerName of ['mysql', 'postgres'] as const) {
  describe(`API sub-cards and relations round trip (${providerName})`, function () {
    this.timeout(60_000);
    let server: TestServer;
    useCardProviderServer(providerName, (started) => (server = started));

    it('when a card with a parent, relations and a duplicate mark is written and the server restarts, then every field reads back', async () => {
      const parent = await createTask(server, 'Stored parent');
      const other = await createTask(server, 'Stored other', 'ops');
      const card = await createTask(server, {
        content: '# Stored child\n',
        parent: parent.id,
        relatesTo: [other.id],
        duplicateOf: [parent.id],
      });
      await server.restart();
      const read = okData(await server.api('GET', `/api/tasks/${card.id}`));
      assert.deepEqual([read.parent, read.relatesTo, read.duplicateOf], [parent.id, [other.id], [parent.id]]);
      const original = okData(await server.api('GET', `/api/tasks/${parent.id}`));
      assert.deepEqual([original.children, original.duplicates], [{ total: 1, done: 0 }, [card.id]]);
      okData(await server.api('PUT', `/api/tasks/${card.id}`, { parent: null, relatesTo: null, duplicateOf: [] }));
      await server.restart();
      const cleared = okData(await server.api('GET', `/api/tasks/${card.id}`));
      assert.deepEqual([cleared.parent, cleared.relatesTo, cleared.duplicateOf], [null, [], []]);
    });
  });
}
