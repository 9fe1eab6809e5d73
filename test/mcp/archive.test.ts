import assert from 'node:assert/strict';
import type { TextResourceContents } from '@modelcontextprotocol/client';
import type { TestServer } from '../helpers/testServer';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP archive tools (over a running server with --url)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession('url', (opened) => ({ server, mcp } = opened));

  it('when an agent archives a card and a column, then list_cards leaves them out, archived "only" finds them, and restore_card brings one back', async () => {
    const card = await mcp.call('create_card', { title: 'Old task', status: 'review' });
    const doneOne = await mcp.call('create_card', { title: 'Done one', status: 'done' });
    const archived = await mcp.call('archive_card', { id: card.id });
    assert.equal(archived.status, 'review');
    const column = await mcp.call('archive_column', { column: 'done' });
    assert.deepEqual(
      column.archived.map((c: { id: string }) => c.id),
      [doneOne.id],
    );
    assert.deepEqual((await mcp.call('list_cards', {})).cards, []);
    const only = await mcp.call('list_cards', { archived: 'only' });
    assert.deepEqual(only.cards.map((c: { id: string }) => c.id).sort(), [card.id, doneOne.id].sort());
    const restored = await mcp.call('restore_card', { id: card.id });
    assert.equal(restored.status, 'review');
    assert.equal((await server.api('GET', `/api/tasks/${card.id}`)).body?.data.archivedAt, null);
  });

  it('when a column has a WIP limit, then the board resource shows count/limit and says when it is over', async () => {
    await server.api('PUT', '/api/columns/todo', { wipLimit: 1 });
    await mcp.call('create_card', { title: 'First todo', status: 'todo' });
    await mcp.call('create_card', { title: 'Second todo', status: 'todo' });
    const text = (
      (await mcp.client.readResource({ uri: 'kanban://boards/default' })).contents[0] as TextResourceContents
    ).text;
    assert.match(text, /^## To Do \(`todo`\): 2\/1 \(WIP limit, over\)$/m);
    const guide = (
      (await mcp.client.readResource({ uri: 'kanban://instructions' })).contents[0] as TextResourceContents
    ).text;
    assert.match(guide, /archive_card/);
  });
});
