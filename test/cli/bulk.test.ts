import { strict as assert } from 'node:assert';
import { buildCli, expectCode, inProcessMode, jsonOf, kanban, restData, urlMode, type Mode } from './helpers';

/** `kanban bulk`, the short form of POST /tasks/bulk, in both modes. */
for (const open of [inProcessMode, urlMode]) {
  describe(`kanban bulk, ${open === inProcessMode ? 'in-process (--dir)' : 'through a server (--url)'}`, function () {
    this.timeout(90_000);
    let mode: Mode;
    const k = (...args: string[]) => kanban([...args, ...mode.args]);

    before(async () => {
      buildCli();
      mode = await open();
    });
    after(async () => mode?.close());

    it('when two cards are moved and reprioritised with kanban bulk, then both change, and an unknown id changes nothing (exit 1)', async () => {
      const a = jsonOf(await k('add', 'Bulk one', '--json'));
      const b = jsonOf(await k('add', 'Bulk two', '--json'));
      const moved = expectCode(await k('bulk', 'move', 'done', a.id, b.id), 0);
      assert.match(moved.stdout, /^2 card\(s\) changed$/m);
      expectCode(await k('bulk', 'priority', 'high', a.id, b.id), 0);
      const done = (await restData(mode, '/api/tasks?status=done')).map((t: any) => [t.id, t.priority]);
      assert.deepEqual(done, [[a.id, 'high'], [b.id, 'high']]);
      const refused = expectCode(await k('bulk', 'priority', 'low', a.id, 'no-such-card-2020-01-01'), 1);
      assert.match(refused.stderr, /no-such-card-2020-01-01.*nothing was changed/);
      assert.equal((await restData(mode, `/api/tasks/${a.id}`)).priority, 'high');
      expectCode(await k('bulk', 'shuffle', a.id), 2);
    });
  });
}
