import assert from 'node:assert/strict';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { HttpApiClient } from '../../server/client/apiClient';
import { buildMcpServer, toolCatalog, type McpServerOptions } from '../../server/mcp/mcpServer';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { textOf } from './helpers';

/**
 * The server factory as an HTTP host will call it: per principal, with a read-only switch, a chosen
 * few tools and an agent. In-process over the SDK's linked transports (2025-11-25), no child process.
 */
describe('MCP server factory: read-only, toolsets, chosen tools, agent', function () {
  this.timeout(30_000);
  let server: TestServer;
  const open: Client[] = [];
  before(async () => (server = await startTestServer()));
  after(async () => {
    for (const client of open) await client.close();
    await server?.close();
  });

  async function connect(options: Omit<McpServerOptions, 'client' | 'log'>): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildMcpServer({ client: new HttpApiClient(server.url), log: () => undefined, ...options }).connect(
      serverSide,
    );
    const client = new Client({ name: 'factory-test', version: '1.0.0' });
    await client.connect(clientSide);
    open.push(client);
    return client;
  }

  it('when the server is read-only, then it lists and runs only tools that change nothing', async () => {
    const client = await connect({ readOnly: true, toolsets: ['all'] });
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'list_cards'));
    assert.deepEqual(
      tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name),
      [],
    );
    await assert.rejects(
      client.callTool({ name: 'create_card', arguments: { title: 'x' } }),
      /"create_card" changes the board and this server is read-only/,
    );
  });

  it('when tools are named beside toolsets, then they are listed too, in the catalog order', async () => {
    const client = await connect({ toolsets: ['automation'], tools: ['create_card', 'list_cards'] });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(names.slice(0, 2), ['list_cards', 'create_card']);
    assert.ok(names.includes('list_webhooks') && !names.includes('get_card'), names.join());
  });

  it('when toolsets are chosen, then only their tools are listed, and another one is refused saying how to enable it', async () => {
    const client = await connect({ toolsets: ['automation'] });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(
      names.includes('list_webhooks') && names.includes('set_board_actions') && names.includes('list_forms'),
      names.join(),
    );
    assert.ok(!names.includes('list_cards') && !names.includes('list_boards'), names.join());
    await assert.rejects(client.callTool({ name: 'list_boards', arguments: {} }), /enable it with --toolsets boards/);
  });

  it('when nothing is chosen, then the cards toolset alone is listed', async () => {
    const client = await connect({});
    const listed = (await client.listTools()).tools.map((t) => t.name);
    const cards = toolCatalog()
      .tools.filter((t) => t.toolset === 'cards')
      .map((t) => t.name);
    assert.deepEqual(listed, cards);
  });

  it("when the server acts as an agent, then a claim without an agent argument is that agent's", async () => {
    const client = await connect({ agent: 'factory-bot' });
    const card = (await server.api('POST', '/api/tasks', { content: '# Claimed by the factory\n' })).body?.data;
    const result = await client.callTool({ name: 'claim_card', arguments: { id: card.id } });
    assert.notEqual(result.isError, true, textOf(result as never));
    assert.equal((await server.api('GET', `/api/tasks/${card.id}`)).body?.data.claim.agent, 'factory-bot');
  });
});
