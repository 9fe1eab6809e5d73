import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  SERVER_INFO_META_KEY,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type Client,
} from '@modelcontextprotocol/client';
import { rawRequest } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { newClient, textOf, type McpRevision } from './helpers';

/** An SDK client over Streamable HTTP at the server's /mcp (with a query and headers when given). */
async function connectHttp(
  server: TestServer,
  options: { revision?: McpRevision; query?: string; token?: string; name?: string } = {},
): Promise<Client> {
  const client = newClient({ revision: options.revision, name: options.name });
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp${options.query ?? ''}`), { requestInit: { headers } }),
  );
  return client;
}

async function callJson(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(result.isError, true, `${name}: ${textOf(result)}`);
  return JSON.parse(textOf(result));
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const DISCOVER_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const DISCOVER = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: DISCOVER_META } };
const DISCOVER_HEADERS = { 'mcp-method': 'server/discover', 'mcp-protocol-version': '2026-07-28' };

/** One JSON-RPC message POSTed as a client would; the answer's message whether it came as JSON or as one SSE event. */
async function post(
  server: TestServer,
  message: unknown,
  headers: Record<string, string> = {},
  query = '',
): Promise<{ status: number; text: string; message: any }> {
  const response = await fetch(`${server.url}/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  let parsed: any;
  try {
    parsed = JSON.parse(data);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, message: parsed };
}

