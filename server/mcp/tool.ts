import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { ApiCall, ApiClient } from '../client/apiClient';
import type { JsonSchema, Method } from '../api/route';
import type { Toolset } from './toolsets';

/** What a tool needs while it runs: the service, and who is calling (for defaults such as a comment's author). */
export interface ToolContext {
  client: ApiClient;
  /**
   * The MCP client's name, e.g. `claude-code`: from the request's own metadata (2026-07-28), else
   * from the connection's `initialize` (2025-11-25); undefined when the client sent neither.
   */
  callerName?: string;
}

/** One MCP tool: what `tools/list` shows, and how `tools/call` runs it. */
export interface ToolDef {
  name: string;
  /** A few words for a person choosing tools in a client's UI. */
  title: string;
  description: string;
  inputSchema: JsonSchema;
  /** What `structuredContent` holds on success: always an object (MCP wants one at the top). */
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** The group a host can offer or leave out as a whole (toolsets.ts), set when the catalog is built. */
  toolset?: Toolset;
  /** Names it answered to before a rename: still callable, never listed. */
  formerNames?: string[];
  /** The routes this tool covers, as `get /tasks/{id}`: every route must be covered by one tool. */
  routes: string[];
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<CallToolResult>;
}

export function routeKey(route: { method: Method; path: string }): string {
  return `${route.method} ${route.path}`;
}

/** A refusal to show the agent as an `isError` result: the API's message, or an argument problem. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Call the API and return the envelope's data; a refusal throws a ToolError with the API's message. */
export async function callApi(
  client: ApiClient,
  call: ApiCall,
): Promise<{ data: unknown; etag?: string; page?: { total: number; nextCursor?: string } }> {
  const answer = await client.call(call);
  if (answer.body && answer.body.ok === false) throw new ToolError(answer.body.error, answer.status);
  if (answer.status >= 400)
    throw new ToolError(
      `the API answered ${answer.status} to ${call.method.toUpperCase()} ${call.path}`,
      answer.status,
    );
  return { data: answer.body ? answer.body.data : null, etag: answer.etag, page: answer.page };
}

export function textResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

/**
 * A success: `structured` for clients that read the output schema, and the answer as compact JSON
 * text (or as it is, when it is already text) for those that only read the content.
 */
export function structuredResult(text: unknown, structured: Record<string, unknown>): CallToolResult {
  return { ...textResult(text), structuredContent: structured };
}

export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** `/tasks/...` on the default board, `/boards/<board>/tasks/...` on another. */
export function onBoard(board: unknown, path: string): string {
  return typeof board === 'string' && board !== '' ? `/boards/${encodeURIComponent(board)}${path}` : path;
}

export const enc = (value: unknown): string => encodeURIComponent(String(value));

export function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
