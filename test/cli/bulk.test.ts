import { strict as assert } from 'node:assert';
import { describeInBothModes, expectCode, jsonOf, restData } from './helpers';

/** `kanban bulk`, the short form of POST /tasks/bulk. */
describeInBothModes('kanban bulk', (cli) => {
  it('when two cards are moved and reprioritised with kanban bulk, then both change, and an unknown id changes nothing (exit 1)', async () => {
    const a = jsonOf(await cli.k('add', 'Bulk one', '--json'));
    const b = jsonOf(await cli.k('add', 'Bulk two', '--json'));
    const moved = expectCode(await cli.k('bulk', 'move', 'done', a.id, b.id), 0);
    assert.match(moved.stdout, /^2 card\(s\) changed$/m);
    expectCode(await cli.k('bulk', 'priority', 'high', a.id, b.id), 0);
    const done = (await restData(cli.mode, '/api/tasks?status=done')).map((t: any) => [t.id, t.priority]);
    assert.deepEqual(done, [
      [a.id, 'high'],
      [b.id, 'high'],
    ]);
    const refused = expectCode(await cli.k('bulk', 'priority', 'low', a.id, 'no-such-card-2020-01-01'), 1);
    assert.match(refused.stderr, /no-such-card-2020-01-01.*nothing was changed/);
    assert.equal((await restData(cli.mode, `/api/tasks/${a.id}`)).priority, 'high');
    expectCode(await cli.k('bulk', 'shuffle', a.id), 2);
  });

  it('when an archived and a deleted card are restored with kanban bulk, then each is back in the column it left', async () => {
    const kept = jsonOf(await cli.k('add', 'Bulk archived', '--status', 'todo', '--json'));
    const binned = jsonOf(await cli.k('add', 'Bulk deleted', '--status', 'todo', '--json'));
    expectCode(await cli.k('bulk', 'archive', kept.id), 0);
    expectCode(await cli.k('bulk', 'delete', binned.id), 0);
    const listed = async () => (await restData(cli.mode, '/api/tasks')).map((t: any) => t.id);
    assert.deepEqual(
      (await listed()).filter((id: string) => [kept.id, binned.id].includes(id)),
      [],
    );
    const restored = expectCode(await cli.k('bulk', 'restore', kept.id, binned.id), 0);
    assert.match(restored.stdout, /^2 card\(s\) changed$/m);
    assert.ok((await listed()).includes(kept.id) && (await listed()).includes(binned.id), 'both are listed again');
    assert.equal((await restData(cli.mode, `/api/tasks/${kept.id}`)).status, 'todo');
    // Not the board's default column (backlog): a deleted card remembers where it was.
    assert.equal((await restData(cli.mode, `/api/tasks/${binned.id}`)).status, 'todo');
  });
});
