import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ApiClient } from '../../server/client/apiClient';
import { WorkspacePool } from '../../server/mcp/workspacePool';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';
import { ALL_TOOLSETS, runMcpToExit, startMcp, textOf, type McpSession } from './helpers';

/** The card files under a workspace's `.kanban/` whose text holds `title`. */
async function cardFilesWith(root: string, title: string): Promise<string[]> {
  const kanban = path.join(root, '.kanban');
  const files = (await listFiles(kanban)).filter((f) => f.endsWith('.md'));
  const texts = await Promise.all(files.map((f) => fs.readFile(path.join(kanban, f), 'utf8')));
  return files.filter((_f, i) => texts[i].includes(title));
}

async function makeWorkspace(root: string): Promise<string> {
  await fs.mkdir(root, { recursive: true });
  await fs.writeFile(path.join(root, '.kanban.json'), '{}\n');
  return root;
}

const NOT_ALLOWED = /is not an allowed folder.*allow it with kanban mcp --allow-dir/;

describe('MCP workspace argument: one registration serves several repositories', function () {
  this.timeout(60_000);
  let parent: string;
  let outside: string;
  let a: string;
  let b: string;

  before(async () => {
    parent = await fs.realpath(await makeTempDir('kanban-repos-'));
    outside = await fs.realpath(await makeTempDir('kanban-elsewhere-'));
    a = await makeWorkspace(path.join(parent, 'a'));
    b = await makeWorkspace(path.join(parent, 'b'));
    await fs.mkdir(path.join(b, 'src', 'deep'), { recursive: true });
    await fs.mkdir(path.join(a, 'docs'));
    await makeWorkspace(outside);
    await fs.symlink(outside, path.join(parent, 'escape'));
  });
  after(async () => {
    await fs.rm(parent, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  describe('kanban mcp --dir A --allow-dir <parent of A and B>', () => {
    let mcp: McpSession;
    before(async () => (mcp = await startMcp(['--dir', a, '--allow-dir', parent, ...ALL_TOOLSETS])));
    after(async () => mcp?.close());

    it("when an agent creates a card with workspace B, then it is written under B's .kanban and not A's", async () => {
      const created = await mcp.call('create_card', { title: 'Ship the B release', workspace: b });
      assert.equal((await cardFilesWith(b, 'Ship the B release')).length, 1, 'one card file in B');
      assert.deepEqual(await cardFilesWith(a, 'Ship the B release'), []);
      assert.ok(created.id);
    });

    it("when an agent lists cards with workspace B, absolute, relative to A or a folder inside B, then B's card is there and not in A's list", async () => {
      const { id } = await mcp.call('create_card', { title: 'Only in B', workspace: b });
      for (const workspace of [b, '../b', path.join(b, 'src', 'deep')]) {
        const page = await mcp.call('list_cards', { q: 'Only in B', workspace });
        assert.deepEqual(
          page.cards.map((c: { id: string }) => c.id),
          [id],
          `workspace ${workspace}`,
        );
      }
      assert.deepEqual((await mcp.call('list_cards', { q: 'Only in B' })).cards, []);
    });

    it("when workspace names A itself, then A's board answers", async () => {
      const { id } = await mcp.call('create_card', { title: 'Only in A' });
      for (const workspace of [a, '.'])
        assert.deepEqual(
          (await mcp.call('list_cards', { q: 'Only in A', workspace })).cards.map((c: { id: string }) => c.id),
          [id],
        );
    });

    it('when a tool that passes its arguments on runs with workspace, then the API never sees the argument', async () => {
      // pick_card and report_progress send their other arguments as the body, which refuses unknown fields.
      const { id } = await mcp.call('create_card', { title: 'Pick me in B', status: 'todo', workspace: b });
      const picked = await mcp.call('pick_card', { status: 'todo', workspace: b, agent: 'ws-agent' });
      assert.equal(picked.picked?.id, id);
      const reported = await mcp.call('report_progress', {
        id,
        state: 'active',
        note: 'on it',
        workspace: b,
        agent: 'ws-agent',
      });
      assert.equal(reported.session?.state, 'active');
    });

    it('when workspace is outside the allowed folder, a ../ escape or a symlink out of it, then the call is refused naming --allow-dir and nothing is written', async () => {
      for (const workspace of [
        outside,
        `../../${path.basename(outside)}`,
        path.join(parent, 'escape'),
        path.join(parent, '..'),
      ]) {
        const result = await mcp.callRaw('create_card', { title: 'Must not land', workspace });
        assert.equal(result.isError, true, `workspace ${workspace} is refused`);
        assert.match(textOf(result), NOT_ALLOWED, `workspace ${workspace}`);
      }
      assert.deepEqual(await cardFilesWith(outside, 'Must not land'), []);
    });

    it('when workspace names no folder or is not a string, then the call says so', async () => {
      const missing = await mcp.callRaw('list_cards', { workspace: path.join(parent, 'gone') });
      assert.equal(missing.isError, true);
      assert.match(textOf(missing), /there is no folder/);
      const notText = await mcp.callRaw('list_cards', { workspace: 7 });
      assert.equal(notText.isError, true);
      assert.match(textOf(notText), /workspace/);
    });

    it("when an agent lists the tools, then every tool's input schema has an optional string workspace", async () => {
      const { tools } = await mcp.client.listTools();
      assert.ok(tools.length > 17, 'every toolset is listed');
      for (const tool of tools) {
        assert.deepEqual(tool.inputSchema.properties?.workspace, { type: 'string' }, tool.name);
        assert.ok(!tool.inputSchema.required?.includes('workspace'), tool.name);
      }
    });
  });

  describe('kanban mcp --dir A without --allow-dir', () => {
    let mcp: McpSession;
    before(async () => (mcp = await startMcp(['--dir', a])));
    after(async () => mcp?.close());

    it('when workspace names another folder, even one inside A, then it is refused naming --allow-dir; A itself answers', async () => {
      for (const workspace of [b, path.join(a, 'docs')]) {
        const result = await mcp.callRaw('list_cards', { workspace });
        assert.equal(result.isError, true, `workspace ${workspace} is refused`);
        assert.match(textOf(result), NOT_ALLOWED);
      }
      assert.ok(Array.isArray((await mcp.call('list_cards', { workspace: a })).cards));
    });
  });

  describe('kanban mcp --url', () => {
    let server: TestServer;
    let mcp: McpSession;
    before(async () => {
      server = await startTestServer();
      mcp = await startMcp(['--url', server.url]);
    });
    after(async () => {
      await mcp?.close();
      await server?.close();
    });

    it('when a tool names a workspace, then it is refused: a server serves one workspace', async () => {
      const result = await mcp.callRaw('list_cards', { workspace: server.root });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /not available with kanban mcp --url: a server serves one workspace/);
    });
  });

  describe('kanban mcp --allow-dir usage', () => {
    it('when --allow-dir is a comma list or given twice, then each folder in it is allowed', async () => {
      for (const flags of [
        ['--allow-dir', `${outside},${parent}`],
        ['--allow-dir', outside, '--allow-dir', parent],
      ]) {
        const mcp = await startMcp(['--dir', a, ...flags]);
        try {
          for (const workspace of [b, outside])
            assert.ok(
              Array.isArray((await mcp.call('list_cards', { workspace })).cards),
              `${flags.join(' ')}: ${workspace}`,
            );
        } finally {
          await mcp.close();
        }
      }
    });

    it('when --allow-dir names no folder, alone, in a comma list or repeated, or comes with --url, then it is a usage error', async () => {
      const gone = path.join(parent, 'gone');
      for (const flags of [
        ['--allow-dir', gone],
        ['--allow-dir', `${outside},${gone}`],
        ['--allow-dir', outside, `--allow-dir=${gone}`],
      ]) {
        const missing = await runMcpToExit(['--dir', a, ...flags]);
        assert.equal(missing.code, 2, flags.join(' '));
        assert.match(missing.stderr, /--allow-dir \S*gone: there is no folder/, flags.join(' '));
      }
      const withUrl = await runMcpToExit(['--url', 'http://127.0.0.1:9', '--allow-dir', parent]);
      assert.equal(withUrl.code, 2);
      assert.match(withUrl.stderr, /--allow-dir needs the workspace in this process/);
    });
  });
});

describe('WorkspacePool: the workspaces opened for the workspace argument', () => {
  /** A client that only records that it was closed. */
  function opener() {
    const opened: string[] = [];
    const closed: string[] = [];
    const open = async (root: string) => {
      opened.push(root);
      return {
        mode: 'local',
        target: root,
        call: () => Promise.reject(new Error('not called')),
        close: async () => void closed.push(root),
      } as unknown as ApiClient;
    };
    return { open, opened, closed };
  }

  it('when a workspace is used again, then it is opened once', async () => {
    const { open, opened } = opener();
    const pool = new WorkspacePool(open, 4, () => undefined);
    await Promise.all([pool.use('/r/x', async () => 1), pool.use('/r/x', async () => 2)]);
    await pool.use('/r/x', async () => 3);
    assert.deepEqual(opened, ['/r/x']);
  });

  it('when more workspaces are used than it keeps, then the least recently used is closed, after the call still on it ends', async () => {
    const { open, opened, closed } = opener();
    const pool = new WorkspacePool(open, 2, () => undefined);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const longCall = pool.use('/r/1', () => held);
    await pool.use('/r/2', async () => undefined);
    await pool.use('/r/3', async () => undefined);
    assert.equal(pool.size, 2);
    assert.deepEqual(closed, [], '/r/1 is still in use');
    release();
    await longCall;
    await waitUntil(() => closed.length === 1, 3000, '/r/1 closed');
    assert.deepEqual(closed, ['/r/1']);
    await pool.use('/r/1', async () => undefined);
    assert.deepEqual(opened, ['/r/1', '/r/2', '/r/3', '/r/1'], 'an evicted workspace is opened again');
    await pool.close();
    await waitUntil(() => closed.length === 4, 3000, 'every workspace closed');
    assert.deepEqual([...closed].sort(), ['/r/1', '/r/1', '/r/2', '/r/3']);
  });
});
