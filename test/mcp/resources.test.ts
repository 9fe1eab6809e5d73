import assert from 'node:assert/strict';
import type { TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP resources', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;
  const read = async (uri: string) => ((await mcp.client.readResource({ uri })).contents[0] as TextResourceContents).text;

  useMcpSession('url', (opened) => ({ server, mcp } = opened), async () => {
    const server = await startTestServer();
    for (let i = 1; i <= 7; i++) await server.api('POST', '/api/tasks', { content: `# Todo item ${i}\n`, status: 'todo', assignee: i === 1 ? 'ada' : null });
    await server.api('POST', '/api/tasks', { content: '# Ship it\n', status: 'done' });
    await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' });
    return server;
  });

  it('when an agent lists the resources, then it sees the instructions and one summary per board', async () => {
    const { resources } = await mcp.client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ['kanban://instructions', 'kanban://boards/default', 'kanban://boards/ops']);
    assert.ok(resources.every((r) => r.mimeType === 'text/markdown'));
  });

  it('when an agent reads the instructions, then they say how to pick up, move and comment, in under 2 KB', async () => {
    const text = await read('kanban://instructions');
    for (const tool of ['list_cards', 'get_card', 'update_card', 'move_card', 'add_comment', 'create_card', 'pick_card', 'release_card', 'report_progress']) assert.ok(text.includes(tool), `mentions ${tool}`);
    assert.ok(text.includes('backlog → todo → in-progress → review → done'), 'names the default board\'s columns');
    assert.ok(Buffer.byteLength(text) < 2048, `instructions are ${Buffer.byteLength(text)} bytes`);
  });

  it('when an agent reads a board, then each column shows its count as REST counts it and its first cards', async () => {
    const text = await read('kanban://boards/default');
    const cards = (await server.api('GET', '/api/tasks')).body?.data as { status: string; title: string }[];
    for (const column of ['backlog', 'todo', 'in-progress', 'review', 'done']) {
      const count = cards.filter((c) => c.status === column).length;
      assert.ok(text.includes(`(\`${column}\`): ${count}\n`), `${column}: ${count} in\n${text}`);
    }
    assert.match(text, /`todo-item-1-[\d-]+[a-z0-9]{4}` Todo item 1 \(medium, @ada\)/);
    assert.ok(!text.includes('Todo item 6'), 'only the first five cards of a column are listed');
    assert.match(text, /2 more/);
    assert.ok(Buffer.byteLength(text) < 2048);
  });

  it('when an agent reads a board that does not exist, then the error names it', async () => {
    await assert.rejects(mcp.client.readResource({ uri: 'kanban://boards/nope' }), /board "nope" does not exist/);
  });
});
