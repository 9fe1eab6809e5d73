import { strict as assert } from 'node:assert';
import { describeInBothModes, expectCode, jsonOf, restData } from './helpers';

/** `kanban add --parent` and `kanban tree`, run as the built binary in both modes. */
describeInBothModes('kanban sub-cards', (cli) => {
  const { k } = cli;

  const added = async (...args: string[]): Promise<string> =>
    jsonOf(expectCode(await k('add', ...args, '--json'), 0)).id;

  it('when a card is added with --parent and a partial id, then it is a sub-card of the whole id', async () => {
    const epic = await added('Onboarding epic');
    const child = await added('Welcome mail', '--parent', 'onboarding-ep');
    assert.equal((await restData(cli.mode, `/api/tasks/${child}`)).parent, epic);
    assert.deepEqual((await restData(cli.mode, `/api/tasks/${epic}`)).children, { total: 1, done: 0 });
    const refused = expectCode(await k('add', 'Nowhere', '--parent', 'no-such-parent-card'), 1);
    assert.match(refused.stderr, /parent: no card "no-such-parent-card"/);
  });

  it('when tree runs, then every card is listed with its status and its sub-cards indented under it', async () => {
    const root = await added('Tree root', '--status', 'todo');
    const branch = await added('Tree branch', '--parent', root);
    const leaf = await added('Tree leaf', '--parent', branch, '--status', 'done');
    const lines = expectCode(await k('tree'), 0).stdout.split('\n');
    const at = lines.findIndex((line) => line.startsWith(`${root} [todo] Tree root`));
    assert.ok(at >= 0, lines.join('\n'));
    assert.deepEqual(lines.slice(at, at + 3), [
      `${root} [todo] Tree root (1 sub-card(s))`,
      `  ${branch} [backlog] Tree branch (1 sub-card(s))`,
      `    ${leaf} [done] Tree leaf`,
    ]);
    const one = expectCode(await k('tree', 'tree-bra'), 0)
      .stdout.trim()
      .split('\n');
    assert.deepEqual(one, [`${branch} [backlog] Tree branch (1 sub-card(s))`, `  ${leaf} [done] Tree leaf`]);
    const json = jsonOf(expectCode(await k('tree', root, '--json'), 0));
    assert.deepEqual(json[0].children[0].children[0], { id: leaf, title: 'Tree leaf', status: 'done', children: [] });
  });
});
