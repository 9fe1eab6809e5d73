import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, makeTempDir, listFiles } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { buildCli, expectCode, jsonOf, kanban, type Run } from './helpers';
import { GIT_ENV, commitAll, git, gitStatus, initRepo } from './gitRepo';

/**
 * `kanban pick`, `claim` and `release` as agents run them: separate processes, each opening the
 * folder itself, racing for the same cards. No two may ever get one card, whichever folder or git
 * worktree they run in.
 */

/** `kanban ...` in-process on `dir` as agent `agent` (or none), as a separate process. */
const ka = (dir: string, agent: string | null, ...args: string[]): Promise<Run> =>
  kanban([...args, '--dir', dir, ...(agent ? ['--agent', agent] : [])], { env: GIT_ENV });

/** `count` cards in todo, made through a server that is gone again before the test's processes run. */
async function seedCards(root: string, count: number, status = 'todo'): Promise<string[]> {
  const server = await startTestServer({ root, server: { watch: false } });
  try {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await createTask(server, { content: `# Card ${i}\n`, status })).id);
    return ids;
  } finally {
    await server.running.close();
  }
}

/** The picked cards' ids of runs that picked one; the rest must have exited 3 (nothing to pick). */
function pickedIds(runs: Run[]): string[] {
  const picked: string[] = [];
  for (const run of runs) {
    if (run.code === 3) {
      assert.equal(run.stdout, '', 'nothing on stdout when there is nothing to pick');
      assert.match(run.stderr, /nothing to pick/);
      continue;
    }
    picked.push(jsonOf(run).id);
  }
  return picked;
}

