import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startTestServer, type TestServer } from '../helpers/testServer';

/** The flag that offers every tool, for suites that walk tools beyond the default `cards`. */
export const ALL_TOOLSETS = ['--toolsets', 'all'];

const KANBAN_BIN = path.join(__dirname, '..', '..', 'dist', 'cli.js');

export interface McpSession {
  client: Client;
  /** What the server wrote to stderr so far, for failure messages. */
  stderr(): string;
  /** Call a tool and answer its parsed text (JSON when it is JSON); fails the test on an isError result. */
  call<T = any>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Call a tool and answer the raw result, errors included. */
  callRaw(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/**
 * The command that starts the MCP server with these options: the one place that says how it is
 * spawned: `kanban mcp`, from the built bin.
 */
export function mcpCommand(args: string[]): { command: string; args: string[] } {
  if (!existsSync(KANBAN_BIN)) throw new Error(`${KANBAN_BIN} is missing: build it with "node esbuild.mjs"`);
  return { command: process.execPath, args: [KANBAN_BIN, 'mcp', ...args] };
}

const cleanEnv = (env: Record<string, string>) => ({
  ...(process.env as Record<string, string>),
  KANBAN_URL: '',
  KANBAN_TOKEN: '',
  KANBAN_WORKSPACE: '',
  ...env,
});

/**
 * The protocol revision a test client speaks: 2025-11-25 opens with `initialize` (the SDK client's
 * default), 2026-07-28 with `server/discover` and sends its name and capabilities in every request.
 */
export type McpRevision = '2025-11-25' | '2026-07-28';

export interface McpClientOptions {
  revision?: McpRevision;
  /** The client's name, as a comment's default author shows it. */
  name?: string;
}

/** The SDK's own client, pinned to one revision so a test knows which one it checks. */
export function newClient({ revision = '2025-11-25', name = 'mcp-test' }: McpClientOptions = {}): Client {
  const info = { name, version: '1.0.0' };
  return revision === '2026-07-28'
    ? new Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
    : new Client(info);
}

/** The MCP server as an agent's client starts it: a child process on stdio, driven by the SDK's own Client. */
export async function startMcp(
  args: string[],
  env: Record<string, string> = {},
  options: McpClientOptions = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({ ...mcpCommand(args), env: cleanEnv(env), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = newClient(options);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`the MCP server did not start: ${(error as Error).message}\n${stderr}`);
  }
  const callRaw = async (name: string, toolArgs: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: toolArgs })) as CallToolResult;
  return {
    client,
    stderr: () => stderr,
    callRaw,
    async call(name, toolArgs = {}) {
      const result = await callRaw(name, toolArgs);
      const text = textOf(result);
      if (result.isError) throw new Error(`${name} answered an error: ${text}`);
      try {
        return JSON.parse(text);
      } catch {
        return text as never;
      }
    },
    close: () => client.close(),
  };
}

export interface ListCardsPages {
  /** Card ids in the order the pages gave them. */
  ids: string[];
  /** Bytes of each page's text, as the agent receives it. */
  pageBytes: number[];
  /** `total` of the first page. */
  total: number | undefined;
  /** Cards on each page. */
  pageSizes: number[];
}

/** Follow `list_cards` from the first page to the last, as an agent would (at most `maxPages`). */
export async function pageThroughListCards(
  mcp: McpSession,
  args: Record<string, unknown> = {},
  maxPages = 1000,
): Promise<ListCardsPages> {
  const pages: ListCardsPages = { ids: [], pageBytes: [], total: undefined, pageSizes: [] };
  let cursor: string | undefined;
  do {
    const result = await mcp.callRaw('list_cards', { ...args, ...(cursor ? { cursor } : {}) });
    const text = textOf(result);
    if (result.isError) throw new Error(`list_cards answered an error: ${text}`);
    const page = JSON.parse(text) as { cards: { id: string }[]; total?: number; nextCursor?: string };
    pages.total ??= page.total;
    pages.ids.push(...page.cards.map((c) => c.id));
    pages.pageBytes.push(Buffer.byteLength(text));
    pages.pageSizes.push(page.cards.length);
    cursor = page.nextCursor;
  } while (cursor && pages.pageBytes.length < maxPages);
  return pages;
}

/** Run the MCP command to its end with nothing on stdin, for its usage errors: exit code and output. */
export async function runMcpToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { command, args: argv } = mcpCommand(args);
  const child = spawn(command, argv, { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}

/**
 * The MCP suites' shared opening: one server for the whole suite (`startServer` may seed it) and
 * one MCP session that reaches it through `--url`, or works on its folder in-process with `--dir`;
 * both are handed to `started` and closed after the suite. The session offers every toolset: the
 * suites walk tools of all of them; the default selection has a suite of its own (toolsets.test.ts).
 */
export function useMcpSession(
  reach: 'url' | 'dir',
  started: (opened: { server: TestServer; mcp: McpSession }) => unknown,
  startServer: () => Promise<TestServer> = () => startTestServer(),
): void {
  let server: TestServer | undefined;
  let mcp: McpSession | undefined;
  before(async () => {
    server = await startServer();
    mcp = await startMcp([...(reach === 'url' ? ['--url', server.url] : ['--dir', server.root]), ...ALL_TOOLSETS]);
    await started({ server, mcp });
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });
}
