import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP server in-process on a workspace folder (--dir)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession('dir', (opened) => ({ server, mcp } = opened));

  it('when an agent creates and moves a card in the folder, then a server on the same folder shows it', async () => {
    const created = await mcp.call('create_card', {
      title: 'Write the release notes',
      body: 'For 0.2.',
      labels: ['docs'],
    });
    const card = await eventually(async () => {
      const answer = await server.api('GET', `/api/tasks/${created.id}`);
      assert.equal(answer.status, 200, answer.body?.error);
      return answer.body?.data;
    });
    assert.equal(card.content, '# Write the release notes\n\nFor 0.2.\n');
    await mcp.call('move_card', { id: created.id, status: 'review' });
    await eventually(async () =>
      assert.equal((await server.api('GET', `/api/tasks/${created.id}`)).body?.data.status, 'review'),
    );
  });

  it('when a person adds a card through the server, then the agent finds it', async () => {
    const added = await server.api('POST', '/api/tasks', { content: '# Rotate the API keys\n', priority: 'high' });
    assert.equal(added.status, 201);
    const found = await eventually(async () => {
      const page = await mcp.call('list_cards', { q: 'rotate' });
      assert.equal(page.cards.length, 1);
      return page.cards[0];
    });
    assert.deepEqual(found, {
      id: added.body?.data.id,
      title: 'Rotate the API keys',
      status: 'backlog',
      priority: 'high',
    });
  });
});
