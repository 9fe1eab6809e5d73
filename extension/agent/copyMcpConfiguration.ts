import * as vscode from 'vscode';
import { guarded } from '../commands/pickService';
import type { ExtensionParts } from '../parts';
import type { McpOverHttp } from '../server/mcpOverHttp';
import type { FolderRef } from '../service/folderServices';

export const COPY_MCP_CONFIGURATION_COMMAND = 'kanban.copyMcpConfiguration';

/** Stands for the folder's API token: a secret never goes to the clipboard. */
const TOKEN_PLACEHOLDER = 'Bearer <your Kanban API token>';

/**
 * The `mcpServers` entries most MCP clients read (Claude, Cursor, Windsurf; VS Code's mcp.json
 * takes the same under `servers`): the `kanban` command on stdio, and while the API server runs
 * for the folder, its /mcp over HTTP.
 */
export async function mcpConfiguration(
  folder: FolderRef,
  root: string,
  overHttp: McpOverHttp,
): Promise<Record<string, unknown>> {
  const servers: Record<string, unknown> = {
    kanban: { type: 'stdio', command: 'kanban', args: ['mcp', '--dir', root] },
  };
  const endpoint = await overHttp.endpointFor(folder);
  if (endpoint)
    servers['kanban-http'] = {
      type: 'http',
      url: endpoint.url,
      ...(endpoint.headers?.Authorization ? { headers: { Authorization: TOKEN_PLACEHOLDER } } : {}),
    };
  return { mcpServers: servers };
}

export function registerCopyMcpConfiguration(parts: ExtensionParts, overHttp: McpOverHttp): vscode.Disposable {
  return vscode.commands.registerCommand(
    COPY_MCP_CONFIGURATION_COMMAND,
    guarded('Copy MCP Configuration', async () => {
      const folder = await parts.folders.choose(
        'Copy the MCP configuration of which folder?',
        parts.panels.activeFolder(),
      );
      if (!folder) return;
      const config = await mcpConfiguration(folder, parts.folders.rootOf(folder), overHttp);
      await vscode.env.clipboard.writeText(`${JSON.stringify(config, null, 2)}\n`);
      const http = 'kanban-http' in (config.mcpServers as object) ? " and the running API server's /mcp" : '';
      void vscode.window.showInformationMessage(
        `Kanban: MCP configuration for ${folder.name} copied: the kanban command on stdio${http}. Paste it into your client's MCP settings.`,
      );
    }),
  );
}
