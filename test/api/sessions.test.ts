import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { listFiles, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { forEachBoard, useServerWithOpsBoard } from '../helpers/perProvider';
import { waitUntil } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';

/**
 * Agent sessions over real HTTP: an agent reports its progress on a card (PUT /tasks/{id}/session),
 * which shows on the card, renews the agent's claim, and goes to the card's log on a change of state.
 */
describe('API sessions: agents report their progress on a card', function () {
  this.timeout(30_000);
  let server: TestServer;
  useServerWithOpsBoard((started) => (server = started));

  const as = (agent: string) => ({ 'X-Kanban-Agent': agent });

  forEachBoard((boardId, on) => {
    const tasks = boardId ? `/api/boards/${boardId}/tasks` : '/api/tasks';

    describe(`on ${on}`, () => {
      it('when an agent reports, then the card shows the session and the agent holds a renewed claim', async () => {
        const { id } = await createTask(server, '# Report\n', boardId);
        const claimed = okData(await server.api('POST', `${tasks}/${id}/claim`, { ttlSeconds: 600 }, as('a1'))).claim;
        const card = okData(
          await server.api(
            'PUT',
            `${tasks}/${id}/session`,
            { state: 'awaitingInput', note: 'which database?', url: 'https://ci.example/1' },
            as('a1'),
          ),
        );
        assert.deepEqual(
          { ...card.session, updatedAt: undefined },
          {
            agent: 'a1',
            state: 'awaitingInput',
            note: 'which database?',
            url: 'https://ci.example/1',
            updatedAt: undefined,
            stale: false,
          },
        );
        assert.equal(card.claim.since, claimed.since, 'a renewal keeps since');
        assert.ok(
          Date.parse(card.claim.until) >= Date.parse(claimed.until),
          'and moves until on, for the lease the claim had',
        );
        assert.ok(Date.parse(card.claim.until) <= Date.now() + 600_000);
        assert.deepEqual(okData(await server.api('GET', `${tasks}/${id}`)).session, card.session);
        const listed = okData<any[]>(await server.api('GET', tasks)).find((c) => c.id === id);
        assert.deepEqual(listed.session, card.session);
        assert.deepEqual(
          okData<any[]>(await server.api('GET', `${tasks}?fields=session`)).find((c) => c.id === id),
          { id, session: card.session },
        );
      });

      it('when an agent reports on a free card, then it takes the claim; complete releases it and keeps the session', async () => {
        const { id } = await createTask(server, '# Free\n', boardId);
        assert.equal(
          okData(await server.api('PUT', `${tasks}/${id}/session`, { state: 'active' }, as('a1'))).claim.agent,
          'a1',
        );
        const done = okData(
          await server.api('PUT', `${tasks}/${id}/session`, { state: 'complete', note: 'merged' }, as('a1')),
        );
        assert.equal(done.claim, null);
        assert.deepEqual([done.session.state, done.session.note], ['complete', 'merged']);
        assert.equal(
          okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('a2'))).claim.agent,
          'a2',
          'the card is free for others',
        );
      });

      it('when another agent holds the claim, then a report is a 409 naming the holder', async () => {
        const { id } = await createTask(server, '# Held\n', boardId);
        okData(await server.api('POST', `${tasks}/${id}/claim`, {}, as('holder')));
        failsWith(
          await server.api('PUT', `${tasks}/${id}/session`, { state: 'active' }, as('other')),
          409,
          /claimed by agent holder/,
        );
        assert.equal(okData(await server.api('GET', `${tasks}/${id}`)).session, null);
      });

      it('when the state changes, then the card log has each change with its note; a repeat of the state adds none', async () => {
        const { id } = await createTask(server, '# Logged\n', boardId);
        for (const [state, note] of [
          ['active', 'starting'],
          ['active', 'still at it'],
          ['error', 'tests fail'],
          ['complete', undefined],
        ]) {
          okData(await server.api('PUT', `${tasks}/${id}/session`, { state, note }, as('a1')));
        }
        const texts = okData<any[]>(await server.api('GET', `${tasks}/${id}/logs`)).map((entry) => entry.text);
        assert.deepEqual(
          texts.sort(),
          ['Agent a1: active - starting', 'Agent a1: complete', 'Agent a1: error - tests fail'].sort(),
        );
      });
    });
  });

  it('when a person reports, or the state is unknown, then it is a 400 saying what is wrong', async () => {
    const { id } = await createTask(server, '# Strict\n');
    failsWith(
      await server.api('PUT', `/api/tasks/${id}/session`, { state: 'active' }),
      400,
      /an agent must name itself/,
    );
    const bad = failsWith(
      await server.api('PUT', `/api/tasks/${id}/session`, { state: 'sleeping' }, as('a1')),
      400,
      /state/,
    );
    for (const state of ['active', 'awaitingInput', 'error', 'complete'])
      assert.match(JSON.stringify(bad), new RegExp(state));
    assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).session, null);
  });

  it('when the agent stays silent past a 2 s lease, then the session reads stale, WebSocket clients hear it, and a person clears it with DELETE', async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const { id } = await createTask(server, '# Quiet\n');
      okData(await server.api('POST', `/api/tasks/${id}/claim`, { ttlSeconds: 2 }, as('brief')));
      assert.equal(
        okData(await server.api('PUT', `/api/tasks/${id}/session`, { state: 'active' }, as('brief'))).session.stale,
        false,
      );
      const turned = await socket.waitFor(
        (m) => m.event === 'task.session' && m.data?.taskId === id && m.data.session?.stale === true,
        6000,
      );
      assert.equal(turned.card.session.stale, true);
      await waitUntil(
        async () => okData(await server.api('GET', `/api/tasks/${id}`)).session.stale === true,
        6000,
        'the session to turn stale',
      );
      const listed = okData<any[]>(await server.api('GET', '/api/tasks')).find((c) => c.id === id);
      assert.deepEqual(
        [listed.session.stale, listed.claim],
        [true, null],
        'the list shows it too: the claim ran out, the session stays',
      );
      assert.equal(
        okData(await server.api('PUT', `/api/tasks/${id}/session`, { state: 'active' }, as('brief'))).session.stale,
        false,
        'a report freshens it',
      );
      failsWith(
        await server.api('DELETE', `/api/tasks/${id}/session`, undefined, as('other')),
        409,
        /session of agent brief/,
      );
      assert.equal(okData(await server.api('DELETE', `/api/tasks/${id}/session`)).session, null);
      assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).session, null);
    } finally {
      socket.close();
    }
  });

  it('when an agent reports complete and stays silent past its lease, then the session never reads stale', async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const done = (await createTask(server, '# Finished\n')).id;
      const quiet = (await createTask(server, '# Abandoned\n')).id;
      for (const id of [done, quiet])
        okData(await server.api('POST', `/api/tasks/${id}/claim`, { ttlSeconds: 2 }, as('closer')));
      okData(await server.api('PUT', `/api/tasks/${done}/session`, { state: 'complete' }, as('closer')));
      okData(await server.api('PUT', `/api/tasks/${quiet}/session`, { state: 'active' }, as('closer')));
      // The abandoned card's session was reported later with the same lease: once it is stale, the finished one's lease has run out too.
      await socket.waitFor(
        (m) => m.event === 'task.session' && m.data?.taskId === quiet && m.data.session?.stale === true,
        6000,
      );
      const finished = okData(await server.api('GET', `/api/tasks/${done}`)).session;
      assert.deepEqual([finished.state, finished.stale], ['complete', false]);
    } finally {
      socket.close();
    }
  });

  it('when two agents go silent one after the other, then each lease end and each stale session is announced', async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const first = (await createTask(server, '# First to go quiet\n')).id;
      const second = (await createTask(server, '# Second to go quiet\n')).id;
      okData(await server.api('PUT', `/api/tasks/${first}/session`, { state: 'active', ttlSeconds: 1 }, as('early')));
      okData(await server.api('PUT', `/api/tasks/${second}/session`, { state: 'active', ttlSeconds: 3 }, as('late')));
      for (const id of [first, second]) {
        await socket.waitFor(
          (m) => m.event === 'task.released' && m.data?.taskId === id && m.data.expired === true,
          8000,
        );
        await socket.waitFor(
          (m) => m.event === 'task.session' && m.data?.taskId === id && m.data.session?.stale === true,
          8000,
        );
      }
    } finally {
      socket.close();
    }
  });

  it('when an agent reports, then WebSocket clients receive task.session with the card', async () => {
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const { id } = await createTask(server, '# Watched\n');
      okData(await server.api('PUT', `/api/tasks/${id}/session`, { state: 'error', note: 'boom' }, as('a1')));
      const event = await socket.waitFor((m) => m.event === 'task.session' && m.data?.taskId === id);
      assert.deepEqual(
        [event.data.session.state, event.card.session.note, event.card.claim.agent],
        ['error', 'boom', 'a1'],
      );
    } finally {
      socket.close();
    }
  });

  it('when a card is claimed and released between two identical list reads, then claimed=true and claimedBy follow it (no stale cache)', async () => {
    const { id } = await createTask(server, '# Filtered\n');
    const ids = async (query: string) => okData<any[]>(await server.api('GET', `/api/tasks?${query}`)).map((c) => c.id);
    assert.ok(!(await ids('claimed=true')).includes(id));
    assert.ok((await ids('claimed=false')).includes(id));
    okData(await server.api('POST', `/api/tasks/${id}/claim`, {}, as('filter-agent')));
    assert.deepEqual(await ids('claimed=true&claimedBy=filter-agent'), [id]);
    assert.ok(!(await ids('claimed=false')).includes(id));
    okData(await server.api('DELETE', `/api/tasks/${id}/claim`));
    assert.deepEqual(await ids('claimedBy=filter-agent'), []);
  });

  it('when an agent holds one card and only reported on another, then byAgent lists both and claimedBy only the held one', async () => {
    const { id: held } = await createTask(server, '# Held by worker\n');
    const { id: reported } = await createTask(server, '# Reported by worker\n');
    const ids = async (query: string) =>
      okData<any[]>(await server.api('GET', `/api/tasks?${query}`))
        .map((c) => c.id)
        .sort();
    okData(await server.api('POST', `/api/tasks/${held}/claim`, {}, as('worker')));
    // complete gives the claim back and keeps the session: the card is the agent's by its report alone.
    okData(await server.api('PUT', `/api/tasks/${reported}/session`, { state: 'complete' }, as('worker')));
    assert.deepEqual(await ids('byAgent=worker'), [held, reported].sort());
    assert.deepEqual(await ids('claimedBy=worker'), [held]);
    assert.deepEqual(await ids('byAgent=nobody'), []);
  });

  it('when a card with a session moves to another board, then the session goes along; when it is deleted for good, the session goes', async () => {
    const { id } = await createTask(server, '# Travels\n');
    const session = okData(await server.api('PUT', `/api/tasks/${id}/session`, { state: 'active' }, as('a1'))).session;
    okData(await server.api('POST', `/api/boards/ops/tasks/${id}/transfer`, {}, as('a1')));
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${id}`)).session, session);
    const sessions = path.join(server.root, '.kanban', '.state', 'claims', '.sessions');
    assert.deepEqual(await listFiles(sessions), [`ops/${id}.json`]);
    okData(await server.api('DELETE', `/api/boards/ops/tasks/${id}/permanent`, undefined, as('a1')));
    assert.deepEqual(await listFiles(sessions), []);
  });

  it('when a webhook subscribes to task.session, then it is a valid event name', async () => {
    const hook = okData(
      await server.api('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/agents', events: ['task.session'] }),
      201,
    );
    assert.deepEqual(hook.events, ['task.session']);
  });
});
