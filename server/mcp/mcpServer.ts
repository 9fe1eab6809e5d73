import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type Implementation,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { allRoutes } from '../api/routes';
import { adjustingCalls, type ApiClient } from '../client/apiClient';
import { randomBase36 } from '../core/ids';
import { version } from '../../package.json';
import { following, runControlOf } from './progress';
import { servePrompts } from './prompts';
import { CONTEXT_URI, INSTRUCTIONS_URI, listResources, readResource, RESOURCE_TEMPLATES } from './resources';
import { attachResourceSubscriptions } from './subscriptions';
import { errorResult, ToolError, type ToolDef } from './tool';
import { buildToolCatalog, type ToolCatalog } from './toolCatalog';
import { DEFAULT_TOOLSETS, isToolset, TOOLSETS } from './toolsets';
import { inWorkspace, WORKSPACE_NOTE, type WorkspaceChooser } from './workspaceArgument';

/** What one MCP server instance serves, and as whom. */
export interface McpServerOptions {
  /** The board: opened in this process, or a server reached over HTTP. */
  client: ApiClient;
  /** Where a tool's unexpected failure goes with its stack (stderr on stdio). */
  log: (line: string) => void;
  /** Only the tools that change nothing (readOnlyHint), e.g. for a token without write access. */
  readOnly?: boolean;
  /** The toolsets offered (toolsets.ts: `cards`, `boards`, `automation`, `admin`, or `all`); `cards` when omitted. */
  toolsets?: readonly string[];
  /** Tools offered beside the toolsets' own, by name. */
  tools?: readonly string[];
  /** The agent every call acts as unless a tool's `agent` argument names another (X-Kanban-Agent). */
  agent?: string;
  /** Where a tool's `workspace` argument may lead (workspaceArgument.ts); when omitted, it is refused. */
  workspaces?: WorkspaceChooser;
  /** The suffix of the agent name drawn from the client's name; drawn per instance when omitted (httpCaller.ts). */
  agentSuffix?: string;
  /**
   * This instance serves a whole 2026-07-28 connection (stdio): it announces every change of a card
   * or board, and the SDK's entry passes on those a `subscriptions/listen` asked for (subscriptions.ts).
   */
  announceEveryChange?: boolean;
}

/** The route table's tools are built once per process: an instance is made per connection or request. */
let catalog: ToolCatalog | undefined;
export const toolCatalog = (): ToolCatalog => (catalog ??= buildToolCatalog(allRoutes));

/**
 * The tool set is fixed for a process, so clients may keep `tools/list` for a while; `private`,
 * because which tools an instance offers depends on its options (read-only, a chosen few).
 */
const CACHE_HINTS = {
  'tools/list': { ttlMs: 600_000, cacheScope: 'private' },
  'prompts/list': { ttlMs: 600_000, cacheScope: 'private' },
  'resources/templates/list': { ttlMs: 600_000, cacheScope: 'private' },
  'server/discover': { ttlMs: 600_000, cacheScope: 'private' },
} as const;

/** What every tool's `id` and `board` take, said once here rather than in each tool's schema. */
const ARGUMENTS_NOTE =
  "In every tool, `id` is a card id or a unique prefix of one, `board` a board id (the default board when omitted), and `agent` your agent name (default: this server's --agent, else your client name and a suffix of this connection, or over HTTP of your token).";

function actingAs(client: ApiClient, agent: string | undefined): ApiClient {
  return agent === undefined ? client : adjustingCalls(client, (call) => ({ ...call, agent: call.agent ?? agent }));
}

/**
 * An MCP client is an agent. Unless `--agent` (or a tool's `agent` argument) names it, it is the
 * client's own name and a suffix drawn once per connection (`claude-code-k3f9`): two sessions of one
 * tool are two agents, and neither may change a card the other holds.
 */
export function connectionAgentName(clientName: string | undefined, suffix: string): string {
  const base = (clientName ?? '')
    .replace(/[^A-Za-z0-9._@:/-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 59);
  return `${base || 'mcp'}-${suffix}`;
}

/** The MCP client's name: in each request's metadata on 2026-07-28, from `initialize` on 2025-11-25. */
function callerNameOf(server: Server, ctx: ServerContext): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, Implementation | undefined> | undefined;
  return envelope?.[CLIENT_INFO_META_KEY]?.name ?? server.getClientVersion()?.name;
}

/**
 * Unknown toolset or tool names, said with the valid ones; undefined when every name is known.
 * A host checks this at start, so a typo is a usage error rather than a tool that never shows.
 */
