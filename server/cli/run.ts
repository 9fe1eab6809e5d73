import { version } from '../../package.json';
import { firstPositional, GLOBAL_OPTIONS, helpFor, parseCommand, type Command, type Parsed } from './command';
import { completionScript } from './completion';
import { Context, type GlobalOptions } from './context';
import { everydayCommands as cardCommands } from './everyday';
import { checklistCommands } from './checklist';
import { exportCommand, importCommand } from './importExport';
import { initCommand } from './init';
import { daemonCommand } from './daemonCommand';
import { runDaemon } from './daemonHost';
import { daemonIdleSeconds } from './daemonStart';
import * as path from 'node:path';
import { providerTestCommand } from './providerTest';
import { skillCommand } from './skillCommand';
import { TOOLSETS } from '../mcp/toolsets';
import { apiHelp, operations } from './operations';
import { processOutput, type Output } from './output';
import { CliError, ExitWith, UsageError } from './usage';

export const VERSION: string = version;

/** Commands that hand their arguments to another parser, shown in the help like the others. */
const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve the board UI, the REST API and live updates over the folder',
  args: '[--dir --port --host ...]',
  writes: false,
  offline: true,
  run: async () => undefined,
};
const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Run the MCP server on stdio, for AI agents (`kanban mcp --help` for its flags)',
  args: '[--dir <path> | --url <url> [--token <t>]] [--toolsets <set,...>|all] [--tools <name,...>] [--read-only]',
  // Its own parser reads these (mcp/command.ts); listed here for the completion scripts.
  options: {
    toolsets: {
      type: 'string',
      value: '<set,...>',
      description: 'tool groups offered (default: cards)',
      choices: [...TOOLSETS, 'all'],
    },
    tools: { type: 'string', value: '<name,...>', description: "tools offered beside the toolsets' own" },
    'read-only': { type: 'boolean', description: 'offer only the tools that change nothing' },
  },
  writes: false,
  offline: true,
  run: async () => undefined,
};
const apiCommand: Command = {
  name: 'api',
  summary: 'Call any REST operation by name, generated from the route table (`kanban api` lists them)',
  args: '<operation> [arguments]',
  writes: false,
  offline: true,
  run: async () => undefined,
};
const completionCommand: Command = {
  name: 'completion',
  summary: 'Print a shell completion script: eval "$(kanban completion bash)"',
  args: 'bash|zsh',
  subcommands: ['bash', 'zsh'],
  positionals: [1, 1],
  writes: false,
  offline: true,
  async run(ctx, parsed) {
    const script = completionScript(parsed.positionals[0], allCommands());
    if (script === null)
      throw new UsageError(`no completion for "${parsed.positionals[0]}"; use bash or zsh`, helpFor(completionCommand));
    ctx.output.out(script);
  },
};

/** The commands for everyday card work, in the order help lists them. */
const everydayCommands: Command[] = [...cardCommands, ...checklistCommands];

export function allCommands(): Command[] {
  return [
    ...everydayCommands,
    importCommand,
    exportCommand,
    initCommand,
    skillCommand,
    serveCommand,
    daemonCommand,
    mcpCommand,
    apiCommand,
    providerTestCommand,
    completionCommand,
  ];
}

export function mainHelp(): string {
  const commands = allCommands().filter((c) => !c.hidden);
  const width = Math.max(...commands.map((c) => c.name.length));
  const row = (c: Command) => `  ${c.name.padEnd(width)}  ${c.summary}`;
  const everyday = new Set(everydayCommands.map((c) => c.name));
  return [
    `kanban ${VERSION}: the board in this repository's .kanban/ folder, from the command line`,
    '',
    'usage: kanban <command> [arguments] [flags]',
    '',
    'cards and boards:',
    ...commands.filter((c) => everyday.has(c.name)).map(row),
    '',
    'more:',
    ...commands.filter((c) => !everyday.has(c.name)).map(row),
    `  ${'help'.padEnd(width)}  This help, or a command's: kanban help <command> (or kanban <command> --help)`,
    '',
    'global flags:',
    ...Object.entries(GLOBAL_OPTIONS).map(
      ([name, spec]) => `  --${name}${spec.value ? ` ${spec.value}` : ''}`.padEnd(20) + `  ${spec.description}`,
    ),
    '  --version           print the version',
    '',
    'Without --url the command opens the folder itself (the same service, ids, atomic writes and',
    'conflict checks as the server); with a server already running there, changes go through it:',
    'kanban tells you its --url. Card ids may be abbreviated. Exit codes: 0 done, 1 refused by the',
    'API (the message says why), 2 a command line to correct, 3 nothing to pick (kanban pick).',
  ].join('\n');
}

