import { strict as assert } from 'node:assert';
import { createTask } from '../helpers/envelope';
import { commit, git, initRepo } from '../helpers/gitRepos';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP get_card with the git links of a card', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession(
    'url',
    (opened) => ({ server, mcp } = opened),
    async () => {
      const root = await makeTempDir('kanban-mcp-git-');
      await initRepo(root);
      return startTestServer({ root });
    },
  );

  it('when a card has a branch and a linked commit, then get_card answers them under git, and no other tool is needed for them', async () => {
    const card = await createTask(server, 'Fix login');
    await commit(server.root, 'Start');
    await git(server.root, ['branch', `kanban/${card.id}`]);
    const sha = await commit(server.root, `Fix the session timeout\n\nRefs: ${card.id}`);

    const got = await mcp.call('get_card', { id: card.id });
    assert.equal(got.content, '# Fix login\n');
    assert.deepEqual(
      got.git.branches.map((b: { name: string; ahead: number; behind: number }) => [b.name, b.ahead, b.behind]),
      [[`kanban/${card.id}`, 0, 1]],
    );
    assert.deepEqual(
      got.git.commits.map((c: { sha: string; subject: string }) => [c.sha, c.subject]),
      [[sha, 'Fix the session timeout']],
    );
    const tools = (await mcp.client.listTools()).tools.map((t) => t.name);
    assert.ok(!tools.some((name) => name.includes('git')), `get_card covers the git route: ${tools.join(', ')}`);
  });

  it('when a card has no git links, then get_card answers no git field', async () => {
    const card = await createTask(server, 'Write docs');
    const got = await mcp.call('get_card', { id: card.id });
    assert.equal(got.id, card.id);
    assert.ok(!('git' in got), JSON.stringify(got));
  });
});
