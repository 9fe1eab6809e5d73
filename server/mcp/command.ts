import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { HttpApiClient, LocalApiClient, type ApiClient } from '../client/apiClient';
import { buildMcpServer, selectionProblem } from './mcpServer';
import { commaNames, TOOLSETS } from './toolsets';
import {
  allowedFolders,
  AllowedWorkspaces,
  OPEN_WORKSPACES,
  oneWorkspaceOnly,
  type WorkspaceChooser,
} from './workspaceArgument';
import { limitHeapGrowth } from '../live/heapTuning';
import { checkAgentName } from '../core/claims';

const USAGE = `Usage: kanban mcp [--dir <path> [--allow-dir <path>]... | --url <base> [--token <t>]] [--agent <name>]
                  [--toolsets <set,...>|all] [--tools <name,...>] [--read-only]

The MCP server on stdio, for AI agents (Claude, Cursor, VS Code agent mode...).
  --dir <path>    the workspace folder, opened in this process (default: KANBAN_WORKSPACE, else the current folder)
  --allow-dir <p> a folder under which a tool's \`workspace\` argument may name another board; repeat
                  it or give a comma list (at most ${OPEN_WORKSPACES} of those boards stay open at once)
  --url <base>    go through a running server instead (env KANBAN_URL), e.g. http://127.0.0.1:3000
  --token <t>     API token when auth is on (env KANBAN_TOKEN)
  --agent <name>  the agent this server's calls act as: claims, pick_card (env KANBAN_AGENT)
  --toolsets <s>  the tool groups offered, comma-separated: ${TOOLSETS.join(', ')}, or all (default: cards)
  --tools <n>     tools offered beside those of the toolsets, by name, comma-separated
  --read-only     offer only the tools that change nothing (readOnlyHint)
`;

interface McpOptions {
  dir?: string;
  url?: string;
  token?: string;
  agent?: string;
  toolsets?: string[];
  tools?: string[];
  readOnly?: boolean;
  allowDirs?: string[];
}

const VALUE_FLAGS = ['--dir', '--url', '--token', '--agent', '--toolsets', '--tools', '--allow-dir'];

function parseArgs(argv: string[]): McpOptions | 'help' {
  const options: McpOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return 'help';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag === '--read-only' && inline === undefined) {
      options.readOnly = true;
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) throw new Error(`unknown option "${arg}"`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    if (flag === '--allow-dir')
      options.allowDirs = [...(options.allowDirs ?? []), ...allowedFolders(commaNames(value), process.cwd())];
    else if (flag === '--toolsets' || flag === '--tools') {
      if (!commaNames(value).length) throw new Error(`${flag} needs at least one name`);
      options[flag.slice(2) as 'toolsets' | 'tools'] = commaNames(value);
    } else options[flag.slice(2) as 'dir' | 'url' | 'token' | 'agent'] = value;
  }
  const problem = selectionProblem(options);
  if (problem) throw new Error(problem);
  options.url ??= options.dir === undefined ? process.env.KANBAN_URL || undefined : undefined;
  options.token ??= process.env.KANBAN_TOKEN || undefined;
  options.agent ??= process.env.KANBAN_AGENT || undefined;
  if (options.agent !== undefined)
    checkAgentName(options.agent, options.agent === process.env.KANBAN_AGENT ? 'KANBAN_AGENT' : '--agent');
  if (options.dir !== undefined && options.url !== undefined) throw new Error('give either --dir or --url, not both');
  if (options.allowDirs && options.url !== undefined)
    throw new Error('--allow-dir needs the workspace in this process: a server reached with --url serves only its own');
  return options;
}

/** stdout carries JSON-RPC only: whatever else the service prints goes to stderr. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}

/** `kanban mcp [--dir <path> | --url <base> [--token <t>]]`: serve MCP on stdio until the client closes it. */
export async function runMcpCommand(argv: string[]): Promise<void> {
  let options: McpOptions | 'help';
  try {
    options = parseArgs(argv);
  } catch (error) {
    process.stderr.write(`kanban mcp: ${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stderr.write(USAGE);
    return;
  }
  keepStdoutForProtocol();
  const log = (line: string) => process.stderr.write(`kanban mcp: ${line}\n`);
  let client: ApiClient;
  const opening = { token: options.token, watch: true, agent: options.agent };
  try {
    client = options.url
      ? new HttpApiClient(options.url, options.token, options.agent)
      : await LocalApiClient.open(options.dir ?? (process.env.KANBAN_WORKSPACE || process.cwd()), opening);
    // Hosting the board in this process, it is a long-lived server like `kanban serve`.
    if (!options.url) limitHeapGrowth();
  } catch (error) {
    log((error as Error).message);
    process.exitCode = 1;
    return;
  }
  // One server instance per connection, made by the SDK's entry point: it answers `initialize`
  // (2025-11-25) and `server/discover` (2026-07-28) and picks the revision the client speaks.
  const { toolsets, tools, readOnly } = options;
  const workspaces: WorkspaceChooser = options.url
    ? oneWorkspaceOnly(
        'the workspace argument is not available with kanban mcp --url: a server serves one workspace; omit it, or run kanban mcp --dir <folder> --allow-dir <folder>',
      )
    : new AllowedWorkspaces(client.target, options.allowDirs ?? [], (root) => LocalApiClient.open(root, opening), log);
  const handle = serveStdio(
    ({ era }) =>
      buildMcpServer({
        client,
        log,
        toolsets,
        tools,
        readOnly,
        agent: options.agent,
        workspaces,
        announceEveryChange: era === 'modern',
      }),
    { onerror: (error) => log(error.message) },
  );
  log(`serving ${client.mode === 'local' ? 'the workspace' : 'the server at'} ${client.target}`);
  await new Promise<void>((resolve) => {
    let closing = false;
    const finish = async () => {
      if (closing) return;
      closing = true;
      await handle.close().catch(() => undefined);
      await workspaces.close();
      await client.close().catch((error: Error) => log(`closing ${client.target}: ${error.message}`));
      resolve();
    };
    // The entry point does not say when the client goes away; the end of stdin is that moment.
    process.stdin.once('end', finish);
    process.stdin.once('close', finish);
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
  });
}