describe('MCP over Streamable HTTP at /mcp (kanban serve)', function () {
  this.timeout(60_000);

  describe('without auth', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
      assert.equal((await server.api('POST', '/api/tasks', { content: '# Served over HTTP\n' })).status, 201);
    });
    after(async () => server?.close());

    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      it(`when an SDK client pinned to ${revision} connects over HTTP, then it serves that revision, lists the cards tools and calls them`, async () => {
        const client = await connectHttp(server, { revision });
        try {
          assert.equal(client.getNegotiatedProtocolVersion(), revision);
          assert.equal(client.getServerVersion()?.name, 'kanban');
          const names = (await client.listTools()).tools.map((t) => t.name);
          assert.ok(names.includes('list_cards') && names.includes('move_card'), names.join(', '));
          const listed = await callJson(client, 'list_cards');
          assert.deepEqual(
            listed.cards.map((c: { title: string }) => c.title),
            ['Served over HTTP'],
          );
        } finally {
          await client.close();
        }
      });
    }

    it('when a 2026-07-28 client listens to a card over HTTP, then a REST write and a hand edit of its file are announced', async () => {
      const card = (await server.api('POST', '/api/tasks', { content: '# Followed over HTTP\n' })).body?.data as {
        id: string;
        filePath: string;
      };
      const uri = `kanban://cards/${card.id}`;
      const client = await connectHttp(server, { revision: '2026-07-28' });
      const heard: { uri: string; at: number }[] = [];
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void heard.push({ uri: n.params.uri, at: Date.now() }),
      );
      const listening = await client.listen({ resourceSubscriptions: [uri] });
      try {
        assert.equal(client.getServerCapabilities()?.resources?.subscribe, true);
        const heardAfter = async (change: () => Promise<unknown>, what: string) => {
          const from = heard.length;
          const at = Date.now();
          await change();
          await waitUntil(() => heard.slice(from).some((h) => h.uri === uri), 5000, `the update after ${what}`);
          return heard.slice(from).find((h) => h.uri === uri)!.at - at;
        };
        const afterRest = await heardAfter(
          () => server.api('PUT', `/api/tasks/${card.id}`, { priority: 'high' }),
          'a REST write',
        );
        const file = path.join(server.root, card.filePath);
        const afterEdit = await heardAfter(
          async () =>
            fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('# Followed over HTTP', '# Followed, edited')),
          'a hand edit',
        );
        const read = await client.readResource({ uri });
        assert.match(
          JSON.stringify(read.contents),
          /Followed, edited/,
          `announced ${afterRest} ms after the REST write, ${afterEdit} ms after the edit`,
        );
      } finally {
        await listening.close();
        await client.close();
      }
    });

    it('when initialize is POSTed by hand, then the answer names the server and the revision', async () => {
      const { status, message } = await post(server, INITIALIZE);
      assert.equal(status, 200);
      assert.equal(message.result.protocolVersion, '2025-11-25');
      assert.equal(message.result.serverInfo.name, 'kanban');
    });

    it('when server/discover is POSTed by hand, then the answer lists 2026-07-28 and names the server', async () => {
      const { status, text, message } = await post(server, DISCOVER, DISCOVER_HEADERS);
      assert.equal(status, 200, text);
      assert.ok(message.result.supportedVersions.includes('2026-07-28'), text);
      assert.equal(message.result._meta[SERVER_INFO_META_KEY].name, 'kanban');
    });

    it('when ?toolsets=all is asked for, then more tools are listed than by default', async () => {
      const plain = await connectHttp(server);
      const all = await connectHttp(server, { query: '?toolsets=all' });
      try {
        const byDefault = (await plain.listTools()).tools.length;
        const everything = (await all.listTools()).tools.map((t) => t.name);
        assert.ok(everything.length > byDefault, `${everything.length} tools with all, ${byDefault} by default`);
        assert.ok(everything.includes('list_boards'), 'a tool of the boards toolset');
      } finally {
        await plain.close();
        await all.close();
      }
    });

    it("when a tool names a workspace, then the server's own folder (or one inside it) is served and any other is refused", async () => {
      const client = await connectHttp(server);
      try {
        const inside = path.join(server.root, 'src');
        await fs.mkdir(inside, { recursive: true });
        for (const workspace of [server.root, inside]) {
          const listed = await callJson(client, 'list_cards', { workspace });
          assert.ok(
            listed.cards.some((c: { title: string }) => c.title === 'Served over HTTP'),
            `${workspace}: ${JSON.stringify(listed)}`,
          );
        }
        const outside = await fs.mkdtemp(path.join(path.dirname(server.root), 'other-repo-'));
        const refused = (await client.callTool({
          name: 'create_card',
          arguments: { title: 'Elsewhere', workspace: outside },
        })) as CallToolResult;
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /is not this server's: it serves /);
        await assert.rejects(fs.access(path.join(outside, '.kanban')), 'nothing is written in the other folder');
      } finally {
        await client.close();
      }
    });

    it('when ?readOnly=true is asked for, then only tools that change nothing are listed', async () => {
      const client = await connectHttp(server, { query: '?toolsets=all&readOnly=true' });
      try {
        const tools = (await client.listTools()).tools;
        assert.ok(tools.length > 0);
        assert.deepEqual(
          tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name),
          [],
        );
      } finally {
        await client.close();
      }
    });

    it('when an unknown toolset is asked for, then the answer is 400 naming the toolsets', async () => {
      const { status, message } = await post(server, INITIALIZE, {}, '?toolsets=nope');
      assert.equal(status, 400);
      assert.equal(message.ok, false);
      assert.match(message.error, /unknown toolset "nope"; the toolsets are cards, .* and all/);
    });

    it('when a page of a foreign origin POSTs, then it is refused with 403', async () => {
      const { status, message } = await post(server, INITIALIZE, { origin: 'https://evil.example' });
      assert.equal(status, 403);
      assert.match(message.error, /origin "https:\/\/evil.example" may not change the board/);
    });

    it('when the Host names a foreign domain (DNS rebinding), then it is refused with 403', async () => {
      const answer = await rawRequest(server, 'POST', '/mcp', {
        headers: {
          host: 'evil.example',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(INITIALIZE),
      });
      assert.equal(answer.status, 403);
      assert.match(answer.body.error, /requests for host "evil.example" are refused/);
    });

    it('when the body is over the /api limit, then the answer is 413', async () => {
      const padding = 'x'.repeat(1024 * 1024 + 1);
      const { status, message } = await post(server, { ...INITIALIZE, params: { ...INITIALIZE.params, padding } });
      assert.equal(status, 413);
      assert.match(message.error, /request body is too large/);
    });

    it('when the query strings of the HTTP section of docs/mcp.md are used, then each is served', async () => {
      const doc = await fs.readFile(path.join(__dirname, '..', '..', 'docs', 'mcp.md'), 'utf8');
      const page = doc.slice(
        doc.indexOf('## MCP over HTTP'),
        doc.indexOf('\n## ', doc.indexOf('## MCP over HTTP') + 3),
      );
      const queries = [...page.matchAll(/`\?((?:toolsets|tools|readOnly)=[^`]*)`|\/mcp\?([^`\s)]+)/g)].map(
        (m) => `?${m[1] ?? m[2]}`,
      );
      assert.ok(queries.length >= 4, queries.join(' '));
      for (const query of queries) {
        const { status, text } = await post(server, INITIALIZE, {}, query);
        assert.equal(status, 200, `${query}: ${text}`);
      }
    });

    it('when the body is not JSON, then the answer is 415', async () => {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(INITIALIZE),
      });
      assert.equal(response.status, 415, await response.text());
    });

    it('when the OpenAPI document is read, then /mcp is none of its paths', async () => {
      const document = (await (await fetch(`${server.url}/api/docs/json`)).json()) as {
        paths: Record<string, unknown>;
      };
      const paths = Object.keys(document.paths);
      assert.ok(paths.includes('/api/tasks') || paths.includes('/tasks'), paths.slice(0, 5).join(', '));
      assert.deepEqual(
        paths.filter((p) => p.includes('mcp')),
        [],
      );
    });
  });

  describe('with auth on', () => {
    const token = (who: string) => `tok-${who}-${randomBytes(12).toString('hex')}`;
    const tokens = { viewer: token('viewer'), editor: token('editor') };
    let server: TestServer;
    before(async () => {
      const identities = [
        { token: tokens.viewer, subject: 'vera', role: 'viewer' },
        { token: tokens.editor, subject: 'eddie', role: 'editor' },
      ];
      server = await startTestServer({
        config: { version: 2, plugins: { 'auth.identity': { provider: 'token', options: { tokens: identities } } } },
      });
    });
    after(async () => server?.close());

    it('when no token or an unknown one is sent, then the answer is 401', async () => {
      const none = await post(server, INITIALIZE);
      assert.equal(none.status, 401);
      assert.match(none.message.error, /authentication required/);
      const unknown = await post(server, INITIALIZE, { authorization: 'Bearer not-a-token' });
      assert.equal(unknown.status, 401);
      assert.match(unknown.message.error, /not recognised/);
    });

    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      it(`when a viewer connects (${revision}), then only read-only tools are listed and a write tool is refused`, async () => {
        const client = await connectHttp(server, { revision, token: tokens.viewer, query: '?toolsets=all' });
        try {
          const tools = (await client.listTools()).tools;
          assert.ok(tools.some((t) => t.name === 'list_cards'));
          assert.deepEqual(
            tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name),
            [],
          );
          await assert.rejects(
            client.callTool({ name: 'create_card', arguments: { title: 'Not allowed' } }),
            /changes the board and this server is read-only/,
          );
        } finally {
          await client.close();
        }
      });
    }

    it('when an editor picks a card in one request and moves it in the next, then both go through as one agent', async () => {
      const created = await server.api(
        'POST',
        '/api/tasks',
        { content: '# Pick me\n', status: 'todo' },
        { authorization: `Bearer ${tokens.editor}` },
      );
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const client = await connectHttp(server, { revision: '2026-07-28', token: tokens.editor, name: 'http-agent' });
      try {
        const { picked } = await callJson(client, 'pick_card', { moveTo: 'in-progress' });
        assert.equal(picked.id, created.body?.data.id);
        assert.match(picked.claim.agent, /^http-agent-[0-9a-z]{4}$/);
        const moved = await callJson(client, 'move_card', { id: picked.id, status: 'review' });
        assert.equal(moved.status, 'review');
        const card = await server.api('GET', `/api/tasks/${picked.id}`, undefined, {
          authorization: `Bearer ${tokens.editor}`,
        });
        assert.equal(card.body?.data.status, 'review');
      } finally {
        await client.close();
      }
    });

    it('when X-Kanban-Agent is sent, then the calls act as that agent', async () => {
      const created = await server.api(
        'POST',
        '/api/tasks',
        { content: '# Named agent\n', status: 'todo' },
        { authorization: `Bearer ${tokens.editor}` },
      );
      const { status, text, message } = await post(
        server,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'claim_card', arguments: { id: created.body?.data.id }, _meta: DISCOVER_META },
        },
        {
          ...DISCOVER_HEADERS,
          'mcp-method': 'tools/call',
          'mcp-name': 'claim_card',
          authorization: `Bearer ${tokens.editor}`,
          'x-kanban-agent': 'named-bot',
        },
      );
      assert.equal(status, 200, text);
      assert.equal(message.result.isError, undefined, text);
      assert.equal(message.result.structuredContent.claim.agent, 'named-bot');
    });
  });
});
