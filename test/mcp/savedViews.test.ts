import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP list_cards with a saved view (over a running server with --url)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession('url', (opened) => ({ server, mcp } = opened));

  it("when an agent lists cards through a view, then the view's filter applies, and a filter of its own overrides it", async () => {
    const high = await mcp.call('create_card', { title: 'Hot fix', priority: 'high' });
    const low = await mcp.call('create_card', { title: 'Someday', priority: 'low' });
    okData(
      await server.api('POST', '/api/views', {
        id: 'hot',
        name: 'Hot',
        board: 'default',
        filter: { priority: 'high' },
      }),
      201,
    );
    assert.deepEqual(
      (await mcp.call('list_cards', { view: 'hot' })).cards.map((c: { id: string }) => c.id),
      [high.id],
    );
    assert.deepEqual(
      (await mcp.call('list_cards', { view: 'hot', priority: 'low' })).cards.map((c: { id: string }) => c.id),
      [low.id],
    );
  });
});
