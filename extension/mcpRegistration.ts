import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Folders } from './ui/folders';
import type { FolderRef } from './service/folderServices';
import type { McpOverHttp } from './server/mcpOverHttp';
import { log } from '../server/core/log';

/**
 * The MCP server definition API (VS Code 1.101+), typed here because this extension builds against
 * the 1.95 types and must still run in editors that do not have it.
 */
interface McpStdioServerDefinitionCtor {
  new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string | number | null>,
    version?: string,
  ): object;
}
interface McpHttpServerDefinitionCtor {
  new (label: string, uri: vscode.Uri, headers?: Record<string, string>, version?: string): object;
}
interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<object[]>;
}
interface McpApi {
  lm?: { registerMcpServerDefinitionProvider?(id: string, provider: McpServerDefinitionProvider): vscode.Disposable };
  McpStdioServerDefinition?: McpStdioServerDefinitionCtor;
  McpHttpServerDefinition?: McpHttpServerDefinitionCtor;
}

/** The id in package.json `contributes.mcpServerDefinitionProviders`. */
export const MCP_PROVIDER_ID = 'kanban.mcpServer';

/**
 * Offers the board's MCP server to the editor's agent mode, one per folder with a board (else the
 * first folder), so it works with no set-up. No toolset flags: agent mode gets the default `cards`
 * toolset, the everyday tools, since every listed tool costs tokens in every chat; a person who
 * wants more adds the server in `.vscode/mcp.json` with `--toolsets`. The server runs in a
 * child process on the editor's own Node (ELECTRON_RUN_AS_NODE): `kanban mcp` from the bundled dist/cli.js.
 * While the API server runs for a folder, that folder's server is its /mcp instead (with the
 * folder's token): the agent then works in the process that already holds the board, rather than
 * a second one opening the same files. In an editor without the API this does nothing.
 */
export function registerMcpServer(
  context: vscode.ExtensionContext,
  folders: Folders,
  overHttp?: McpOverHttp,
): vscode.Disposable {
  // The module itself, read now: a namespace import is a copy made at load time, and these names
  // exist only in newer editors (and in the tests' editor double, once they add them).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const api = require('vscode') as McpApi;
  const Definition = api.McpStdioServerDefinition;
  const register = api.lm?.registerMcpServerDefinitionProvider;
  if (typeof register !== 'function' || typeof Definition !== 'function') {
    // Said once, so a person missing the server in agent mode learns why and what to do instead.
    log.warn(
      'kanban: this editor cannot register MCP servers (VS Code 1.101+): agent mode has the Kanban tools without MCP; for other clients run "Kanban: Copy MCP Configuration"',
    );
    return { dispose() {} };
  }
  const script = path.join(context.extensionPath, 'dist', 'cli.js');
  const changed = new vscode.EventEmitter<void>();
  const version = (context as { extension?: { packageJSON?: { version?: string } } }).extension?.packageJSON?.version;
  const label = (folder: FolderRef) => `Kanban (${folder.name})`;
  const stdioDefinition = (folder: FolderRef) =>
    new Definition(
      label(folder),
      process.execPath,
      [script, 'mcp', '--dir', folders.rootOf(folder)],
      { ELECTRON_RUN_AS_NODE: '1' },
      version,
    );
  const HttpDefinition = api.McpHttpServerDefinition;
  const httpDefinition = async (folder: FolderRef) => {
    const endpoint = HttpDefinition && (await overHttp?.endpointFor(folder));
    return endpoint
      ? new HttpDefinition(label(folder), vscode.Uri.parse(endpoint.url), endpoint.headers, version)
      : undefined;
  };
  const provider: McpServerDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    async provideMcpServerDefinitions() {
      const withBoard = folders.all().filter((folder) => folders.hasKanban(folder));
      const served = withBoard.length ? withBoard : folders.all().slice(0, 1);
      return Promise.all(served.map(async (folder) => (await httpDefinition(folder)) ?? stdioDefinition(folder)));
    },
  };
  let registration: vscode.Disposable;
  try {
    registration = register.call(api.lm, MCP_PROVIDER_ID, provider);
  } catch (error) {
    // Editors that have the API but a different contribution point (1.100 expects
    // contributes.modelContextServerCollections) refuse the provider: the board must still activate.
    changed.dispose();
    log.warn(
      `kanban: agent mode cannot use the board's MCP server in this editor (${(error as Error).message}); run "kanban mcp" from a terminal instead`,
    );
    return { dispose() {} };
  }
  const disposables = [
    changed,
    registration,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    ...(overHttp ? [overHttp.onDidChange(() => changed.fire())] : []),
    vscode.workspace.onDidChangeConfiguration((change) => {
      if (change.affectsConfiguration('kanban.location')) changed.fire();
    }),
  ];
  return { dispose: () => disposables.forEach((d) => d.dispose()) };
}