function globalsOf(parsed: Parsed): GlobalOptions {
  const s = (name: string) => (typeof parsed.values[name] === 'string' ? (parsed.values[name] as string) : undefined);
  return {
    dir: s('dir'),
    board: s('board'),
    json: parsed.values.json === true,
    url: s('url'),
    token: s('token'),
    agent: s('agent'),
  };
}

function helpText(name: string | undefined): string | null {
  if (!name) return mainHelp();
  if (name === 'serve') return null;
  if (name === 'api') return apiHelp();
  const command = allCommands().find((c) => c.name === name);
  return command ? helpFor(command) : null;
}

async function runCommand(command: Command, argv: string[], output: Output, env: NodeJS.ProcessEnv): Promise<number> {
  const parsed = parseCommand(command, argv);
  if (parsed.values.help) {
    output.out(helpFor(command));
    return 0;
  }
  const ctx = new Context(globalsOf(parsed), output, env);
  let succeeded = false;
  try {
    if (!command.offline)
      await ctx.checkMode(typeof command.writes === 'function' ? command.writes(parsed) : command.writes);
    await command.run(ctx, parsed);
    succeeded = true;
    return 0;
  } finally {
    await ctx.close(succeeded);
  }
}

/** Run one command line; answers the exit code. */
export async function run(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: Output = processOutput(env),
): Promise<number> {
  try {
    const at = firstPositional(argv);
    const name = at >= 0 ? argv[at] : undefined;
    const before = at >= 0 ? argv.slice(0, at) : argv;
    const rest = at >= 0 ? [...before, ...argv.slice(at + 1)] : argv;
    if (!name) {
      if (before.includes('--version') || before.includes('-v') || before.includes('-V')) {
        output.out(VERSION);
        return 0;
      }
      if (before.length && !before.includes('--help') && !before.includes('-h')) {
        throw new UsageError(`no command given (flags: ${before.join(' ')})`, mainHelp());
      }
      output.out(mainHelp());
      return 0;
    }
    if (name === 'help') {
      const topic = argv.slice(at + 1).filter((a) => !a.startsWith('-'));
      if (topic[0] === 'serve') {
        output.out((await import('./serve')).SERVE_USAGE);
        return 0;
      }
      const text = helpText(topic[0] === 'api' && topic[1] ? undefined : topic[0]);
      const op = topic[0] === 'api' && topic[1] ? operations().find((o) => o.name === topic[1]) : undefined;
      if (op) output.out(helpFor(op.command));
      else if (text === null || (topic[0] === 'api' && topic[1]))
        throw new UsageError(`no command "${topic.join(' ')}"`, mainHelp());
      else output.out(text);
      return 0;
    }
    if (name === 'serve') {
      // Loaded only here: the HTTP server (Express, WebSockets) is not needed by other commands.
      const { runServe } = await import('./serve');
      await runServe(rest, env);
      return -1; // keeps running; the server ends the process itself
    }
    if (name === 'daemon' && rest[firstPositional(rest)] === 'run') {
      // The board process itself, started by a command (daemonStart.ts): runs until idle or stopped.
      const dir = rest[rest.indexOf('--dir') + 1];
      if (!rest.includes('--dir') || !dir)
        throw new UsageError('kanban daemon run needs --dir <workspace>', helpFor(daemonCommand));
      await runDaemon(path.resolve(dir), daemonIdleSeconds(env));
      return -1;
    }
    if (name === 'mcp') {
      const { runMcpCommand } = await import('../mcp/command');
      await runMcpCommand(rest);
      return -1;
    }
    if (name === 'api') {
      const opAt = firstPositional(rest);
      if (opAt < 0) {
        if (rest.some((a) => a !== '--help' && a !== '-h'))
          throw new UsageError('kanban api needs an operation', apiHelp());
        output.out(apiHelp());
        return 0;
      }
      const op = operations().find((o) => o.name === rest[opAt]);
      if (!op) throw new UsageError(`no operation "${rest[opAt]}"`, apiHelp());
      return await runCommand(op.command, [...rest.slice(0, opAt), ...rest.slice(opAt + 1)], output, env);
    }
    const command = allCommands().find((c) => c.name === name);
    if (!command) throw new UsageError(`no command "${name}"`, mainHelp());
    return await runCommand(command, rest, output, env);
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`kanban: ${error.message}\n\n${error.help}`);
      return 2;
    }
    if (error instanceof ExitWith) {
      if (error.message) output.err(`kanban: ${error.message}`);
      return error.code;
    }
    if (error instanceof CliError) {
      output.err(`kanban: ${error.message}`);
      return 1;
    }
    output.err(`kanban: ${(error as Error)?.message ?? String(error)}`);
    if (env.KANBAN_DEBUG) output.err(String((error as Error)?.stack));
    return 1;
  }
}
