import { strict as assert } from 'node:assert';
import { addDays, utcDay } from '../../server/core/dueDates';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { startServerWithOpsBoard } from '../helpers/serverHooks';
import type { TestServer } from '../helpers/testServer';

/**
 * Due filters over HTTP, on the default board and a second one. Dates are relative to the UTC day
 * the test runs on; the exact edges of each window are pinned down in test/unit/dueDates.test.ts.
 */
describe('API lists: due-date filters', () => {
  let server: TestServer;
  const today = utcDay();

  before(async () => {
    server = await startServerWithOpsBoard();
  });
  after(async () => server?.close());

  for (const board of ['default', 'ops']) {
    describe(`on board ${board}`, () => {
      const base = `/api/boards/${board}/tasks`;
      const titles = async (query: string) =>
        okData<any[]>(await server.api('GET', `${base}?${query}`))
          .map((t) => t.title)
          .sort();

      before(async () => {
        const cards: [string, Record<string, unknown>][] = [
          ['late', { dueDate: addDays(today, -1) }],
          ['late but done', { dueDate: addDays(today, -3), status: 'done' }],
          ['due today', { dueDate: today }],
          ['in six days', { dueDate: addDays(today, 6) }],
          ['in a week', { dueDate: addDays(today, 7) }],
          ['no date', {}],
        ];
        for (const [title, fields] of cards) await createTask(server, { title, ...fields }, board);
      });

      it('when due=overdue is asked, then cards due before today are listed unless they are in the last column', async () => {
        assert.deepEqual(await titles('due=overdue'), ['late']);
      });

      it('when due=today, week or none is asked, then exactly the cards of that window are listed', async () => {
        assert.deepEqual(await titles('due=today'), ['due today']);
        assert.deepEqual(await titles('due=week'), ['due today', 'in six days']);
        assert.deepEqual(await titles('due=none'), ['no date']);
      });

      it('when dueBefore and dueAfter bound the list, then both are strict and undated cards stay out', async () => {
        assert.deepEqual(await titles(`dueAfter=${addDays(today, -1)}&dueBefore=${addDays(today, 7)}`), [
          'due today',
          'in six days',
        ]);
        assert.deepEqual(await titles(`dueBefore=${today}`), ['late', 'late but done']);
      });

      it('when a due filter is combined with sort=due and paging, then the pages hold the filtered cards in due order', async () => {
        const first = await server.api('GET', `${base}?dueAfter=${addDays(today, -10)}&sort=due&limit=2&fields=title`);
        assert.deepEqual(
          okData<any[]>(first).map((t) => t.title),
          ['late but done', 'late'],
        );
        assert.equal(first.headers.get('x-total-count'), '5');
      });

      it('when a due value is not known or a date is malformed, then the 400 names the parameter', async () => {
        failsWith(await server.api('GET', `${base}?due=soon`), 400, /"due" must be one of overdue, today, week, none/);
        failsWith(
          await server.api('GET', `${base}?dueBefore=2026-02-30`),
          400,
          /"dueBefore" must be a date as YYYY-MM-DD/,
        );
        failsWith(await server.api('GET', `${base}?dueAfter=next-week`), 400, /"dueAfter".*next-week/);
      });
    });
  }

  // A suite of its own so that it runs after the boards above are seeded.
  describe('unscoped', () => {
    it('when the unscoped list is asked for overdue cards, then it answers for the default board only', async () => {
      const data = okData<any[]>(await server.api('GET', '/api/tasks?due=overdue'));
      assert.deepEqual(
        data.map((t) => [t.title, t.boardId]),
        [['late', 'default']],
      );
    });
  });
});
