import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { startMcp, textOf, type McpRevision, type McpSession, ALL_TOOLSETS } from './helpers';

/** Both protocol revisions over stdio, with the real `kanban mcp` binary and the SDK's own client. */
describe('MCP protocol revisions (kanban mcp on stdio)', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => (server = await startTestServer()));
  after(async () => server?.close());

  const cases: { revision: McpRevision; era: string; opens: string }[] = [
    { revision: '2026-07-28', era: 'modern', opens: 'server/discover' },
    { revision: '2025-11-25', era: 'legacy', opens: 'initialize' },
  ];
  for (const { revision, era, opens } of cases) {
    describe(`${revision} (${opens})`, () => {
      let mcp: McpSession;
      before(
        async () =>
          (mcp = await startMcp(['--url', server.url, ...ALL_TOOLSETS], {}, { revision, name: `agent-${era}` })),
      );
      after(async () => mcp?.close());

      it(`when a client pinned to ${revision} connects, then the server answers ${opens} and serves that revision`, () => {
        assert.equal(mcp.client.getNegotiatedProtocolVersion(), revision);
        assert.equal(mcp.client.getProtocolEra(), era);
        assert.equal(mcp.client.getServerVersion()?.name, 'kanban');
        assert.match(mcp.client.getInstructions() ?? '', /kanban:\/\/instructions/);
      });

      it('when it lists the tools twice, then both lists are the same, in the same order', async () => {
        const first = (await mcp.client.listTools()).tools.map((t) => t.name);
        const again = (await mcp.client.listTools(undefined, { cacheMode: 'refresh' })).tools.map((t) => t.name);
        assert.ok(first.length > 50, `${first.length} tools`);
        assert.deepEqual(again, first);
      });

      it("when it comments without an author, then the author is the client's name from this revision's handshake", async () => {
        const card = (await server.api('POST', '/api/tasks', { content: `# Said on ${revision}\n` })).body?.data;
        const result = await mcp.callRaw('add_comment', { id: card.id, content: 'On it.' });
        assert.notEqual(result.isError, true, textOf(result));
        assert.equal((result.structuredContent as { author: string }).author, `agent-${era}`);
      });
    });
  }

  it('when a 2026-07-28 client lists tools, prompts and templates, then those fixed lists carry a cache hint, the resource list none; a 2025-11-25 one gets none', async () => {
    const modern = await startMcp(['--url', server.url], {}, { revision: '2026-07-28' });
    const legacy = await startMcp(['--url', server.url], {}, { revision: '2025-11-25' });
    try {
      const hinted = (await modern.client.listTools()) as { ttlMs?: number; cacheScope?: string };
      assert.equal(hinted.ttlMs, 600_000);
      assert.equal(hinted.cacheScope, 'private');
      assert.equal(((await modern.client.listPrompts()) as { ttlMs?: number }).ttlMs, 600_000);
      assert.equal(((await modern.client.listResourceTemplates()) as { ttlMs?: number }).ttlMs, 600_000);
      // Boards come and go: the resource list is asked for again each time.
      assert.equal(((await modern.client.listResources()) as { ttlMs?: number }).ttlMs, 0);
      const plain = (await legacy.client.listTools()) as { ttlMs?: number };
      assert.equal(plain.ttlMs, undefined);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('when a 2026-07-28 client starts kanban mcp --dir (a discover probe, then the real process), then both open the folder and it works', async () => {
    const mcp = await startMcp(['--dir', server.root], {}, { revision: '2026-07-28' });
    try {
      assert.equal(mcp.client.getNegotiatedProtocolVersion(), '2026-07-28');
      const created = await mcp.callRaw('create_card', { title: 'Made in the folder' });
      assert.notEqual(created.isError, true, textOf(created));
      const id = (created.structuredContent as { id: string }).id;
      // The server on the same folder sees the file once its watcher does.
      await eventually(async () =>
        assert.equal((await server.api('GET', `/api/tasks/${id}`)).body?.data.title, 'Made in the folder'),
      );
    } finally {
      await mcp.close();
    }
  });
});
