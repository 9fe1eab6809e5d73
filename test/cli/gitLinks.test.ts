import { strict as assert } from 'node:assert';
import { commit, git, initRepo } from '../helpers/gitRepos';
import { describeInBothModes, expectCode, jsonOf, restData } from './helpers';

/** `kanban show` over a workspace that is a git repository: the git: section, and --json unchanged. */
describeInBothModes(
  'kanban show with git links',
  (cli) => {
    it('when a card has a branch and a linked commit, then show prints them under git:, and --json is still GET /tasks/{id}', async () => {
      const card = jsonOf(await cli.k('add', 'Fix login', '--json'));
      const root = cli.mode.root;
      await commit(root, 'Start');
      await git(root, ['branch', `kanban/${card.id}`]);
      const sha = await commit(root, `Fix the session timeout\n\nKanban: ${card.id}`);

      const run = expectCode(await cli.k('show', card.id), 0);
      const section = `git:\n  branch kanban/${card.id} (0 ahead, 1 behind)\n  commit ${sha.slice(0, 7)} Fix the session timeout\n`;
      assert.ok(run.stdout.includes(section), run.stdout);
      assert.deepEqual(
        jsonOf(await cli.k('show', card.id, '--json')),
        await restData(cli.mode, `/api/tasks/${card.id}`),
      );
    });

    it('when a card has no git links, then show prints no git: section', async () => {
      const card = jsonOf(await cli.k('add', 'Write docs', '--json'));
      const run = expectCode(await cli.k('show', card.id), 0);
      assert.ok(run.stdout.includes('Write docs') && !run.stdout.includes('git:'), run.stdout);
    });
  },
  (mode) => initRepo(mode.root),
);
