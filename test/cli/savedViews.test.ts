import { strict as assert } from 'node:assert';
import { buildCli, inProcessMode, jsonOf, kanban, urlMode, type Mode } from './helpers';

/** `kanban list --view <id>`: the list route's `view` parameter as a flag, in both modes. */
for (const open of [inProcessMode, urlMode]) {
  describe(`kanban list --view, ${open === inProcessMode ? 'in-process (--dir)' : 'through a server (--url)'}`, function () {
    this.timeout(90_000);
    let mode: Mode;
    const k = (...args: string[]) => kanban([...args, ...mode.args]);

    before(async () => {
      buildCli();
      mode = await open();
    });
    after(async () => mode?.close());

    it('when list names a saved view, then only its cards are listed in its order, and a flag given as well overrides it', async () => {
      const low = jsonOf(await k('add', 'Low one', '--priority', 'low', '--json'));
      const a = jsonOf(await k('add', 'A urgent', '--priority', 'high', '--json'));
      const b = jsonOf(await k('add', 'B urgent', '--priority', 'high', '--json'));
      const saved = await mode.rest('POST', '/api/views', {
        id: 'urgent',
        name: 'Urgent',
        board: 'default',
        filter: { priority: 'high' },
        sort: '-title',
      });
      assert.equal(saved.status, 201, saved.error);
      assert.deepEqual(
        jsonOf(await k('list', '--view', 'urgent', '--json')).map((t: any) => t.id),
        [b.id, a.id],
      );
      assert.deepEqual(
        jsonOf(await k('list', '--view', 'urgent', '--priority', 'low', '--json')).map((t: any) => t.id),
        [low.id],
      );
      const missing = await k('list', '--view', 'nope');
      assert.notEqual(missing.code, 0);
      assert.match(missing.stderr, /view "nope" does not exist/);
    });
  });
}
