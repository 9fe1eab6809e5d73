import { strict as assert } from 'node:assert';
import { existsSync, promises as fs, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildCli, expectCode, jsonOf } from './helpers';
import {
  boardOf,
  git,
  gitFailing,
  openStartRepo,
  statusOutsideBoard,
  type ModeName,
  type StartRepo,
} from './startRepo';

/**
 * `kanban start`, run as the built `kanban` in a real git repository, on the folder and through a
 * server: the board change goes through the API, the branch and worktree are made by git here.
 */

const OPS_BOARD = {
  version: 2,
  boards: [
    {
      id: 'default',
      name: 'Ops',
      columns: [{ id: 'queue' }, { id: 'doing' }, { id: 'review' }, { id: 'done' }],
      startStatus: 'review',
    },
  ],
};

for (const mode of ['dir', 'url'] as ModeName[]) {
  describe(`kanban start, ${mode === 'dir' ? 'in-process (--dir)' : 'through a server (--url)'}`, function () {
    this.timeout(90_000);
    let repo: StartRepo | undefined;
    const open = async (options?: Parameters<typeof openStartRepo>[1]) => (repo = await openStartRepo(mode, options));

    before(() => buildCli());
    afterEach(async () => {
      await repo?.close();
      repo = undefined;
    });

    it("when a card is started, then it moves to the in-progress column and is assigned to git's user.name", async () => {
      const r = await open();
      const id = await r.add('Fix login timeout');
      const run = expectCode(await r.k('start', id.slice(0, 9)), 0);
      assert.equal(run.stdout.trim(), `started ${id}: moved to in-progress, assigned to Ada Lovelace`);
      const card = await r.card(id);
      assert.deepEqual([card.status, card.assignee], ['in-progress', 'Ada Lovelace']);
    });

    it('when --assignee is given, then it wins over user.name; when the card is already in the column, then it stays in place', async () => {
      const r = await open();
      const first = await r.add('First', '--status', 'in-progress');
      const id = await r.add('Second', '--status', 'in-progress');
      assert.equal((await r.card(id)).position, 1, 'a new card goes under the ones there');
      const run = expectCode(await r.k('start', id, '--assignee', 'grace'), 0);
      assert.equal(run.stdout.trim(), `started ${id}: already in in-progress, assigned to grace`);
      const card = await r.card(id);
      assert.deepEqual(
        [card.status, card.assignee, card.position],
        ['in-progress', 'grace', 1],
        'not moved to the top',
      );
      assert.equal((await r.card(first)).position, 0);
    });

    it('when git has no user.name and no --assignee is given, then the card keeps its assignee', async () => {
      const r = await open({ userName: null });
      const id = await r.add('Fix login timeout', '--assignee', 'bob');
      const run = expectCode(await r.k('start', id), 0);
      assert.equal(run.stdout.trim(), `started ${id}: moved to in-progress`);
      const card = await r.card(id);
      assert.deepEqual([card.status, card.assignee], ['in-progress', 'bob']);
    });

    it('when the board sets startStatus, then start moves the card to that column, not to the one named like in progress', async () => {
      const r = await open({ config: OPS_BOARD });
      const id = await r.add('Deploy');
      expectCode(await r.k('start', id), 0);
      assert.equal((await r.card(id)).status, 'review');
    });

    it('when --json is given, then it prints the started card as REST reads it', async () => {
      const r = await open();
      const id = await r.add('Fix login timeout');
      const printed = jsonOf(await r.k('start', id, '--json'));
      assert.deepEqual([printed.id, printed.status, printed.assignee], [id, 'in-progress', 'Ada Lovelace']);
      assert.deepEqual(printed, await r.card(id));
    });

    it('when --branch is given, then kanban/<id> points at HEAD, is not checked out, and nothing is committed or staged', async () => {
      const r = await open();
      const id = await r.add('Fix login timeout');
      const before = {
        head: git(r.root, 'rev-parse', 'HEAD'),
        commits: git(r.root, 'rev-list', '--all', '--count'),
        status: statusOutsideBoard(r.root),
      };
      const run = expectCode(await r.k('start', id, '--branch'), 0);
      assert.equal(
        run.stdout.trim(),
        `started ${id}: moved to in-progress, assigned to Ada Lovelace, branch kanban/${id}`,
      );
      assert.equal(git(r.root, 'rev-parse', `refs/heads/kanban/${id}`), before.head);
      assert.equal(git(r.root, 'rev-parse', 'HEAD'), before.head);
      assert.equal(git(r.root, 'symbolic-ref', '--short', 'HEAD'), 'main', 'the branch is not checked out');
      assert.equal(git(r.root, 'rev-list', '--all', '--count'), before.commits, 'no commit was made');
      assert.equal(git(r.root, 'diff', '--cached', '--name-only'), '', 'nothing was staged');
      assert.deepEqual(statusOutsideBoard(r.root), before.status);
      assert.equal((await r.card(id)).status, 'in-progress');
    });

    it('when --worktree is given, then the branch is checked out in a new worktree at that path, taken from where kanban runs', async () => {
      const r = await open();
      const id = await r.add('Fix login timeout');
      const worktree = path.join(r.tmp, 'wt');
      const run = expectCode(await r.k('start', id, '--worktree', path.relative(r.cwd, worktree)), 0);
      assert.equal(
        run.stdout.trim(),
        `started ${id}: moved to in-progress, assigned to Ada Lovelace, branch kanban/${id}, worktree ${worktree}`,
      );
      assert.equal(git(worktree, 'symbolic-ref', '--short', 'HEAD'), `kanban/${id}`);
      assert.ok(existsSync(path.join(worktree, 'README.md')), 'the worktree holds the checkout');
      assert.match(
        git(r.root, 'worktree', 'list', '--porcelain'),
        new RegExp(`worktree ${worktree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`),
      );
      assert.equal(git(r.root, 'symbolic-ref', '--short', 'HEAD'), 'main');
    });

    it('when the branch already exists, then start refuses naming it, and the board is unchanged', async () => {
      const r = await open();
      const id = await r.add('Fix login timeout');
      git(r.root, 'branch', `kanban/${id}`);
      const board = await boardOf(r);
      const run = expectCode(await r.k('start', id, '--branch'), 1);
      assert.match(
        run.stderr,
        new RegExp(`cannot start ${id}: branch kanban/${id} already exists.*the board is unchanged`),
      );
      assert.deepEqual(await boardOf(r), board);
    });

    for (const [what, command] of [
      ['merge', ['merge', 'other']],
      ['rebase', ['rebase', 'other']],
    ] as const) {
      it(`when a ${what} is in progress, then start --branch refuses naming the ${what}, and neither the board nor the refs change`, async () => {
        const r = await open();
        conflictingBranch(r.root);
        assert.notEqual(gitFailing(r.root, ...command), 0, `the ${what} stops at a conflict`);
        const id = await r.add('Fix login timeout');
        const board = await boardOf(r);
        const run = expectCode(await r.k('start', id, '--worktree', path.join(r.tmp, 'wt')), 1);
        assert.match(run.stderr, new RegExp(`middle of a ${what}.*the board is unchanged`));
        assert.deepEqual(await boardOf(r), board);
        assert.equal(
          gitFailing(r.root, 'show-ref', '--verify', '--quiet', `refs/heads/kanban/${id}`),
          1,
          'no branch was made',
        );
        assert.equal(existsSync(path.join(r.tmp, 'wt')), false, 'no worktree was made');
      });
    }

    it('when the folder is not a git repository, then start --branch refuses and the board is unchanged; without --branch it starts', async () => {
      const r = await open({ git: false });
      const id = await r.add('Fix login timeout');
      const board = await boardOf(r);
      const run = expectCode(await r.k('start', id, '--branch'), 1);
      assert.match(run.stderr, /is not in a git repository.*the board is unchanged/);
      assert.deepEqual(await boardOf(r), board);
      assert.equal(expectCode(await r.k('start', id), 0).stdout.trim(), `started ${id}: moved to in-progress`);
    });

    it('when the card is soft-deleted, then start refuses with the way back, and the card stays deleted', async () => {
      const r = await open();
      const id = await r.add('Fix login timeout');
      expectCode(await r.k('delete', id), 0);
      const run = expectCode(await r.k('start', id), 1);
      assert.match(run.stderr, new RegExp(`${id} is deleted; kanban restore ${id}`));
      assert.equal((await r.card(id)).status, 'deleted');
    });

    it('when startStatus in .kanban.json names a column the board lacks, then start refuses naming it, and the card stays', async () => {
      const r = await open({ config: OPS_BOARD });
      const id = await r.add('Deploy');
      const file = path.join(r.root, '.kanban.json');
      await fs.writeFile(
        file,
        (await fs.readFile(file, 'utf8')).replace('"startStatus": "review"', '"startStatus": "nowhere"'),
      );
      const run = expectCode(await r.k('start', id), 1);
      assert.match(
        run.stderr,
        /\$\.boards\[0\]\.startStatus: "nowhere" is not a column of board "default" \(columns: queue, doing, review, done\)/,
      );
      assert.ok(
        existsSync(path.join(r.root, '.kanban', 'boards', 'default', 'queue', `${id}.md`)),
        'the card file did not move',
      );
    });
  });
}

/** A branch `other` and a commit on main that both add a.txt differently: merging or rebasing stops at a conflict. */
function conflictingBranch(root: string): void {
  git(root, 'checkout', '-q', '-b', 'other');
  writeFileSync(path.join(root, 'a.txt'), 'other\n');
  git(root, 'add', 'a.txt');
  git(root, 'commit', '-q', '-m', 'a on other');
  git(root, 'checkout', '-q', 'main');
  writeFileSync(path.join(root, 'a.txt'), 'main\n');
  git(root, 'add', 'a.txt');
  git(root, 'commit', '-q', '-m', 'a on main');
}
