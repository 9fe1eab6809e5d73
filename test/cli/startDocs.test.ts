import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { parseConfig } from '../../server/config/parseConfig';
import { startColumnOf } from '../../server/core/startColumn';
import { docBlocks, shellWords } from './docBlocks';
import { buildCli, expectCode, jsonOf, kanban } from './helpers';
import { GIT_ENV, git, openStartRepo, type StartRepo } from './startRepo';

/** docs/start.md runs as written, in order; and `kanban start` is in the help and the completion. */

describe('docs/start.md and kanban start in the help', function () {
  this.timeout(90_000);
  let repo: StartRepo | undefined;

  before(() => buildCli());
  after(async () => repo?.close());

  it('when the shell example runs in order in a fresh repository, then every command succeeds and does what its comment says', async () => {
    repo = await openStartRepo('dir');
    const lines = (await docBlocks('start.md', 'sh'))
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('kanban '));
    assert.ok(lines.length >= 6, lines.join('\n'));
    for (const line of lines) expectCode(await kanban(shellWords(line).slice(1), { cwd: repo.root, env: GIT_ENV }), 0);
    const cards = jsonOf(await kanban(['list', '--json'], { cwd: repo.root, env: GIT_ENV }));
    const byTitle = (title: string) => cards.find((c: any) => c.title === title);
    assert.deepEqual(
      [byTitle('Fix login timeout').status, byTitle('Fix login timeout').assignee],
      ['in-progress', 'ada'],
    );
    assert.equal(
      git(repo.root, 'rev-parse', `refs/heads/kanban/${byTitle('Write release notes').id}`),
      git(repo.root, 'rev-parse', 'HEAD'),
    );
    const worktree = path.join(repo.tmp, 'changelog');
    assert.equal(git(worktree, 'symbolic-ref', '--short', 'HEAD'), `kanban/${byTitle('Update the changelog').id}`);
  });

  it('when the startStatus example is loaded, then it is valid and its start column is the one it names', async () => {
    const [example] = await docBlocks('start.md', 'json');
    const board = parseConfig(example).boards[0];
    assert.equal(startColumnOf(board.columns, board.startStatus)?.id, 'review');
  });

  it('when help is asked for, then start is listed with its flags, and bash completes its name and flags', async () => {
    assert.match(expectCode(await kanban(['--help']), 0).stdout, /^ {2}start +Start work on a card/m);
    const help = expectCode(await kanban(['start', '--help']), 0).stdout;
    assert.match(help, /^usage: kanban start <id> \[flags\]/);
    for (const flag of ['--assignee <name>', '--branch', '--worktree <path>']) assert.ok(help.includes(flag), flag);
    const script = expectCode(await kanban(['completion', 'bash']), 0).stdout;
    const complete = (line: string) => {
      const parts = line.split(' ');
      const program = `${script}\nCOMP_WORDS=(${parts.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${parts.length - 1}; _kanban; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).trim().split('\n');
    };
    assert.deepEqual(complete('kanban star'), ['start']);
    assert.deepEqual(complete('kanban start x --wo'), ['--worktree']);
  });
});