describe('CLI: agents pick, claim and release', function () {
  this.timeout(120_000);
  before(() => buildCli());

  describe('on one folder', () => {
    let root: string;
    beforeEach(async () => (root = await makeTempDir('kanban-agents-')));
    afterEach(() => fs.rm(root, { recursive: true, force: true }));

    it('when 12 kanban pick processes start at once on one folder, then each gets a different card', async () => {
      const ids = await seedCards(root, 14);
      const runs = await Promise.all(Array.from({ length: 12 }, (_, i) => ka(root, `a${i}`, 'pick', '--json')));
      const picked = pickedIds(runs);
      assert.equal(picked.length, 12, runs.map((r) => r.stderr).join(''));
      assert.equal(new Set(picked).size, 12, `every pick got its own card: ${picked.join(', ')}`);
      for (const id of picked) assert.ok(ids.includes(id));
      const claims = (await listFiles(path.join(root, '.kanban', '.state', 'claims'))).filter((f) =>
        f.endsWith('.json'),
      );
      assert.deepEqual(claims.sort(), picked.map((id) => `default/${id}.json`).sort());
      const agents = runs.map((run) => jsonOf(run).claim.agent).sort();
      assert.deepEqual(agents, Array.from({ length: 12 }, (_, i) => `a${i}`).sort());
    });

    it('when nothing is pickable, then kanban pick exits 3, prints nothing under --json and says so on stderr', async () => {
      await seedCards(root, 1);
      expectCode(await ka(root, 'first', 'pick'), 0);
      const json = await ka(root, 'second', 'pick', '--json');
      expectCode(json, 3);
      assert.equal(json.stdout, '');
      const human = expectCode(await ka(root, 'second', 'pick'), 3);
      assert.match(human.stderr, /kanban: nothing to pick: no ready, unclaimed card matches/);
      const help = expectCode(await kanban(['--help']), 0).stdout;
      for (const command of ['pick', 'claim', 'release'])
        assert.match(help, new RegExp(`\\n  ${command} +\\S`), `kanban --help lists ${command}`);
      assert.match(help, /3 nothing to pick/);
      assert.match(help, /--agent <name> +act as this agent/);
    });

    it('when an agent picks, then it prints the card like kanban show, its claim included', async () => {
      const [id] = await seedCards(root, 1);
      const run = expectCode(await ka(root, 'ada-bot', 'pick', '--move-to', 'in-progress', '--ttl', '120'), 0);
      assert.match(run.stdout, /^Card 0\n/);
      assert.match(run.stdout, new RegExp(`id +${id}\n`));
      assert.match(run.stdout, /status +in-progress\n/);
      assert.match(run.stdout, /claimed by +ada-bot until \d{4}-\d\d-\d\dT/);
      assert.match(expectCode(await ka(root, null, 'show', id), 0).stdout, /claimed by +ada-bot until/);
    });

    it('when agents claim and release from the command line, then another agent is refused until the holder lets go or --force is used (and logged)', async () => {
      const [id] = await seedCards(root, 1);
      assert.match(expectCode(await ka(root, 'a1', 'claim', id), 0).stdout, new RegExp(`claimed ${id} for a1 until`));
      const viaEnv = await kanban(['claim', id, '--dir', root], { env: { ...GIT_ENV, KANBAN_AGENT: 'a2' } });
      expectCode(viaEnv, 1);
      assert.match(viaEnv.stderr, /claimed by agent a1 until/);
      assert.match(expectCode(await ka(root, 'a2', 'edit', id, '--priority', 'high'), 1).stderr, /claimed by agent a1/);
      expectCode(await ka(root, null, 'edit', id, '--priority', 'high'), 0);
      assert.match(
        expectCode(await ka(root, 'a2', 'release', id), 1).stderr,
        /only that agent or a person may release it/,
      );
      assert.match(expectCode(await ka(root, 'a2', 'release', id, '--force'), 0).stdout, new RegExp(`released ${id}`));
      assert.match(
        expectCode(await ka(root, null, 'log', id), 0).stdout,
        /Claim of agent a1 .* released by agent a2, with force/,
      );
      const card = jsonOf(await ka(root, 'a2', 'claim', id, '--ttl', '60', '--json'));
      assert.equal(card.claim.agent, 'a2');
    });

    it('when --agent or KANBAN_AGENT is not a valid name, or --ttl is not whole seconds up to a day, then the command is refused saying why', async () => {
      const [id] = await seedCards(root, 1);
      assert.match(
        expectCode(await ka(root, 'no spaces', 'claim', id), 1).stderr,
        /--agent "no spaces" is not a valid agent name: use 1 to 64 characters/,
      );
      assert.match(
        expectCode(await kanban(['pick', '--dir', root], { env: { KANBAN_AGENT: 'bad;name' } }), 1).stderr,
        /KANBAN_AGENT "bad;name" is not a valid agent name/,
      );
      assert.match(
        expectCode(await ka(root, 'a1', 'claim', id, '--ttl', '86401'), 2).stderr,
        /--ttl takes whole seconds from 1 to 86400/,
      );
      assert.match(expectCode(await ka(root, null, 'pick'), 1).stderr, /name the agent/);
    });

    it('when a 2 s lease runs out, then the card shows no claim and is picked again', async () => {
      const [id] = await seedCards(root, 1);
      assert.equal(jsonOf(await ka(root, 'brief', 'pick', '--ttl', '2', '--json')).id, id);
      expectCode(await ka(root, 'next', 'pick'), 3);
      await waitUntil(
        async () => jsonOf(await ka(root, null, 'show', id, '--json')).claim === null,
        8000,
        'the lease to run out',
        200,
      );
      const again = jsonOf(await ka(root, 'next', 'pick', '--json'));
      assert.deepEqual([again.id, again.claim.agent], [id, 'next']);
    });

    it('when kanban pick goes through a server (--url), then it acts as --agent there', async () => {
      await seedCards(root, 2);
      const server = await startTestServer({ root });
      try {
        const picked = jsonOf(await kanban(['pick', '--url', server.url, '--agent', 'remote', '--json']));
        assert.equal(okData(await server.api('GET', `/api/tasks/${picked.id}`)).claim.agent, 'remote');
      } finally {
        await server.running.close();
      }
    });
  });

  describe('in a git repository with two worktrees', () => {
    let tmp: string;
    let root: string;
    let other: string;
    let ids: string[];
    beforeEach(async () => {
      ({ tmp, root } = await initRepo());
      ids = await seedCards(root, 8);
      commitAll(root, 'eight cards');
      other = path.join(tmp, 'agent-b');
      git(root, 'worktree', 'add', '-q', '-b', 'agent-b', other);
    });
    afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

    it('when agents in both worktrees pick at the same time, then no card is picked twice, the claims are in the common git dir and git status stays clean', async () => {
      const runs = await Promise.all(
        Array.from({ length: 12 }, (_, i) => ka(i % 2 ? other : root, `agent-${i}`, 'pick', '--json')),
      );
      const picked = pickedIds(runs);
      assert.equal(picked.length, 8, 'every card once, then nothing');
      assert.deepEqual([...picked].sort(), [...ids].sort());
      const common = path.resolve(root, git(other, 'rev-parse', '--git-common-dir'));
      assert.equal(common, path.join(root, '.git'));
      const files = (await listFiles(path.join(common, 'kanban', 'claims'))).filter((f) => f.endsWith('.json'));
      assert.deepEqual(files.sort(), ids.map((id) => `default/${id}.json`).sort());
      for (const dir of [root, other]) {
        assert.deepEqual(
          await listFiles(path.join(dir, '.kanban', '.state', 'claims')),
          [],
          'nothing under .kanban/.state/claims',
        );
        assert.equal(gitStatus(dir), '', `git status in ${path.basename(dir)} is clean`);
      }
    });

    it('when a long-running server and agents in the other worktree pick in turns, then no card is picked twice (the server never trusts what it read before)', async () => {
      // The server reads the claims once and keeps them while the folder's change stamp holds; each
      // CLI pick in between replaces the stamp, so the server's next pick must see that claim.
      const server = await startTestServer({ root, server: { watch: false } });
      try {
        const picked: string[] = [];
        for (let turn = 0; turn < 4; turn++) {
          const byServer = await server.api('POST', '/api/tasks/pick', {}, { 'X-Kanban-Agent': `server-${turn}` });
          picked.push(okData<{ id: string }>(byServer).id);
          picked.push(jsonOf(await ka(other, `cli-${turn}`, 'pick', '--json')).id);
        }
        assert.deepEqual([...picked].sort(), [...ids].sort(), `every card once: ${picked.join(', ')}`);
        assert.equal((await server.api('POST', '/api/tasks/pick', {}, { 'X-Kanban-Agent': 'late' })).status, 204);
      } finally {
        await server.running.close();
      }
    });

    it('when an agent in one worktree claims a card, then a server on the other shows the claim and tells its WebSocket clients', async () => {
      const server = await startTestServer({ root, server: { watch: true } });
      const socket = await RecordingSocket.connect(wsUrl(server.url));
      try {
        const id = ids[0];
        expectCode(await ka(other, 'elsewhere', 'claim', id), 0);
        const claimed = await socket.waitFor((m) => m.event === 'task.claimed' && m.data?.taskId === id, 10_000);
        assert.equal(claimed.card.claim.agent, 'elsewhere');
        assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).claim.agent, 'elsewhere');
        const refused = await server.api(
          'PUT',
          `/api/tasks/${id}`,
          { priority: 'high' },
          { 'X-Kanban-Agent': 'local' },
        );
        assert.equal(refused.status, 409);
        expectCode(await ka(other, 'elsewhere', 'release', id), 0);
        await socket.waitFor((m) => m.event === 'task.released' && m.data?.taskId === id, 10_000);
        assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).claim, null);
      } finally {
        socket.close();
        await server.running.close();
      }
    });
  });
});
