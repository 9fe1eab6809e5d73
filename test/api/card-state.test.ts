import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../server/core/model';
import { CardStates } from '../../server/service/cardState';
import type { CardStateRecord, CardStateStore } from '../../server/storage/cardStateStore';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, exists, failsWith, okData } from '../helpers/envelope';
import { startServerWithOpsBoard } from '../helpers/serverHooks';

function stateFile(server: TestServer): string {
  // Changes are appended to the journal; the snapshot beside it is written by compaction.
  return path.join(server.root, '.kanban', '.state', 'card-state.journal');
}

function states(server: TestServer): CardStates {
  return server.running.workspace.cardStates;
}

function storedCard(server: TestServer, boardId: string, id: string): Card {
  const card = server.running.workspace.index.get(boardId, id);
  assert.ok(card, `card ${id} is not in the index of board ${boardId}`);
  return card;
}

/** A card.state store kept in memory: a real implementation of the interface, without files. */
class MemoryCardStateStore implements CardStateStore {
  readonly provider = 'memory';
  readonly records = new Map<string, CardStateRecord>();
  async loadAll() {
    return [...this.records.values()];
  }
  async save(record: CardStateRecord) {
    this.records.set(`${record.cardId}/${record.actor}`, record);
  }
  async removeCard(_boardId: string, cardId: string) {
    for (const [key, record] of this.records) if (record.cardId === cardId) this.records.delete(key);
  }
  async close() {}
}

