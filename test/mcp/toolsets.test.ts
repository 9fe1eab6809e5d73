import assert from 'node:assert/strict';
import { toolCatalog } from '../../server/mcp/mcpServer';
import { TOOLSETS } from '../../server/mcp/toolsets';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { runMcpToExit, startMcp, textOf } from './helpers';
import { toolsListBytes } from './listBytes';

/**
 * What `tools/list` costs an agent is a budget: every listed tool is sent in every session. The
 * default is the everyday `cards` toolset; the rest is opt-in with --toolsets and --tools.
 */
const BUDGET: Record<string, number> = {
  // Ceilings a little above today's sizes (12,408, 20,179, 11,269, 47,995 and 91,848 B), so growth is
  // a decision: cards grew by sub-cards (parent on create, relations on update, parent/topLevel
  // filters), boards by get_metrics, admin and all by the card links in the REST tools, the metrics
  // routes and the migrations into PostgreSQL and MySQL.
  cards: 12_500,
  boards: 20_500,
  automation: 11_500,
  admin: 49_000,
  all: 93_000,
};

describe('MCP toolsets: what is listed, what it costs, and the flags that choose it', function () {
  this.timeout(60_000);

  it('when the catalog is built, then every tool is in exactly one of the four toolsets', () => {
    const tools = toolCatalog().tools;
    const bySet = TOOLSETS.map((set) => tools.filter((t) => t.toolset === set).map((t) => t.name));
    assert.deepEqual(
      tools.filter((t) => !TOOLSETS.includes(t.toolset as never)).map((t) => t.name),
      [],
    );
    assert.equal(bySet.flat().length, tools.length);
    assert.equal(new Set(bySet.flat()).size, tools.length);
    for (const [i, names] of bySet.entries()) assert.ok(names.length > 0, `${TOOLSETS[i]} has tools`);
  });

  for (const set of TOOLSETS) {
    it(`when a client lists the ${set} toolset, then it lists all of its tools and stays within its budget`, async () => {
      const { bytes, names } = await toolsListBytes({ toolsets: [set] });
      const budget = BUDGET[set];
      assert.ok(bytes <= budget, `${set}: tools/list is ${bytes} bytes, over its budget of ${budget}`);
      const listed = new Set(names);
      assert.deepEqual(
        toolCatalog()
          .tools.filter((t) => t.toolset === set)
          .map((t) => t.name)
          .filter((n) => !listed.has(n)),
        [],
      );
    });
  }

  it('when every tool is listed, then each has a title, an output schema and annotations', async () => {
    const { bytes, names } = await toolsListBytes({ toolsets: ['all'] });
    assert.equal(names.length, toolCatalog().tools.length);
    assert.ok(bytes <= BUDGET.all, `all: tools/list is ${bytes} bytes, over its ceiling of ${BUDGET.all}`);
    for (const tool of toolCatalog().tools) {
      const entry = toolCatalog().listed(tool);
      assert.ok(
        entry.title &&
          entry.outputSchema?.type === 'object' &&
          entry.annotations &&
          Object.keys(entry.annotations).length > 0,
        tool.name,
      );
    }
  });

  describe('kanban mcp on stdio', () => {
    let server: TestServer;
    before(async () => (server = await startTestServer()));
    after(async () => server?.close());
    const cards = () =>
      toolCatalog()
        .tools.filter((t) => t.toolset === 'cards')
        .map((t) => t.name);

    async function listed(args: string[]): Promise<string[]> {
      const mcp = await startMcp(['--url', server.url, ...args]);
      try {
        return (await mcp.client.listTools()).tools.map((t) => t.name);
      } finally {
        await mcp.close();
      }
    }

    it('when no flag chooses tools, then the cards toolset alone is listed, and another tool is refused naming its toolset', async () => {
      const mcp = await startMcp(['--url', server.url]);
      try {
        assert.deepEqual(
          (await mcp.client.listTools()).tools.map((t) => t.name),
          cards(),
        );
        await assert.rejects(
          mcp.client.callTool({ name: 'list_webhooks', arguments: {} }),
          /enable it with --toolsets automation/,
        );
      } finally {
        await mcp.close();
      }
    });

    it('when --toolsets all is given, then every tool is listed', async () => {
      assert.deepEqual(
        await listed(['--toolsets', 'all']),
        toolCatalog().tools.map((t) => t.name),
      );
    });

    it('when --tools names a tool, then it is listed beside the cards toolset', async () => {
      assert.deepEqual(
        await listed(['--tools', 'list_boards']),
        [...cards(), 'list_boards'].sort((a, b) => order(a) - order(b)),
      );
    });

    it('when --read-only is given, then only read-only tools are listed and a write tool is refused', async () => {
      const mcp = await startMcp(['--url', server.url, '--read-only', '--toolsets', 'cards,boards']);
      try {
        const tools = (await mcp.client.listTools()).tools;
        assert.ok(tools.some((t) => t.name === 'list_cards') && tools.some((t) => t.name === 'list_boards'));
        assert.deepEqual(
          tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name),
          [],
        );
        await assert.rejects(mcp.client.callTool({ name: 'create_card', arguments: { title: 'no' } }), /read-only/);
        const read = await mcp.callRaw('list_cards');
        assert.notEqual(read.isError, true, textOf(read));
      } finally {
        await mcp.close();
      }
    });

    it('when a toolset or a tool is unknown, then it exits 2 at start naming the valid ones', async () => {
      const badSet = await runMcpToExit(['--url', server.url, '--toolsets', 'cards,board']);
      assert.equal(badSet.code, 2);
      assert.match(badSet.stderr, /unknown toolset "board"; the toolsets are cards, boards, automation, admin and all/);
      const badTool = await runMcpToExit(['--url', server.url, '--tools', 'list_card']);
      assert.equal(badTool.code, 2);
      assert.match(badTool.stderr, /unknown tool "list_card"; the tools are .*\blist_cards\b/);
    });
  });
});

const order = (name: string) => toolCatalog().tools.findIndex((t) => t.name === name);
