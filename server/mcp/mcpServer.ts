import Ajv, { type ValidateFunction } from 'ajv';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { allRoutes } from '../api/routes';
import type { ApiClient } from '../client/apiClient';
import { version } from '../../package.json';
import { CONTEXT_URI, INSTRUCTIONS_URI, listResources, readResource } from './resources';
import { errorResult, ToolError, type ToolDef } from './tool';
import { buildTools } from './tools';

const ajv = new Ajv({ allErrors: false, strict: false });

/** Arguments checked against the tool's schema, so a missing id is named before any call. */
function checkArguments(tool: ToolDef, validators: Map<string, ValidateFunction>, args: Record<string, unknown>): void {
  let validate = validators.get(tool.name);
  if (!validate) validators.set(tool.name, (validate = ajv.compile(tool.inputSchema)));
  if (validate(args)) return;
  const error = validate.errors?.[0];
  const where = `arguments${error?.instancePath.replace(/\//g, '.') ?? ''}`;
  const extra = (error?.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  throw new ToolError(extra ? `${where} has an unknown field "${extra}"` : `${where} ${error?.message ?? 'are invalid'}`);
}

function listed(tool: ToolDef): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    annotations: tool.annotations,
  };
}

/** The MCP server over one ApiClient: tools from the route table, and the resources. */
export function createMcpServer(client: ApiClient, log: (line: string) => void): Server {
  const server = new Server(
    { name: 'kanban', title: 'Repo Kanban', version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: `A kanban board kept as Markdown files (${client.target}). Read ${INSTRUCTIONS_URI} for the work loop (pick, report, comment, move, complete) and ${CONTEXT_URI} for the board now.`,
    },
  );
  const tools = buildTools(allRoutes);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const validators = new Map<string, ValidateFunction>();

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(listed) }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool "${request.params.name}"; tools/list names them`);
    const args = request.params.arguments ?? {};
    try {
      checkArguments(tool, validators, args);
      return await tool.run({ client, callerName: server.getClientVersion()?.name }, args);
    } catch (error) {
      if (error instanceof ToolError) return errorResult(error.message);
      // Not a refusal of the API: a broken connection to a server, or a bug. The agent gets the message, stderr the stack.
      log(`tool ${tool.name} failed: ${(error as Error).stack ?? String(error)}`);
      return errorResult((error as Error).message);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(client) }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      return await readResource(client, request.params.uri);
    } catch (error) {
      if (error instanceof ToolError) throw new McpError(error.status === 404 ? ErrorCode.InvalidParams : ErrorCode.InternalError, error.message);
      throw error;
    }
  });
  return server;
}
