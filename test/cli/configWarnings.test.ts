import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { buildCli, expectCode, kanban } from './helpers';

/** The built `kanban`, in-process on a folder whose .kanban.json carries a misspelled key. */
describe('kanban on a .kanban.json with an unknown key', function () {
  this.timeout(90_000);
  let root: string;

  before(async () => {
    buildCli();
    root = await makeTempDir('kanban-config-keys-');
    const config = {
      version: 2,
      boards: [{ id: 'default', columns: [{ id: 'todo' }, { id: 'done' }], defualtStatus: 'todo' }],
      labels: { bug: { color: '#ef4444', gruop: 'type' } },
    };
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(config, null, 2));
  });
  after(() => fs.rm(root, { recursive: true, force: true }));

  it('when any command opens the folder, then stderr names each key path and the closest known key, and the command still works', async () => {
    for (const args of [['list'], ['labels'], ['add', 'Still works']]) {
      const run = expectCode(await kanban([...args, '--dir', root]), 0);
      assert.match(
        run.stderr,
        /unknown key \$\.boards\[0\]\.defualtStatus \(did you mean "defaultStatus"\?\)/,
        args.join(' '),
      );
      assert.match(run.stderr, /unknown key \$\.labels\.bug\.gruop \(did you mean "group"\?\)/, args.join(' '));
    }
  });

  it('when the commands go through the board process, then they warn the same way', async () => {
    const env = { KANBAN_DAEMON: 'always' };
    const calls = async () =>
      JSON.parse(expectCode(await kanban(['daemon', '--json', '--dir', root]), 0).stdout).calls as number;
    expectCode(await kanban(['daemon', 'start', '--dir', root], { env }), 0);
    try {
      const before = await calls();
      const run = expectCode(await kanban(['list', '--dir', root], { env }), 0);
      assert.match(run.stderr, /unknown key \$\.boards\[0\]\.defualtStatus \(did you mean "defaultStatus"\?\)/);
      assert.ok((await calls()) > before, 'the list went through the board process');
    } finally {
      await kanban(['daemon', 'stop', '--dir', root]);
    }
  });

  it('when --json is asked, then stdout stays plain JSON and the warnings stay on stderr', async () => {
    const run = expectCode(await kanban(['list', '--json', '--dir', root]), 0);
    assert.equal(JSON.parse(run.stdout).length, 1);
    assert.match(run.stderr, /defualtStatus/);
  });
});