const later = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('API card state', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('two actors, through the in-process service', () => {
    let card: Card;
    beforeEach(async () => {
      const task = await createTask(server, 'Shared card');
      card = storedCard(server, 'default', task.id);
    });

    it('when alice acts on a card, then it is unread for bob but not for alice herself', async () => {
      assert.deepEqual(states(server).stateOf(card.id, 'bob'), { open: false, unread: false });
      await states(server).recordActivity(card, 'alice');
      assert.equal(states(server).stateOf(card.id, 'bob').unread, true);
      assert.equal(states(server).stateOf(card.id, 'alice').unread, false);
    });

    it('when bob reads after alice acted, then it is read for bob until alice acts again', async () => {
      await states(server).recordActivity(card, 'alice');
      const result = await states(server).markRead(card, 'bob');
      assert.equal(result.unread, false);
      assert.equal(states(server).stateOf(card.id, 'bob').unread, false);
      await states(server).recordActivity(card, 'alice');
      assert.equal(states(server).stateOf(card.id, 'bob').unread, true);
    });

    it('when bob acts himself after reading, then it stays read for bob and becomes unread for alice', async () => {
      await states(server).recordActivity(card, 'alice');
      await states(server).markRead(card, 'alice');
      await states(server).markRead(card, 'bob');
      await states(server).recordActivity(card, 'bob');
      assert.equal(states(server).stateOf(card.id, 'bob').unread, false);
      assert.equal(states(server).stateOf(card.id, 'alice').unread, true);
    });

    it("when bob reads through a cursor before alice's latest activity, then it stays unread; a cursor after it clears it", async () => {
      await states(server).recordActivity(card, 'alice');
      const first = new Date().toISOString();
      await later();
      await states(server).recordActivity(card, 'alice');
      await later();
      assert.equal((await states(server).markRead(card, 'bob', { at: first })).unread, true);
      assert.equal((await states(server).markRead(card, 'bob', { at: new Date().toISOString() })).unread, false);
    });

    it('when a third actor acts after bob read, then it is unread for bob again', async () => {
      await states(server).recordActivity(card, 'alice');
      await states(server).markRead(card, 'bob');
      await states(server).recordActivity(card, 'carol');
      assert.equal(states(server).stateOf(card.id, 'bob').unread, true);
      assert.equal(states(server).stateOf(card.id, 'alice').unread, true);
    });

    it('when bob opens the card, then it is open for bob only and everything so far counts as read for him', async () => {
      await states(server).recordActivity(card, 'alice');
      const result = await states(server).markOpen(card, 'bob');
      assert.equal(result.open, true);
      assert.equal(result.unread, false);
      assert.deepEqual(states(server).stateOf(card.id, 'bob'), { open: true, unread: false });
      assert.deepEqual(states(server).stateOf(card.id, 'alice'), { open: false, unread: false });
    });

    it('when activity and a read fall in the same millisecond, then the later one still wins', async () => {
      // A store without I/O puts both calls in the same millisecond nearly every time.
      const quick = new CardStates(new MemoryCardStateStore());
      for (let i = 0; i < 200; i++) {
        await quick.markRead(card, 'bob');
        await quick.recordActivity(card, 'alice');
        assert.equal(quick.stateOf(card.id, 'bob').unread, true, `round ${i}: activity after the read counted as read`);
        await quick.recordActivity(card, 'alice');
        await quick.markRead(card, 'bob');
        assert.equal(
          quick.stateOf(card.id, 'bob').unread,
          false,
          `round ${i}: a read after the activity left it unread`,
        );
      }
    });

    it('when alice comments, logs or updates over HTTP-equivalent service calls, then bob sees unread after each', async () => {
      // HTTP requests act as the default actor; here bob is the reader and "default" the writer.
      const acts: [string, () => Promise<unknown>][] = [
        ['comment', () => server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'x', content: 'y' })],
        ['log', () => server.api('POST', `/api/tasks/${card.id}/logs`, { text: 'y' })],
        ['update', () => server.api('PUT', `/api/tasks/${card.id}`, { priority: 'high' })],
        ['move', () => server.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'todo' })],
        [
          'attachment',
          () => server.api('POST', `/api/tasks/${card.id}/attachments`, { files: [{ name: 'a.txt', data: 'YQ==' }] }),
        ],
      ];
      for (const [what, act] of acts) {
        await states(server).markRead(storedCard(server, 'default', card.id), 'bob');
        assert.equal(states(server).stateOf(card.id, 'bob').unread, false, `before ${what}`);
        const answer: any = await act();
        assert.ok(answer.status < 300, `${what}: ${JSON.stringify(answer.body)}`);
        assert.equal(states(server).stateOf(card.id, 'bob').unread, true, `after ${what}`);
        assert.equal(
          states(server).stateOf(card.id, 'default').unread,
          false,
          `the writer's own ${what} is not unread for it`,
        );
      }
    });
  });

  for (const board of [undefined, 'ops']) {
    const boardId = board ?? 'default';
    const base = board ? `/api/boards/${board}/tasks` : '/api/tasks';

    describe(`the default actor over HTTP ${board ? `on board "${board}"` : 'on the default board'}`, () => {
      let task: any;
      beforeEach(async () => {
        task = await createTask(server, 'Watched card', board);
      });

      it('when a new card is read, then cardState is {open:false, unread:false} on the task, the list and the active task', async () => {
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}`)).cardState, {
          open: false,
          unread: false,
        });
        assert.deepEqual(okData(await server.api('GET', base))[0].cardState, { open: false, unread: false });
      });

      it('when another actor acts, then GET shows unread for the default actor, repeated GETs do not change it, and POST read clears it', async () => {
        await states(server).recordActivity(storedCard(server, boardId, task.id), 'alice');
        for (let i = 0; i < 3; i++) {
          assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, true, `GET #${i + 1}`);
          assert.equal(okData(await server.api('GET', base)).find((t: any) => t.id === task.id).cardState.unread, true);
          okData(await server.api('GET', `${base}/${task.id}/comments`));
          okData(await server.api('GET', `${base}/${task.id}/logs`));
        }
        const result = okData(await server.api('POST', `${base}/${task.id}/read`));
        assert.deepEqual(
          {
            cardId: result.cardId,
            boardId: result.boardId,
            actor: result.actor,
            open: result.open,
            unread: result.unread,
          },
          { cardId: task.id, boardId, actor: 'default', open: false, unread: false },
        );
        assert.ok(!Number.isNaN(Date.parse(result.readThrough.at)));
        assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, false);
        await states(server).recordActivity(storedCard(server, boardId, task.id), 'alice');
        assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, true);
      });

      it("when POST read gives a readThrough cursor before the other actor's activity, then it stays unread; one after it clears it", async () => {
        const before = new Date().toISOString();
        await later();
        await states(server).recordActivity(storedCard(server, boardId, task.id), 'alice');
        await later();
        assert.equal(
          okData(await server.api('POST', `${base}/${task.id}/read`, { readThrough: { at: before } })).unread,
          true,
        );
        assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, true);
        assert.equal(
          okData(await server.api('POST', `${base}/${task.id}/read`, { readThrough: { at: new Date().toISOString() } }))
            .unread,
          false,
        );
        assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, false);
      });

      it('when the default actor comments itself, then the card stays read for it but becomes unread for alice', async () => {
        await states(server).markRead(storedCard(server, boardId, task.id), 'alice');
        okData(await server.api('POST', `${base}/${task.id}/comments`, { author: 'me', content: 'hi' }), 201);
        assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, false);
        assert.equal(states(server).stateOf(task.id, 'alice').unread, true);
      });

      it('when the card is opened, then 200 with open:true, GET shows it open, and it becomes the active task', async () => {
        await states(server).recordActivity(storedCard(server, boardId, task.id), 'alice');
        const result = okData(await server.api('POST', `${base}/${task.id}/open`));
        assert.equal(result.open, true);
        assert.equal(result.unread, false);
        assert.equal(result.actor, 'default');
        assert.ok(!Number.isNaN(Date.parse(result.openedAt)));
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}`)).cardState, {
          open: true,
          unread: false,
        });
        const active = okData(await server.api('GET', `${base}/active`));
        assert.equal(active.id, task.id);
        assert.deepEqual(active.cardState, { open: true, unread: false });
        assert.equal(states(server).stateOf(task.id, 'alice').open, false, 'opening is per actor');
      });

      it('when the card does not exist, then open and read give 404', async () => {
        failsWith(await server.api('POST', `${base}/no-such-card/open`), 404, /no-such-card/);
        failsWith(await server.api('POST', `${base}/no-such-card/read`), 404, /no-such-card/);
      });

      const badReads: [string, unknown][] = [
        ['readThrough is a string', { readThrough: '2026-01-01T00:00:00Z' }],
        ['readThrough has no "at"', { readThrough: {} }],
        ['readThrough.at is not a date', { readThrough: { at: 'last tuesday' } }],
        ['readThrough.at is not ISO 8601', { readThrough: { at: 'May 1, 2026' } }],
        ['readThrough.at is a number', { readThrough: { at: 1767225600000 } }],
        ['readThrough has an unknown field', { readThrough: { at: '2026-01-01T00:00:00Z', id: 'c_1' } }],
        ['the body has an unknown field', { until: '2026-01-01T00:00:00Z' }],
      ];
      for (const [what, body] of badReads) {
        it(`when ${what}, then POST read is 400 and the state is unchanged`, async () => {
          await states(server).recordActivity(storedCard(server, boardId, task.id), 'alice');
          failsWith(await server.api('POST', `${base}/${task.id}/read`, body), 400, /readThrough|until/);
          assert.equal(okData(await server.api('GET', `${base}/${task.id}`)).cardState.unread, true);
        });
      }
    });
  }

  it('when a readThrough cursor lies in the future, then it counts as "up to now" and later activity is still unread', async () => {
    const task = await createTask(server, 'Future cursor');
    okData(await server.api('POST', `/api/tasks/${task.id}/read`, { readThrough: { at: '2999-01-01T00:00:00Z' } }));
    await states(server).recordActivity(storedCard(server, 'default', task.id), 'alice');
    assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).cardState.unread, true);
  });

  it('when only GET routes are called, then the state file is neither created nor changed', async () => {
    const task = await createTask(server, 'Read only');
    const before = await exists(stateFile(server));
    for (const url of [
      `/api/tasks/${task.id}`,
      '/api/tasks',
      '/api/tasks/active',
      `/api/tasks/${task.id}/comments`,
      `/api/tasks/${task.id}/logs`,
      '/api/card-state/status',
      '/api/workspace',
    ]) {
      assert.ok((await server.api('GET', url)).status < 300, url);
    }
    assert.equal(await exists(stateFile(server)), before);
    okData(await server.api('POST', `/api/tasks/${task.id}/open`));
    const text = await fs.readFile(stateFile(server), 'utf8');
    const stat = await fs.stat(stateFile(server));
    for (let i = 0; i < 3; i++) okData(await server.api('GET', `/api/tasks/${task.id}`));
    assert.equal(await fs.readFile(stateFile(server), 'utf8'), text);
    assert.equal((await fs.stat(stateFile(server))).mtimeMs, stat.mtimeMs);
  });

  it('when state is written, then it lives under .kanban/.state/, which a .kanban/.gitignore keeps out of git', async () => {
    const task = await createTask(server, 'Stored state');
    okData(await server.api('POST', `/api/tasks/${task.id}/open`));
    const records = (await fs.readFile(stateFile(server), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).save);
    assert.ok(
      records.some((r: any) => r?.cardId === task.id && r.actor === 'default' && r.openedAt),
      JSON.stringify(records),
    );
    assert.match(await fs.readFile(path.join(server.root, '.kanban', '.gitignore'), 'utf8'), /^\.state\/$/m);
  });

  it('when the server restarts, then open and unread are as they were', async () => {
    const task = await createTask(server, 'Durable state');
    okData(await server.api('POST', `/api/tasks/${task.id}/open`));
    await states(server).recordActivity(storedCard(server, 'default', task.id), 'alice');
    await server.restart();
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}`)).cardState, { open: true, unread: true });
    assert.equal(states(server).stateOf(task.id, 'alice').unread, false);
  });

  it('when a card is transferred to another board, then its state follows it, also after a restart', async () => {
    const task = await createTask(server, 'Moving state');
    okData(await server.api('POST', `/api/tasks/${task.id}/open`));
    await states(server).recordActivity(storedCard(server, 'default', task.id), 'alice');
    okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/transfer`, {}));
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${task.id}`)).cardState, {
      open: true,
      unread: true,
    });
    okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/read`));
    await server.restart();
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${task.id}`)).cardState, {
      open: true,
      unread: false,
    });
  });

  it('when a transferred card is deleted for good and a new card later gets its id, then the new card starts with no state', async () => {
    const task = await createTask(server, 'Reused id');
    okData(await server.api('POST', `/api/tasks/${task.id}/open`));
    await states(server).recordActivity(storedCard(server, 'default', task.id), 'alice');
    okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/transfer`, {}));
    okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/read`));
    okData(await server.api('DELETE', `/api/boards/ops/tasks/${task.id}/permanent`));
    await server.running.close();
    // New ids carry a random suffix, so the id comes back only from a file: a branch merged in, say.
    await fs.mkdir(path.join(server.root, '.kanban/boards/default/backlog'), { recursive: true });
    await fs.writeFile(
      path.join(server.root, `.kanban/boards/default/backlog/${task.id}.md`),
      `---\nid: ${task.id}\nstatus: backlog\n---\n# Reused id\n`,
    );
    await server.restart();
    const again = okData(await server.api('GET', `/api/tasks/${task.id}`));
    assert.equal(again.id, task.id, 'the freed id is served again');
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${again.id}`)).cardState, {
      open: false,
      unread: false,
    });
  });
});

describe('API card state: two actors over HTTP with token auth', () => {
  const ALICE = 'alice-token-0123456789abcdef';
  const BOB = 'bob-token-0123456789abcdef';
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer({
      config: {
        version: 2,
        boards: [
          { id: 'default', name: 'Default' },
          { id: 'ops', name: 'Operations' },
        ],
        plugins: {
          'auth.identity': {
            provider: 'token',
            options: {
              tokens: [
                { token: ALICE, subject: 'alice', role: 'editor' },
                { token: BOB, subject: 'bob', role: 'editor' },
              ],
            },
          },
        },
      },
    });
  });
  afterEach(async () => {
    await server.close();
  });

  for (const base of ['/api/tasks', '/api/boards/ops/tasks']) {
    it(`when alice comments, logs and updates through ${base}, then bob sees unread until he reads, and alice never does`, async () => {
      const task = okData(await server.api('POST', base, { content: '# Shared over HTTP' }, as(ALICE)), 201);
      okData(await server.api('POST', `${base}/${task.id}/read`, undefined, as(BOB)));
      const acts: [string, string, unknown][] = [
        ['POST', `${base}/${task.id}/comments`, { author: 'alice', content: 'look' }],
        ['POST', `${base}/${task.id}/logs`, { text: 'built' }],
        ['PUT', `${base}/${task.id}`, { priority: 'high' }],
      ];
      for (const [method, url, body] of acts) {
        const answer = await server.api(method, url, body, as(ALICE));
        assert.ok(answer.status < 300, `${method} ${url}: ${JSON.stringify(answer.body)}`);
        for (let i = 0; i < 2; i++) {
          assert.equal(
            okData(await server.api('GET', `${base}/${task.id}`, undefined, as(BOB))).cardState.unread,
            true,
            `bob after ${url}`,
          );
        }
        assert.equal(
          okData(await server.api('GET', `${base}/${task.id}`, undefined, as(ALICE))).cardState.unread,
          false,
          `alice after ${url}`,
        );
        const read = okData(await server.api('POST', `${base}/${task.id}/read`, undefined, as(BOB)));
        assert.equal(read.actor, 'bob');
        assert.equal(read.unread, false);
        assert.equal(okData(await server.api('GET', `${base}/${task.id}`, undefined, as(BOB))).cardState.unread, false);
      }
      okData(await server.api('POST', `${base}/${task.id}/comments`, { author: 'bob', content: 'ok' }, as(BOB)), 201);
      assert.equal(
        okData(await server.api('GET', `${base}/${task.id}`, undefined, as(ALICE))).cardState.unread,
        true,
        "bob's reply is unread for alice",
      );
      okData(await server.api('POST', `${base}/${task.id}/open`, undefined, as(BOB)));
      assert.equal(okData(await server.api('GET', `${base}/${task.id}`, undefined, as(BOB))).cardState.open, true);
      assert.equal(okData(await server.api('GET', `${base}/${task.id}`, undefined, as(ALICE))).cardState.open, false);
    });
  }

  it('when no credential is sent, then open and read are refused with 401 and nothing is recorded', async () => {
    const task = okData(await server.api('POST', '/api/tasks', { content: '# Guarded' }, as(ALICE)), 201);
    failsWith(await server.api('POST', `/api/tasks/${task.id}/open`), 401);
    failsWith(await server.api('POST', `/api/tasks/${task.id}/read`), 401);
    assert.equal(server.running.workspace.cardStates.stateOf(task.id, 'default').open, false);
  });
});
