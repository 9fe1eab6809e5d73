import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { describeInBothModes, expectCode, jsonOf, type ModeSuite } from './helpers';

/** `kanban context`: the board for an agent about to work, printed or kept between markers in a file. */

/** A board with a card in each section and six ready ones, made through the mode's own command line. */
async function prepare(cli: ModeSuite): Promise<void> {
  const add = async (title: string, ...flags: string[]) =>
    jsonOf(await cli.k('add', title, ...flags, '--json')).id as string;
  const fix = await add('Fix login', '--status', 'in-progress', '--priority', 'high');
  expectCode(await cli.k('claim', fix, '--agent', 'claude-1'), 0);
  expectCode(await cli.k('report', fix, 'active', '--note', 'rewording', '--agent', 'claude-1'), 0);
  await add('Review me', '--status', 'review');
  const ask = await add('Ask', '--status', 'todo');
  expectCode(await cli.k('report', ask, 'awaitingInput', '--note', 'keep badges?', '--agent', 'claude-2'), 0);
  await add('Deploy', '--status', 'todo', '--priority', 'critical', '--blocked-by', fix);
  await add('R low', '--status', 'todo', '--priority', 'low');
  await add('R med', '--status', 'todo');
  await add('R med backlog', '--status', 'backlog');
  await add('R high', '--status', 'todo', '--priority', 'high');
  await add('R high due', '--status', 'todo', '--priority', 'high', '--due', '2027-01-15');
  await add('R crit', '--status', 'todo', '--priority', 'critical');
}

describeInBothModes('CLI: kanban context', (cli) => {
  let folder: string;
  before(async () => {
    await prepare(cli);
    folder = await makeTempDir('kanban-context-');
  });
  after(() => fs.rm(folder, { recursive: true, force: true }));

  it('when the board has work in every state, then context prints each card once in its section and the next five in pick order', async () => {
    const text = expectCode(await cli.k('context'), 0).stdout;
    assert.match(text, /^## Board Default \(`default`\)\n\nIn progress \(2\):\n/);
    assert.match(
      text,
      /^- `fix-login-[^`]+` Fix login \(in-progress, high\): claimed by claude-1, 1[0-5]m left; active "rewording"\n- `review-me-[^`]+` Review me \(review, medium\)$/m,
    );
    assert.match(
      text,
      /^Awaiting input \(1\):\n- `ask-[^`]+` Ask \(todo, medium\): claimed by claude-2, 1[0-5]m left; awaitingInput "keep badges\?"$/m,
    );
    assert.match(text, /^Blocked \(1\):\n- `deploy-[^`]+` Deploy \(todo, critical\): waits for `fix-login-[^`]+`$/m);
    const next = /^Next to pick \(5 of 6\):\n((?:- .*\n?){5})$/m.exec(text);
    assert.ok(next, text);
    assert.deepEqual(
      next[1]
        .trim()
        .split('\n')
        .map((line) => /` (.+?) \(/.exec(line)?.[1]),
      ['R crit', 'R high due', 'R high', 'R med backlog', 'R med'],
    );

    const data = jsonOf(await cli.k('context', '--json'));
    assert.deepEqual(data.counts, { inProgress: 2, awaitingInput: 1, blocked: 1, pickable: 6 });
    assert.deepEqual(data.inProgress[0].session, {
      agent: 'claude-1',
      state: 'active',
      note: 'rewording',
      stale: false,
    });
  });

  it('when --write-to names a file with text of its own, then the summary goes between markers, is rewritten only when the board changes, and the rest stays', async () => {
    const file = path.join(folder, 'AGENTS.md');
    const own = '# Our agents\n\nBe brief.\n';
    await fs.writeFile(file, own);
    assert.equal(
      expectCode(await cli.k('context', '--write-to', file), 0).stdout,
      `wrote the board context to ${file}\n`,
    );
    const first = await fs.readFile(file, 'utf8');
    assert.ok(first.startsWith(`${own}\n<!-- kanban:context -->\n## Board Default`), first);
    assert.ok(first.endsWith('<!-- /kanban:context -->\n'));
    assert.match(
      first,
      /Fix login \(in-progress, high\): claimed by claude-1; active "rewording"/,
      'no time left in a file: it would change every minute',
    );
    await fs.writeFile(file, `${first}\n## Notes\n\nmine\n`);
    const stamp = (await fs.stat(file)).mtimeMs;

    assert.match(expectCode(await cli.k('context', '--write-to', file), 0).stdout, /the board context is up to date/);
    assert.equal((await fs.stat(file)).mtimeMs, stamp, 'not rewritten');

    const added = jsonOf(
      await cli.k('add', 'R newest', '--status', 'todo', '--priority', 'critical', '--due', '2027-01-01', '--json'),
    );
    const run = jsonOf(await cli.k('context', '--write-to', file, '--json'));
    assert.deepEqual(run, { file, written: true });
    const after = await fs.readFile(file, 'utf8');
    assert.ok(
      after.startsWith(`${own}\n<!-- kanban:context -->\n`) &&
        after.endsWith('<!-- /kanban:context -->\n\n## Notes\n\nmine\n'),
      after,
    );
    assert.match(after, new RegExp(`^Next to pick \\(5 of 7\\):\\n- \`${added.id}\` R newest`, 'm'));
  });

  it('when --board names another board, then its context is printed, and written to a block of its own', async () => {
    expectCode(await cli.k('api', 'post-boards', '--id', 'ops', '--name', 'Ops'), 0);
    const text = expectCode(await cli.k('context', '--board', 'ops'), 0).stdout;
    const ops =
      '## Board Ops (`ops`)\n\nIn progress: none\n\nAwaiting input: none\n\nBlocked: none\n\nNext to pick: none';
    assert.equal(text, `${ops}\n`);
    const file = path.join(folder, 'BOARDS.md');
    expectCode(await cli.k('context', '--write-to', file), 0);
    expectCode(await cli.k('context', '--write-to', file, '--board', 'ops'), 0);
    const both = await fs.readFile(file, 'utf8');
    assert.match(
      both,
      /^<!-- kanban:context -->\n## Board Default[\s\S]*?<!-- \/kanban:context -->\n\n<!-- kanban:context:ops -->\n/,
    );
    assert.ok(both.endsWith(`<!-- kanban:context:ops -->\n${ops}\n<!-- /kanban:context:ops -->\n`), both);
  });
});
