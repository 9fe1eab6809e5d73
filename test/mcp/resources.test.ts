import assert from 'node:assert/strict';
import type { TextResourceContents } from '@modelcontextprotocol/client';
import { AGENT_LOOP } from '../../server/core/agentLoop';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP resources', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;
  const read = async (uri: string) =>
    ((await mcp.client.readResource({ uri })).contents[0] as TextResourceContents).text;

  useMcpSession(
    'url',
    (opened) => ({ server, mcp } = opened),
    async () => {
      const server = await startTestServer();
      for (let i = 1; i <= 7; i++)
        await server.api('POST', '/api/tasks', {
          content: `# Todo item ${i}\n`,
          status: 'todo',
          assignee: i === 1 ? 'ada' : null,
        });
      await server.api('POST', '/api/tasks', { content: '# Ship it\n', status: 'done' });
      await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' });
      return server;
    },
  );

  it('when an agent lists the resources, then it sees the instructions, the context and one summary per board', async () => {
    const { resources } = await mcp.client.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      ['kanban://instructions', 'kanban://context', 'kanban://boards/default', 'kanban://boards/ops'],
    );
    assert.ok(resources.every((r) => r.mimeType === 'text/markdown'));
  });

  it('when an agent reads the instructions, then they carry the loop the skill files carry, the tools, and stay under 3 KB', async () => {
    const text = await read('kanban://instructions');
    assert.ok(text.includes(AGENT_LOOP), 'the same loop text as kanban skill install writes');
    for (const tool of [
      'list_cards',
      'get_card',
      'update_card',
      'move_card',
      'add_comment',
      'create_card',
      'pick_card',
      'release_card',
      'report_progress',
      'get_board_context',
    ])
      assert.ok(text.includes(tool), `mentions ${tool}`);
    assert.ok(text.includes('backlog → todo → in-progress → review → done'), "names the default board's columns");
    // The loop (about 1.5 KB) is shared with the skill files; the MCP part adds what only a tool user needs.
    assert.ok(Buffer.byteLength(text) < 3072, `instructions are ${Buffer.byteLength(text)} bytes`);
    assert.match(
      mcp.client.getInstructions() ?? '',
      /kanban:\/\/instructions for the work loop .* kanban:\/\/context for the board now/,
    );
  });

  it('when an agent reads the context, then it gets the board now as kanban context prints it, for the default board or one it names', async () => {
    const text = await read('kanban://context');
    assert.match(text, /^## Board Default \(`default`\)$/m);
    assert.match(text, /^In progress: none$/m);
    assert.match(
      text,
      /^Next to pick \(5 of 7\):\n- `todo-item-1-[\d-]+[a-z0-9]{4}` Todo item 1 \(todo, medium, @ada\)$/m,
    );
    assert.equal(await read('kanban://context/ops'), await mcp.call('get_board_context', { board: 'ops' }));
    assert.match(await read('kanban://context/ops'), /^## Board Ops \(`ops`\)/);
    await assert.rejects(mcp.client.readResource({ uri: 'kanban://context/nope' }), /board "nope"/);
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
    assert.match(text, /^## Next to pick \(5 of 7\)\n- `todo-item-1-[\d-]+[a-z0-9]{4}` Todo item 1 \(todo, medium\)$/m);
    assert.ok(Buffer.byteLength(text) < 2560, `the board is ${Buffer.byteLength(text)} bytes`);
  });

  it('when an agent lists the resource templates, then it finds a board and a card by id', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ['kanban://boards/{board}', 'kanban://cards/{id}'],
    );
  });

  it('when an agent reads a card by a prefix of its id, then it gets the card file as Markdown with its frontmatter and the read model GET /api/tasks answers', async () => {
    const card = (
      await server.api('POST', '/api/tasks', {
        content: '# Read me whole\n\nThe body.\n',
        status: 'todo',
        labels: ['docs'],
      })
    ).body?.data as { id: string };
    const uri = `kanban://cards/${card.id.slice(0, 12)}`;
    const { contents } = await mcp.client.readResource({ uri });
    assert.deepEqual(
      contents.map((c) => [c.uri, c.mimeType]),
      [
        [uri, 'text/markdown'],
        [uri, 'application/json'],
      ],
    );
    const [markdown, json] = contents.map((c) => (c as TextResourceContents).text);
    assert.match(markdown, new RegExp(`^---\nid: ${card.id}\nstatus: todo\npriority: medium\nlabels:\n  - docs\n`));
    assert.match(markdown, /\n---\n\n# Read me whole\n\nThe body\.\n$/);
    assert.deepEqual(JSON.parse(json), (await server.api('GET', `/api/tasks/${card.id}`)).body?.data);
  });

  it('when an agent reads a card that does not exist, then the error names it', async () => {
    await assert.rejects(mcp.client.readResource({ uri: 'kanban://cards/no-such-card' }), /no-such-card/);
  });

  it('when an agent reads a board that does not exist, then the error names it', async () => {
    await assert.rejects(mcp.client.readResource({ uri: 'kanban://boards/nope' }), /board "nope" does not exist/);
  });
});
