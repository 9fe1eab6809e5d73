import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { buildCli, jsonOf } from './helpers';
import { commitAll, git, gitStatus, initRepo, k, kOk } from './gitRepo';

const flowLines = async (root: string) =>
  (await fs.readFile(path.join(root, '.kanban', 'boards', 'default', 'flow.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).object);

/** Two branches that each move a card append to the same flow.jsonl; `kanban init` makes git merge them. */
describe('the flow history in git: two branches append, a merge keeps both', function () {
  this.timeout(120_000);
  let tmp: string;
  let root: string;
  before(() => buildCli());
  beforeEach(async () => ({ tmp, root } = await initRepo()));
  afterEach(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('when kanban init runs, then .kanban/.gitattributes merges the JSON Lines logs by union', async () => {
    const text = await fs.readFile(path.join(root, '.kanban', '.gitattributes'), 'utf8');
    assert.match(text, /^\*\.jsonl merge=union$/m);
    for (const file of ['boards/default/flow.jsonl', 'boards/default/board.jsonl', 'boards/default/logs/x.jsonl'])
      assert.match(git(root, 'check-attr', 'merge', '--', `.kanban/${file}`), /merge: union$/);
  });

  it('when two branches each move a card and are merged, then there is no conflict, both lines stay and the metrics count both', async () => {
    const one = jsonOf(await kOk(root, 'add', 'First', '--status', 'todo', '--json')).id;
    const two = jsonOf(await kOk(root, 'add', 'Second', '--status', 'todo', '--json')).id;
    commitAll(root, 'two cards');
    git(root, 'checkout', '-q', '-b', 'agent-b');
    await kOk(root, 'move', two, 'in-progress');
    commitAll(root, 'b moves the second');
    git(root, 'checkout', '-q', 'main');
    await kOk(root, 'move', one, 'done');
    commitAll(root, 'a finishes the first');

    git(root, 'merge', '-q', '--no-edit', 'agent-b');
    assert.equal(gitStatus(root), '', 'merged without a conflict');
    const moves = (await flowLines(root)).filter((step) => step.kind === 'moved');
    assert.deepEqual(
      moves.map((step) => [step.card, step.to]).sort(),
      [
        [one, 'done'],
        [two, 'in-progress'],
      ].sort(),
    );

    const metrics = jsonOf(await k(root, 'metrics', '--json'));
    const card = (id: string) => metrics.cards.find((c: any) => c.id === id);
    assert.equal(card(one).status, 'done');
    assert.ok(card(one).finishedAt, 'the first card has its recorded finish');
    assert.equal(card(two).status, 'in-progress');
    assert.ok(card(two).startedAt, 'the second card has its recorded start');
    assert.deepEqual(
      metrics.wip.find((w: any) => w.column === 'in-progress').cards.map((c: any) => c.id),
      [two],
    );
  });
});
