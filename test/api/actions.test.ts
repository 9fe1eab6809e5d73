import { strict as assert } from 'node:assert';
import type { TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';

/** Keys every plain object inherits: an action lookup must not mistake them for configured actions. */
const INHERITED_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

describe('API actions', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('card actions', () => {
    for (const board of [undefined, 'ops']) {
      const boardId = board ?? 'default';
      const base = board ? `/api/boards/${board}/tasks` : '/api/tasks';

      describe(board ? `on board "${board}"` : 'on the default board', () => {
        it('when an action of a key-to-title map is triggered, then 204 with no body and exactly one card.action.triggered event with key, title, board and the full card', async () => {
          const task = await createTask(
            server,
            {
              content: '# Release 2.0',
              actions: { deploy: 'Deploy to production', rollback: 'Roll back' },
              labels: ['release'],
            },
            board,
          );
          let answer: any;
          const events = await eventsDuring(server, async () => {
            answer = await server.api('POST', `${base}/${task.id}/actions/deploy`);
          });
          assert.equal(answer.status, 204);
          assert.equal(answer.body, null);
          assert.deepEqual(
            events.map((e) => e.event),
            ['card.action.triggered'],
          );
          const [event] = events;
          assert.equal(event.boardId, boardId);
          assert.deepEqual(event.data, { action: 'deploy', title: 'Deploy to production', boardId, taskId: task.id });
          const fullCard = okData(await server.api('GET', `${base}/${task.id}`));
          assert.deepEqual(event.card, fullCard);
        });

        it('when an action of a plain list is triggered, then its title is the key itself', async () => {
          const task = await createTask(server, { content: '# Listed', actions: ['build', 'notify team'] }, board);
          const events = await eventsDuring(server, async () => {
            assert.equal(
              (await server.api('POST', `${base}/${task.id}/actions/${encodeURIComponent('notify team')}`)).status,
              204,
            );
          });
          assert.deepEqual(events[0].data, { action: 'notify team', title: 'notify team', boardId, taskId: task.id });
        });

        it('when the card does not offer the action, then 404 listing the actions it does offer, and no event', async () => {
          const task = await createTask(server, { content: '# Limited', actions: { deploy: 'Deploy' } }, board);
          const events = await eventsDuring(server, async () => {
            failsWith(await server.api('POST', `${base}/${task.id}/actions/destroy`), 404, /"destroy".*deploy/);
          });
          assert.deepEqual(events, []);
        });

        it('when the card has no actions at all, then 404', async () => {
          const task = await createTask(server, 'No actions', board);
          failsWith(await server.api('POST', `${base}/${task.id}/actions/deploy`), 404, /deploy/);
        });

        it('when the card does not exist, then 404', async () => {
          failsWith(await server.api('POST', `${base}/no-such-card/actions/deploy`), 404, /no-such-card/);
        });
      });
    }

    for (const key of INHERITED_KEYS) {
      for (const shape of ['map', 'list'] as const) {
        it(`when "${key}" is triggered on a card whose actions are a ${shape} without it, then 404 and no event`, async () => {
          const task = await createTask(server, {
            content: '# Guarded',
            actions: shape === 'map' ? { deploy: 'Deploy' } : ['deploy'],
          });
          const events = await eventsDuring(server, async () => {
            failsWith(await server.api('POST', `/api/tasks/${task.id}/actions/${key}`), 404);
          });
          assert.deepEqual(events, []);
        });
      }
    }

    it('when a card of another board is addressed through the default-board route, then 404', async () => {
      const task = await createTask(server, { content: '# Elsewhere', actions: ['deploy'] }, 'ops');
      failsWith(await server.api('POST', `/api/tasks/${task.id}/actions/deploy`), 404);
    });

    it('when the board of the twin route does not exist, then 404', async () => {
      failsWith(await server.api('POST', '/api/boards/nope/tasks/x/actions/deploy'), 404, /nope/);
    });

    it('when the card id is a unique prefix, then the action is triggered on that card', async () => {
      const task = await createTask(server, { content: '# Prefixed card', actions: ['ship'] });
      const events = await eventsDuring(server, async () => {
        assert.equal((await server.api('POST', `/api/tasks/${task.id.slice(0, 10)}/actions/ship`)).status, 204);
      });
      assert.equal(events[0].card?.id, task.id);
    });
  });

  describe('board actions', () => {
    for (const boardId of ['default', 'ops']) {
      it(`when a board action of "${boardId}" is triggered, then 204 and exactly one board.action.triggered event with key, title and board`, async () => {
        okData(
          await server.api('POST', `/api/boards/${boardId}/actions`, {
            actions: { rebuild: 'Rebuild the index', report: 'Weekly report' },
          }),
        );
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('POST', `/api/boards/${boardId}/actions/rebuild/trigger`);
        });
        assert.equal(answer.status, 204);
        assert.equal(answer.body, null);
        assert.deepEqual(
          events.map((e) => e.event),
          ['board.action.triggered'],
        );
        assert.equal(events[0].boardId, boardId);
        assert.deepEqual(events[0].data, { action: 'rebuild', title: 'Rebuild the index', boardId });
      });

      it(`when an action "${boardId}" does not have is triggered, then 404 and no event`, async () => {
        okData(await server.api('POST', `/api/boards/${boardId}/actions`, { actions: { rebuild: 'Rebuild' } }));
        const events = await eventsDuring(server, async () => {
          failsWith(await server.api('POST', `/api/boards/${boardId}/actions/missing/trigger`), 404, /missing/);
        });
        assert.deepEqual(events, []);
      });
    }

    it('when an action of one board is triggered on the other board, then 404', async () => {
      okData(await server.api('POST', '/api/boards/ops/actions', { actions: { page: 'Page on-call' } }));
      failsWith(await server.api('POST', '/api/boards/default/actions/page/trigger'), 404, /page/);
    });

    it('when an action key holds spaces and Unicode, then it is triggered through its URL-encoded form', async () => {
      const key = 'déployer en prod 🚀';
      okData(await server.api('PUT', `/api/boards/default/actions/${encodeURIComponent(key)}`, { title: 'Déployer' }));
      const events = await eventsDuring(server, async () => {
        assert.equal(
          (await server.api('POST', `/api/boards/default/actions/${encodeURIComponent(key)}/trigger`)).status,
          204,
        );
      });
      assert.deepEqual(events[0].data, { action: key, title: 'Déployer', boardId: 'default' });
    });

    for (const key of INHERITED_KEYS) {
      it(`when "${key}" is triggered or deleted on a board that does not define it, then 404 and no event`, async () => {
        okData(await server.api('POST', '/api/boards/default/actions', { actions: { rebuild: 'Rebuild' } }));
        const events = await eventsDuring(server, async () => {
          failsWith(await server.api('POST', `/api/boards/default/actions/${key}/trigger`), 404);
          failsWith(await server.api('DELETE', `/api/boards/default/actions/${key}`), 404);
        });
        assert.deepEqual(events, []);
        assert.deepEqual(okData(await server.api('GET', '/api/boards/default/actions')), { rebuild: 'Rebuild' });
      });
    }

    it('when the board does not exist, then triggering gives 404', async () => {
      failsWith(await server.api('POST', '/api/boards/nope/actions/x/trigger'), 404, /nope/);
    });
  });
});
