import { strict as assert } from 'node:assert';
import { describeInBothModes, expectCode, jsonOf, restData } from './helpers';

/** `kanban archive`, `kanban restore`, `kanban list --archived` and the WIP warning, in both modes. */
describeInBothModes('kanban archive and WIP limits', (cli) => {
  const { k } = cli;

  it('when a card is archived, then list leaves it out, list --archived shows it alone, and restore brings it back to its column', async () => {
    const card = jsonOf(await k('add', 'Old news', '--status', 'review', '--json'));
    const kept = jsonOf(await k('add', 'Current', '--json'));
    const archived = expectCode(await k('archive', card.id), 0);
    assert.match(
      archived.stdout,
      new RegExp(`^archived ${card.id} from review \\(kanban restore ${card.id} brings it back\\)$`, 'm'),
    );
    assert.deepEqual(
      jsonOf(await k('list', '--json')).map((t: any) => t.id),
      [kept.id],
    );
    const listed = jsonOf(await k('list', '--archived', '--json'));
    assert.deepEqual(listed, await restData(cli.mode, '/api/tasks?archived=only'));
    assert.deepEqual(
      listed.map((t: any) => [t.id, t.status]),
      [[card.id, 'review']],
    );
    assert.match(expectCode(await k('list', '--include-archived'), 0).stdout, /^2 card\(s\)$/m);
    const restored = expectCode(await k('restore', card.id), 0);
    assert.match(restored.stdout, new RegExp(`^restored ${card.id} to review$`, 'm'));
    assert.equal((await restData(cli.mode, `/api/tasks/${card.id}`)).archivedAt, null);
  });

  it('when a move takes a column over its WIP limit, then the move happens and stderr says so', async () => {
    expectCode(await k('api', 'put-column', 'todo', '--wip-limit', '1'), 0);
    expectCode(await k('add', 'Fills todo', '--status', 'todo'), 0);
    const second = jsonOf(await k('add', 'One more', '--json'));
    const moved = expectCode(await k('move', second.id, 'todo'), 0);
    assert.match(moved.stdout, /moved .* to todo/);
    assert.match(moved.stderr, /^kanban: warning: column To Do is over its WIP limit \(2\/1\)$/m);
  });
});
