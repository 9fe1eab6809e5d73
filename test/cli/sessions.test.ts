import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, makeTempDir, listFiles } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { buildCli, expectCode, jsonOf, kanban, type Run } from './helpers';
import { GIT_ENV, commitAll, git, gitStatus, initRepo } from './gitRepo';

/**
 * `kanban report` and the claim filters of `kanban list` as agents run them: separate processes,
 * each opening the folder itself.
 */

const ka = (dir: string, agent: string | null, ...args: string[]): Promise<Run> =>
  kanban([...args, '--dir', dir, ...(agent ? ['--agent', agent] : [])], { env: GIT_ENV });

async function seedCards(root: string, titles: string[]): Promise<string[]> {
  const server = await startTestServer({ root, server: { watch: false } });
  try {
    const ids: string[] = [];
    for (const title of titles) ids.push((await createTask(server, { content: `# ${title}\n`, status: 'todo' })).id);
    return ids;
  } finally {
    await server.running.close();
  }
}

const idsOf = (run: Run) => (jsonOf(run) as any[]).map((card) => card.id).sort();

describe('CLI: agents report progress and list by claim', function () {
  this.timeout(120_000);
  before(() => buildCli());

  describe('on one folder', () => {
    let root: string;
    beforeEach(async () => (root = await makeTempDir('kanban-sessions-')));
    afterEach(() => fs.rm(root, { recursive: true, force: true }));

    it('when an agent runs kanban report, then it prints one line, the card shows the session, and complete releases the claim', async () => {
      const [id] = await seedCards(root, ['Report me']);
      const line = expectCode(
        await ka(root, 'claude-1', 'report', id, 'active', '--note', 'on it', '--link', 'https://ci.example/7'),
        0,
      ).stdout;
      assert.match(line, new RegExp(`^claude-1 reported active on ${id}, claimed until \\S+\\n$`));
      const card = jsonOf(await ka(root, null, 'show', id, '--json'));
      assert.deepEqual(
        [card.session.agent, card.session.state, card.session.note, card.session.url, card.claim.agent],
        ['claude-1', 'active', 'on it', 'https://ci.example/7', 'claude-1'],
      );
      assert.match(
        expectCode(await ka(root, null, 'show', id), 0).stdout,
        /agent\s+claude-1: active - on it https:\/\/ci\.example\/7 \(at \S+\)/,
      );
      const done = jsonOf(await ka(root, 'claude-1', 'report', id, 'complete', '--json'));
      assert.deepEqual([done.session.state, done.claim], ['complete', null]);
      assert.match(
        expectCode(await ka(root, 'claude-2', 'report', id, 'sleeping'), 2).stderr,
        /one of active, awaitingInput, error, complete/,
      );
      assert.match(expectCode(await ka(root, null, 'report', id, 'active'), 1).stderr, /an agent must name itself/);
    });

    it('when cards are claimed by two agents, then list --claimed, --unclaimed and --mine pick them apart; --mine without an agent is a usage error', async () => {
      const [a, b, free] = await seedCards(root, ['Mine', 'Theirs', 'Free']);
      expectCode(await ka(root, 'me', 'claim', a), 0);
      expectCode(await ka(root, 'them', 'claim', b), 0);
      assert.deepEqual(idsOf(await ka(root, null, 'list', '--claimed', '--json')), [a, b].sort());
      assert.deepEqual(idsOf(await ka(root, null, 'list', '--unclaimed', '--json')), [free]);
      assert.deepEqual(idsOf(await ka(root, 'me', 'list', '--mine', '--json')), [a]);
      assert.deepEqual(idsOf(await ka(root, null, 'list', '--claimed-by', 'them', '--json')), [b]);
      assert.match(expectCode(await ka(root, null, 'list', '--mine'), 2).stderr, /--mine .*--agent/);
    });
  });

  describe('in a git repository', () => {
    let tmp: string;
    let root: string;
    beforeEach(async () => ({ tmp, root } = await initRepo()));
    afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

    it('when an agent reports, then the session is in the common git dir and git status shows only the card log', async () => {
      const [id] = await seedCards(root, ['Tracked']);
      commitAll(root, 'a card');
      expectCode(await ka(root, 'agent-1', 'report', id, 'error', '--note', 'tests fail'), 0);
      const sessions = await listFiles(path.join(root, '.git', 'kanban', 'claims', '.sessions'));
      assert.deepEqual(sessions, [`default/${id}.json`]);
      assert.deepEqual(
        gitStatus(root).split('\n').filter(Boolean),
        [`?? .kanban/boards/default/logs/${id}.jsonl`],
        'only the log, which travels with the repository',
      );
      git(root, 'add', '-A');
      assert.match(git(root, 'diff', '--cached'), /Agent agent-1: error - tests fail/);
    });

    it('when an agent in another worktree reports, then a server on this one shows the session and tells its WebSocket clients', async () => {
      const [id] = await seedCards(root, ['Shared']);
      commitAll(root, 'a card');
      const other = path.join(tmp, 'agent-b');
      git(root, 'worktree', 'add', '-q', '-b', 'agent-b', other);
      const server = await startTestServer({ root, server: { watch: true } });
      const socket = await RecordingSocket.connect(wsUrl(server.url));
      try {
        expectCode(await ka(other, 'elsewhere', 'report', id, 'awaitingInput', '--note', 'need a key'), 0);
        const event = await socket.waitFor((m) => m.event === 'task.session' && m.data?.taskId === id, 10_000);
        assert.deepEqual(
          [event.card.session.agent, event.card.session.state, event.card.claim.agent],
          ['elsewhere', 'awaitingInput', 'elsewhere'],
        );
        assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).session.note, 'need a key');
      } finally {
        socket.close();
        await server.running.close();
      }
    });
  });
});