export function selectionProblem(options: Pick<McpServerOptions, 'toolsets' | 'tools'>): string | undefined {
  const badSets = (options.toolsets ?? []).filter((name) => name !== 'all' && !isToolset(name));
  if (badSets.length)
    return `unknown toolset ${badSets.map((n) => `"${n}"`).join(', ')}; the toolsets are ${TOOLSETS.join(', ')} and all`;
  const badTools = (options.tools ?? []).filter((name) => !toolCatalog().find(name));
  if (badTools.length)
    return `unknown tool ${badTools.map((n) => `"${n}"`).join(', ')}; the tools are ${toolCatalog()
      .tools.map((t) => t.name)
      .join(', ')}`;
  return undefined;
}

/** Why a tool of the catalog is not offered and how to offer it; undefined when it is offered. */
function refusal(options: McpServerOptions): (tool: ToolDef) => string | undefined {
  const names = new Set(options.tools ?? []);
  const toolsets = new Set(options.toolsets ?? DEFAULT_TOOLSETS);
  const chosen = (tool: ToolDef) =>
    toolsets.has('all') || names.has(tool.name) || (tool.toolset !== undefined && toolsets.has(tool.toolset));
  return (tool) => {
    if (options.readOnly && tool.annotations.readOnlyHint !== true)
      return `tool "${tool.name}" changes the board and this server is read-only`;
    if (!chosen(tool))
      return `tool "${tool.name}" is not enabled; enable it with --toolsets ${tool.toolset} (or --tools ${tool.name})`;
    return undefined;
  };
}

/**
 * One MCP server instance: tools from the route table, and the resources. It is the factory the
 * SDK's serving entry points call (`serveStdio` per connection; `createMcpHandler` per HTTP
 * request), which answer both `initialize` (2025-11-25) and `server/discover` (2026-07-28).
 * The low-level Server, not McpServer: the catalog's tools are plain JSON schemas validated once
 * per process, and a renamed tool must stay callable under its old name without being listed.
 */
export function buildMcpServer(options: McpServerOptions): Server {
  const { log } = options;
  const client = actingAs(options.client, options.agent);
  // Per server instance: serveStdio makes one per connection (HTTP would make one per request, and
  // must name its agent from the caller's credential instead).
  const connection = options.agentSuffix ?? randomBase36(4);
  const tools = toolCatalog();
  const refused = refusal(options);
  const listed = tools.tools.filter((t) => !refused(t)).map((t) => tools.listed(t));
  const server = new Server(
    { name: 'kanban', title: 'Repo Kanban', version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      instructions: `A kanban board kept as Markdown files (${client.target}). Read ${INSTRUCTIONS_URI} for the work loop (pick, report, comment, move, complete) and ${CONTEXT_URI} for the board now. ${ARGUMENTS_NOTE} ${WORKSPACE_NOTE}`,
      cacheHints: CACHE_HINTS,
    },
  );

  server.setRequestHandler('tools/list', async () => ({ tools: listed }));

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const tool = tools.find(request.params.name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `no tool "${request.params.name}"; tools/list names them`,
      );
    const why = refused(tool);
    if (why) throw new ProtocolError(ProtocolErrorCode.InvalidParams, why);
    const args = request.params.arguments ?? {};
    try {
      tools.checkArguments(tool, args);
      const callerName = callerNameOf(server, ctx);
      const result = await inWorkspace(options.workspaces, args, client, (target, toolArgs) => {
        const caller =
          options.agent === undefined ? actingAs(target, connectionAgentName(callerName, connection)) : target;
        return tool.run({ client: following(caller, runControlOf(ctx)), callerName }, toolArgs);
      });
      // A mismatch is our bug, not the agent's: it still gets the answer (clients that check the
      // schema refuse it themselves), and stderr says where the schema and the answer part.
      const problem = result.isError ? undefined : tools.outputProblem(tool, result.structuredContent);
      if (problem) log(`tool ${tool.name} answered outside its output schema: ${problem}`);
      return result;
    } catch (error) {
      if (error instanceof ToolError) return errorResult(error.message);
      // Not a refusal of the API: a broken connection to a server, or a bug. The agent gets the message, stderr the stack.
      log(`tool ${tool.name} failed: ${(error as Error).stack ?? String(error)}`);
      return errorResult((error as Error).message);
    }
  });

  server.setRequestHandler('resources/list', async () => ({ resources: await listResources(client) }));
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  attachResourceSubscriptions(server, options.client, { log, announceEveryChange: options.announceEveryChange });

  server.setRequestHandler('resources/read', async (request) => {
    try {
      return await readResource(client, request.params.uri);
    } catch (error) {
      if (error instanceof ToolError)
        throw new ProtocolError(
          error.status === 404 ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError,
          error.message,
        );
      throw error;
    }
  });

  servePrompts(server, client, options.readOnly);
  return server;
}
