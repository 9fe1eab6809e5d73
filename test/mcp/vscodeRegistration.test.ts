import { FakeHttpDefinition, FakeStdioDefinition, registeredMcpProviders as registered } from './fakeEditorMcpApi';
import {
  activateWith,
  deactivate,
  double,
  folderWithCards,
  repoRoot,
  runCommand,
  tempFolder,
} from '../extension/helpers/harness';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MCP_PROVIDER_ID } from '../../extension/mcpRegistration';
import packageJson from '../../package.json';
import { textOf } from './helpers';

describe('VS Code agent mode gets the MCP server', function () {
  this.timeout(30_000);
  after(() => deactivate());

  it('when the editor has the MCP API, then the extension offers a server per board folder that an MCP client can use', async () => {
    const withBoard = await folderWithCards(['Asked from agent mode']);
    const plain = await tempFolder();
    activateWith([plain, withBoard]);
    const contributed =
      (packageJson.contributes as { mcpServerDefinitionProviders?: { id: string }[] }).mcpServerDefinitionProviders ??
      [];
    assert.deepEqual(
      contributed.map((p) => p.id),
      [MCP_PROVIDER_ID],
      'package.json declares the provider',
    );
    const provider = registered.get(MCP_PROVIDER_ID);
    assert.ok(provider, 'the provider is registered under the contributed id');
    const definitions = await provider.provideMcpServerDefinitions();
    assert.equal(definitions.length, 1, 'only the folder with a board');
    const [definition] = definitions;
    assert.ok(definition instanceof FakeStdioDefinition, 'stdio while no API server runs');
    assert.equal(definition.command, process.execPath);
    assert.deepEqual(definition.args, [path.join(repoRoot, 'dist', 'cli.js'), 'mcp', '--dir', withBoard]);
    assert.equal(definition.env.ELECTRON_RUN_AS_NODE, '1');

    // Start it exactly as the editor would, and ask it for the board's cards.
    const client = new Client({ name: 'vscode-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: definition.command,
        args: definition.args,
        env: { ...(process.env as Record<string, string>), ...(definition.env as Record<string, string>) },
        stderr: 'pipe',
      }),
    );
    try {
      const result = await client.callTool({ name: 'list_cards', arguments: {} });
      assert.deepEqual(
        JSON.parse(textOf(result as never)).cards.map((c: { title: string }) => c.title),
        ['Asked from agent mode'],
      );
    } finally {
      await client.close();
    }
  });

  it('when the workspace folders change, then the editor is told to ask again; deactivation unregisters the provider', async () => {
    activateWith([await tempFolder()]);
    const provider = registered.get(MCP_PROVIDER_ID)!;
    let asked = 0;
    provider.onDidChangeMcpServerDefinitions?.(() => asked++);
    double.foldersChanged.fire({ added: [], removed: [] });
    assert.equal(asked, 1);
    assert.equal(
      (await provider.provideMcpServerDefinitions()).length,
      1,
      'a folder without a board still gets one, so an agent can start it',
    );
    await deactivate();
    assert.equal(registered.has(MCP_PROVIDER_ID), false);
  });

  it("when the API server runs, then the HTTP endpoint is registered (with the folder's token), and stdio again once it stops", async () => {
    const folder = await folderWithCards(['Asked over HTTP']);
    const parts = activateWith([folder], { 'kanban.server.port': 0 });
    const provider = registered.get(MCP_PROVIDER_ID)!;
    let asked = 0;
    provider.onDidChangeMcpServerDefinitions?.(() => asked++);
    await parts.access.tokens.set(parts.folders.all()[0], 'tok-for-agents');
    await runCommand('kanban.startApiServer');
    assert.ok(asked >= 1, 'the editor is told to ask again when the server starts');
    const state = parts.control.state;
    assert.equal(state.kind, 'running');
    const [definition] = await provider.provideMcpServerDefinitions();
    assert.ok(definition instanceof FakeHttpDefinition, 'the HTTP definition while the server runs');
    assert.equal(definition.uri.toString(), `${state.kind === 'running' ? state.url : ''}/mcp`);
    assert.deepEqual(definition.headers, { Authorization: 'Bearer tok-for-agents' });

    // Reach it exactly as the editor would, and ask it for the board's cards.
    const client = new Client({ name: 'vscode-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(definition.uri.toString()), {
        requestInit: { headers: definition.headers },
      }),
    );
    try {
      const result = await client.callTool({ name: 'list_cards', arguments: {} });
      assert.deepEqual(
        JSON.parse(textOf(result as never)).cards.map((c: { title: string }) => c.title),
        ['Asked over HTTP'],
      );
    } finally {
      await client.close();
    }

    const before = asked;
    await runCommand('kanban.stopApiServer');
    assert.ok(asked > before, 'the editor is told to ask again when the server stops');
    const [stopped] = await provider.provideMcpServerDefinitions();
    assert.ok(stopped instanceof FakeStdioDefinition, 'stdio again');
    await deactivate();
  });
});
