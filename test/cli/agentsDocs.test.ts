import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { version } from '../../package.json';
import { parseConfig } from '../../server/config/parseConfig';
import { AGENT_LOOP } from '../../server/core/agentLoop';
import { readyColumnsOf } from '../../server/core/startColumn';
import { listFiles, startTestServer } from '../helpers/testServer';
import { docBlocks, shellWords } from './docBlocks';
import { buildCli, expectCode, jsonOf, kanban } from './helpers';
import { GIT_ENV, git, openStartRepo, statusOutsideBoard, type StartRepo } from './startRepo';

/** docs/agents.md runs as written, in order: the set-up, the commands, then the REST calls against a server on the same folder. */

/** The exit code a line's comment promises: `(exit N)`, else 0. */
const exitOf = (line: string) => Number(/\(exit (\d)\)/.exec(line.slice(line.indexOf('#')))?.[1] ?? 0);

function sh(command: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** "Set up your agents", run in the fresh repository: the skill files and the context are written, then committed as a user would. */
async function runSetUp(repo: StartRepo, block: string): Promise<void> {
  const lines = block.split('\n').filter((line) => line.startsWith('kanban '));
  assert.equal(lines.length, 5, lines.join('\n'));
  const outputs: string[] = [];
  for (const line of lines)
    outputs.push(
      expectCode(await kanban(shellWords(line).slice(1), { cwd: repo.root, env: GIT_ENV }), exitOf(line)).stdout,
    );
  assert.match(outputs[2], /^ok +agents +AGENTS\.md/m);
  assert.match(outputs[3], /^Next to pick: none$/m);
  const agentsMd = await fs.readFile(path.join(repo.root, 'AGENTS.md'), 'utf8');
  assert.ok(agentsMd.includes(`<!-- kanban:skill v${version} -->\n${AGENT_LOOP.trimEnd()}\n<!-- /kanban:skill -->`));
  assert.match(agentsMd, /<!-- kanban:context -->\n## Board Default[\s\S]*<!-- \/kanban:context -->\n$/);
  for (const file of ['.claude/skills/kanban/SKILL.md', '.cursor/rules/kanban.mdc'])
    await fs.access(path.join(repo.root, file));
  git(repo.root, 'add', '-A');
  git(repo.root, 'commit', '-q', '-m', 'Agents: the kanban loop and the board context');
}

describe('docs/agents.md runs as written', function () {
  this.timeout(120_000);
  let repo: StartRepo | undefined;

  before(() => buildCli());
  after(async () => repo?.close());

  it('when the commands run in order in a git repository, then each exits as its comment says and the board ends as described', async () => {
    repo = await openStartRepo('dir');
    const [setup, commands, rest] = await docBlocks('agents.md', 'sh');
    await runSetUp(repo, setup);
    const lines = commands.split('\n').filter((line) => line.startsWith('kanban '));
    assert.ok(lines.length >= 12, lines.join('\n'));
    for (const line of lines)
      expectCode(await kanban(shellWords(line).slice(1), { cwd: repo.root, env: GIT_ENV }), exitOf(line));

    const cards = jsonOf(await kanban(['list', '--json'], { cwd: repo.root, env: GIT_ENV }));
    const byTitle = (title: string) => cards.find((c: any) => c.title === title);
    assert.equal(byTitle('Fix login timeout').claim, null, 'its holder let go');
    assert.deepEqual(
      [byTitle('Write release notes').status, byTitle('Write release notes').claim.agent],
      ['in-progress', 'claude-2'],
    );
    assert.deepEqual(
      [byTitle('Tidy the README').priority, byTitle('Tidy the README').claim.agent],
      ['high', 'claude-3'],
    );
    const log = expectCode(
      await kanban(['log', byTitle('Tidy the README').id], { cwd: repo.root, env: GIT_ENV }),
      0,
    ).stdout;
    assert.match(log, /Claim of agent claude-1 .* released by agent claude-2, with force/);

    const claims = path.join(repo.root, '.git', 'kanban', 'claims');
    const stored = (await listFiles(claims)).filter((f) => f.endsWith('.json'));
    assert.deepEqual(
      stored.filter((f) => !f.startsWith('.sessions')).sort(),
      [byTitle('Write release notes').id, byTitle('Tidy the README').id].map((id) => `default/${id}.json`).sort(),
    );
    assert.deepEqual(
      stored.filter((f) => f.startsWith('.sessions')),
      [path.join('.sessions', 'default', `${byTitle('Tidy the README').id}.json`)],
    );
    assert.deepEqual(
      [byTitle('Tidy the README').session.state, byTitle('Tidy the README').session.note],
      ['awaitingInput', 'keep the badges?'],
    );
    assert.match(log, /Agent claude-3: active - rewording the intro/);
    assert.match(log, /Agent claude-3: awaitingInput - keep the badges\?/);
    assert.deepEqual(statusOutsideBoard(repo.root), [], 'claims are nothing git sees');

    // The REST examples, against a server on the same folder.
    const server = await startTestServer({ root: repo.root, server: { watch: false } });
    try {
      const calls = rest
        .replace(/\\\n\s*/g, '')
        .split('\n')
        .filter((line) => line.startsWith('curl '));
      assert.equal(calls.length, 5);
      for (const call of calls) {
        const run = await sh(call.replace(/localhost:3000/g, server.url.replace(/^http:\/\//, '')), repo.root);
        assert.equal(run.code, 0, `${call}\n${run.stderr}`);
        if (run.stdout !== '') assert.equal(JSON.parse(run.stdout).ok, true, `${call}\n${run.stdout}`);
      }
      const fixLogin = (await server.api('GET', `/api/tasks/${byTitle('Fix login timeout').id}`)).body?.data;
      assert.equal(fixLogin.claim, null, 'claimed and released again over REST');
      assert.deepEqual(
        [fixLogin.session.agent, fixLogin.session.state],
        ['claude-1', 'awaitingInput'],
        'the session outlives the claim',
      );
    } finally {
      await server.running.close();
    }
  });

  it('when the pickFrom example is loaded, then it is valid and pick takes from the column it names', async () => {
    const [example] = await docBlocks('agents.md', 'json');
    const board = parseConfig(example).boards[0];
    assert.deepEqual(readyColumnsOf(board), ['triaged']);
  });
});
