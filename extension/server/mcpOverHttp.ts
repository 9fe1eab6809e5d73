import type * as vscode from 'vscode';
import type { TokenStore } from '../auth/tokenStore';
import type { FolderRef } from '../service/folderServices';
import type { ApiServer, ServerState } from './apiServer';

/** Where an agent reaches a folder's board over MCP on HTTP, and with which headers. */
export interface McpHttpEndpoint {
  url: string;
  headers?: Record<string, string>;
}

/** The API server's /mcp as the MCP registration sees it: per folder, and when that changes. */
export interface McpOverHttp {
  /** The /mcp of the API server when it serves this folder, else undefined (stdio then). */
  endpointFor(folder: FolderRef): Promise<McpHttpEndpoint | undefined>;
  /** The server started, stopped or moved, or the token of the folder it serves changed. */
  onDidChange(listener: () => void): vscode.Disposable;
}

/** A server bound to every address is reached on loopback: the editor runs on this machine. */
function reachable(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = '127.0.0.1';
  return parsed.origin;
}

/**
 * The extension's API server and its folder tokens, for the MCP registration. The folder's token
 * goes along as a Bearer header, so with auth on the agent has the same role as the person's board.
 */
export function mcpOverHttp(server: ApiServer, tokens: TokenStore): McpOverHttp {
  const runningFor = (folder: FolderRef): (ServerState & { kind: 'running' }) | undefined => {
    const state = server.state;
    return state.kind === 'running' && state.folder.key === folder.key ? state : undefined;
  };
  return {
    async endpointFor(folder) {
      const running = runningFor(folder);
      if (!running) return undefined;
      const token = await tokens.get(folder).catch(() => undefined);
      return {
        url: `${reachable(running.url)}/mcp`,
        ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
      };
    },
    onDidChange(listener) {
      // `starting` is no change an agent can use: it hears of the server when it runs or stops.
      const stopFollowingServer = server.onDidChange((state) => state.kind !== 'starting' && listener());
      const tokenWatch = tokens.onDidChange((folderKey) => {
        const state = server.state;
        if (state.kind === 'running' && state.folder.key === folderKey) listener();
      });
      return {
        dispose() {
          stopFollowingServer();
          tokenWatch.dispose();
        },
      };
    },
  };
}
