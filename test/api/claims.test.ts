import { strict as assert } from 'node:assert';
import { Dispatcher } from '../../server/api/dispatch';
import { LIST_FIELDS } from '../../server/core/listPaging';
import { taskView } from '../../server/service/views';
import * as path from 'node:path';
import { listFiles, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { forEachBoard, useServerWithOpsBoard } from '../helpers/perProvider';
import { waitUntil } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';

/**
 * Claims over real HTTP: an agent names itself with X-Kanban-Agent (or `agent` in the body), claims
 * a card for a lease, and while the lease runs other agents cannot change the card; people can.
 */
describe('API claims: agents lease cards', function () {
  this.timeout(30_000);
  let server: TestServer;
  useServerWithOpsBoard((started) => (server = started));

  const as = (agent: string) => ({ 'X-Kanban-Agent': agent });

  forEachBoard((boardId, on) => {
    const tasks = boardId ? `/api/boards/${boardId}/tasks` : '/api/tasks';

    describe(`on ${on}`, () => {
      it('when an agent claims a card, then it answers the card with claim {agent, since, until} and every read shows it', async () => {
        const { id } = await createTask(server, '# Fix login\n', boardId);
        const before = Date.now();
        const card = okData(await server.api('POST', `${tasks}/${id}/claim`, { ttlSeconds: 600 }, as('claude@host:1')));
        assert.equal(card.claim.agent, 'claude@host:1');
        const until = Date.parse(card.claim.until);
        assert.ok(until >= before + 600_000 && until <= Date.now() + 600_000, `until ${card.claim.until} is 600 s on`);
        assert.deepEqual(okData(await server.api('GET', `${tasks}/${id}`)).claim, card.claim);
        const listed = okData<any[]>(await server.api('GET', tasks)).find((c) => c.id === id);
        assert.deepEqual(listed.claim, card.claim);
        const projected = okData<any[]>(await server.api('GET', `${tasks}?fields=claim`)).find((c) => c.id === id);
        assert.deepEqual(projected, { id, claim: card.claim });
      });

      it('when a claimed card is read every way, then the kept-bytes answers and the read model object agree, in read-model key order', async () => {
        const { id } = await createTask(server, '# Every way\n', boardId);
        okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('a1')));
        const full = okData<any[]>(await server.api('GET', tasks));
        assert.deepEqual(okData<any[]>(await server.api('GET', `${tasks}?fields=${LIST_FIELDS.join(',')}`)), full);
        const entry = full.find((c) => c.id === id);
        const { comments, checklistItems, ...single } = okData(await server.api('GET', `${tasks}/${id}`));
        assert.deepEqual([comments, checklistItems], [[], []]);
        assert.deepEqual(Object.keys(single), Object.keys(entry));
        assert.deepEqual(single, entry);
        const viaBridge = await new Dispatcher(server.running.workspace).dispatch({
          method: 'GET',
          path: `${boardId ? `/boards/${boardId}` : ''}/tasks/${id}`,
        });
        assert.deepEqual((viaBridge.body as any).data.claim, entry.claim);
        assert.deepEqual(
          Object.keys(taskView(server.running.workspace, server.running.workspace.index.findById(id)!)),
          Object.keys(entry),
        );
      });

      it('when no agent claims a card, then its claim is null', async () => {
        const { id } = await createTask(server, '# Unclaimed\n', boardId);
        assert.equal(okData(await server.api('GET', `${tasks}/${id}`)).claim, null);
      });

      it('when another agent claims a claimed card, then it is a 409 naming the holder and the expiry; the holder renewing extends until', async () => {
        const { id } = await createTask(server, '# Contested\n', boardId);
        const first = okData(await server.api('POST', `${tasks}/${id}/claim`, { agent: 'a1', ttlSeconds: 60 })).claim;
        failsWith(
          await server.api('POST', `${tasks}/${id}/claim`, { agent: 'a2' }),
          409,
          new RegExp(`claimed by agent a1 until ${first.until.replace(/\./g, '\\.')}`),
        );
        const renewed = okData(await server.api('POST', `${tasks}/${id}/claim`, { ttlSeconds: 3600 }, as('a1'))).claim;
        assert.equal(renewed.agent, 'a1');
        assert.equal(renewed.since, first.since);
        assert.ok(Date.parse(renewed.until) > Date.parse(first.until), 'until moved on');
      });

      it("when another agent writes a claimed card, then it is a 409 naming the holder; a person's write goes through and the claim stays", async () => {
        const { id } = await createTask(server, '# Guarded\n', boardId);
        const claim = okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('holder'))).claim;
        failsWith(
          await server.api('PUT', `${tasks}/${id}`, { priority: 'high' }, as('intruder')),
          409,
          /claimed by agent holder until/,
        );
        failsWith(
          await server.api('PATCH', `${tasks}/${id}/move`, { status: 'done' }, as('intruder')),
          409,
          /claimed by agent holder/,
        );
        failsWith(
          await server.api('POST', `${tasks}/${id}/comments`, { author: 'x', content: 'me too' }, as('intruder')),
          409,
          /claimed by agent holder/,
        );
        assert.equal(okData(await server.api('GET', `${tasks}/${id}`)).priority, 'medium', 'nothing was written');
        const byPerson = okData(await server.api('PUT', `${tasks}/${id}`, { priority: 'high' }));
        assert.deepEqual([byPerson.priority, byPerson.claim], ['high', claim]);
        assert.equal(
          okData(await server.api('PUT', `${tasks}/${id}`, { priority: 'low' }, as('holder'))).priority,
          'low',
          'the holder writes',
        );
      });

      it("when another agent releases without force, then it is a 409 naming the holder; with force the claim goes and the card's log says so", async () => {
        const { id } = await createTask(server, '# Stuck\n', boardId);
        okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('crashed')));
        failsWith(
          await server.api('DELETE', `${tasks}/${id}/claim`, undefined, as('rescuer')),
          409,
          /claimed by agent crashed until .*force=true/,
        );
        const released = okData(
          await server.api('DELETE', `${tasks}/${id}/claim?force=true`, undefined, as('rescuer')),
        );
        assert.equal(released.claim, null);
        const log = okData<any[]>(await server.api('GET', `${tasks}/${id}/logs`));
        assert.equal(log.length, 1);
        assert.match(log[0].text, /Claim of agent crashed .* released by agent rescuer, with force/);
        assert.deepEqual(
          [log[0].object.claim.agent, log[0].object.releasedBy, log[0].object.forced],
          ['crashed', 'rescuer', true],
        );
        okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('rescuer')));
      });

      it("when the holder or a person releases, then the card is free; the holder's own release is not logged", async () => {
        const { id } = await createTask(server, '# Done with it\n', boardId);
        okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('a1')));
        assert.equal(okData(await server.api('DELETE', `${tasks}/${id}/claim`, undefined, as('a1'))).claim, null);
        assert.deepEqual(okData(await server.api('GET', `${tasks}/${id}/logs`)), []);
        okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('a2')));
        assert.equal(okData(await server.api('DELETE', `${tasks}/${id}/claim`)).claim, null);
        assert.match(
          okData<any[]>(await server.api('GET', `${tasks}/${id}/logs`))[0].text,
          /Claim of agent a2 .* released by person default/,
        );
        assert.equal(
          okData(await server.api('DELETE', `${tasks}/${id}/claim`, undefined, as('a3'))).claim,
          null,
          'releasing a free card is no error',
        );
      });
    });
  });

  it('when a claim names no agent, a bad agent name, two different agents or a lease over a day, then it is a 400 saying so', async () => {
    const { id } = await createTask(server, '# Strict\n');
    failsWith(
      await server.api('POST', `/api/tasks/${id}/claim`, {}),
      400,
      /name the agent: the X-Kanban-Agent header or agent in the body/,
    );
    failsWith(
      await server.api('POST', `/api/tasks/${id}/claim`, {}, as('two words')),
      400,
      /X-Kanban-Agent "two words" is not a valid agent name: use 1 to 64 characters of A-Z, a-z, 0-9 and \. _ @ : \/ -/,
    );
    failsWith(
      await server.api('POST', `/api/tasks/${id}/claim`, { agent: 'x'.repeat(65) }),
      400,
      /agent "x+" is not a valid agent name: use 1 to 64/,
    );
    failsWith(
      await server.api('POST', `/api/tasks/${id}/claim`, { agent: 'a1' }, as('a2')),
      400,
      /agent "a1" in the body is not the agent of the X-Kanban-Agent header \("a2"\)/,
    );
    failsWith(
      await server.api('POST', `/api/tasks/${id}/claim`, { agent: 'a1', ttlSeconds: 86_401 }),
      400,
      /ttlSeconds must be <= 86400/,
    );
    failsWith(
      await server.api('PUT', `/api/tasks/${id}`, { priority: 'high' }, as('semi;colon')),
      400,
      /is not a valid agent name/,
    );
    failsWith(
      await server.api('GET', `/api/tasks/${id}`, undefined, as('bad agent')),
      400,
      /is not a valid agent name/,
    );
    assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).claim, null, 'nothing was claimed');
  });

  it('when a claimed card moves to another board, then its claim goes along; when it is deleted for good, its claim file goes too', async () => {
    const { id } = await createTask(server, '# Travels\n');
    const claim = okData(await server.api('POST', `/api/tasks/${id}/claim`, {}, as('a1'))).claim;
    okData(await server.api('POST', `/api/boards/ops/tasks/${id}/transfer`, {}, as('a1')));
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${id}`)).claim, claim);
    failsWith(
      await server.api('PUT', `/api/boards/ops/tasks/${id}`, { priority: 'high' }, as('a2')),
      409,
      /claimed by agent a1/,
    );
    const claimsDir = path.join(server.root, '.kanban', '.state', 'claims');
    // Dot files are the folder's own bookkeeping (its change stamp), not claims.
    const claimFiles = async () => (await listFiles(claimsDir)).filter((file) => !path.basename(file).startsWith('.'));
    assert.deepEqual(await claimFiles(), [`ops/${id}.json`]);
    okData(await server.api('DELETE', `/api/boards/ops/tasks/${id}/permanent`, undefined, as('a1')));
    assert.deepEqual(await claimFiles(), []);
  });

  it('when an agent claims an unknown card, then it is a 404', async () => {
    failsWith(await server.api('POST', '/api/tasks/no-such-card-2026-01-01-zzzz/claim', {}, as('a1')), 404);
  });

  it('when a 2 s lease runs out, then reads show claim null, another agent may claim it, and WebSocket clients hear task.released', async function () {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const { id } = await createTask(server, '# Short lease\n');
      okData(await server.api('POST', `/api/tasks/${id}/claim`, { ttlSeconds: 2 }, as('brief')));
      failsWith(
        await server.api('PUT', `/api/tasks/${id}`, { priority: 'high' }, as('next')),
        409,
        /claimed by agent brief/,
      );
      await waitUntil(
        async () => okData(await server.api('GET', `/api/tasks/${id}`)).claim === null,
        6000,
        'the lease to run out',
      );
      assert.equal(
        okData<any[]>(await server.api('GET', '/api/tasks')).find((c) => c.id === id).claim,
        null,
        'the list shows it free too',
      );
      okData(await server.api('PUT', `/api/tasks/${id}`, { priority: 'high' }, as('next')));
      assert.equal(okData(await server.api('POST', `/api/tasks/${id}/claim`, {}, as('next'))).claim.agent, 'next');
      const released = await socket.waitFor((m) => m.event === 'task.released' && m.data?.taskId === id, 5000);
      assert.deepEqual([released.data.agent, released.data.expired, released.card.claim], ['brief', true, null]);
    } finally {
      socket.close();
    }
  });

  it('when an agent claims and releases, then WebSocket clients receive task.claimed and task.released with the card', async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const { id } = await createTask(server, '# Watched\n');
      okData(await server.api('POST', `/api/tasks/${id}/claim`, {}, as('a1')));
      const claimed = await socket.waitFor((m) => m.event === 'task.claimed' && m.data?.taskId === id);
      assert.deepEqual(
        [claimed.boardId, claimed.data.agent, claimed.card.id, claimed.card.claim.agent],
        ['default', 'a1', id, 'a1'],
      );
      okData(await server.api('DELETE', `/api/tasks/${id}/claim`, undefined, as('a1')));
      const released = await socket.waitFor((m) => m.event === 'task.released' && m.data?.taskId === id);
      assert.deepEqual([released.data.agent, released.data.forced, released.card.claim], ['a1', false, null]);
    } finally {
      socket.close();
    }
  });

  it('when a webhook subscribes to task.claimed and task.released, then they are valid event names', async () => {
    const hook = okData(
      await server.api('POST', '/api/webhooks', {
        url: 'http://127.0.0.1:9/agents',
        events: ['task.claimed', 'task.released'],
      }),
      201,
    );
    assert.deepEqual(hook.events, ['task.claimed', 'task.released']);
  });

  it('when the in-process dispatcher (CLI, webview) carries an agent, then the route acts as that agent', async () => {
    const dispatcher = new Dispatcher(server.running.workspace);
    const { id } = await createTask(server, '# Local\n');
    const claimed = await dispatcher.dispatch({
      method: 'POST',
      path: `/tasks/${id}/claim`,
      body: {},
      agent: 'local-agent',
    });
    assert.equal(claimed.status, 200);
    assert.equal((claimed.body as any).data.claim.agent, 'local-agent');
    const refused = await dispatcher.dispatch({
      method: 'PUT',
      path: `/tasks/${id}`,
      body: { priority: 'high' },
      agent: 'other',
    });
    assert.deepEqual(
      [refused.status, (refused.body as any).error],
      [
        409,
        `card "${id}" is claimed by agent local-agent until ${(claimed.body as any).data.claim.until}; only that agent (or a person) may change it until then`,
      ],
    );
    const bad = await dispatcher.dispatch({ method: 'POST', path: `/tasks/${id}/claim`, body: {}, agent: 'no spaces' });
    assert.equal(bad.status, 400);
  });
});
