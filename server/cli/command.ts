import { parseArgs } from 'node:util';
import type { Context } from './context';
import { UsageError } from './usage';

export interface OptionSpec {
  type: 'string' | 'boolean';
  description: string;
  short?: string;
  multiple?: boolean;
  /** Shown in help after the flag, e.g. `<status>`. */
  value?: string;
  /** The values the shell completes after the flag. */
  choices?: readonly string[];
}

export type Parsed = {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
};

export interface Command {
  name: string;
  summary: string;
  /** Positional arguments as help shows them, e.g. `<id> <status>`. */
  args?: string;
  /** Lines shown under the usage in `--help`. */
  details?: string[];
  options?: Record<string, OptionSpec>;
  /** The fewest and most positionals accepted (default 0 and 0). */
  positionals?: [number, number];
  /** Whether the command changes the board, so an in-process run must not race a running server. */
  writes: boolean | ((parsed: Parsed) => boolean);
  /** Words the shell completes as the first argument (`storage status|migrate-to-sqlite|...`). */
  subcommands?: readonly string[];
  /** Hidden from the command list (still in completion). */
  hidden?: boolean;
  /** Whether the command needs no workspace or server at all (init, completion, help). */
  offline?: boolean;
  run(ctx: Context, parsed: Parsed): Promise<void>;
}

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  dir: {
    type: 'string',
    value: '<path>',
    description:
      'workspace folder (env KANBAN_WORKSPACE; default: the nearest folder up from here with .kanban.json or .kanban/)',
  },
  board: { type: 'string', value: '<id>', description: 'board to act on (default: the default board)' },
  json: { type: 'boolean', description: "print exactly the REST answer's data, as JSON" },
  url: {
    type: 'string',
    value: '<url>',
    description: 'go through the server at this URL instead of opening the folder (env KANBAN_URL)',
  },
  token: { type: 'string', value: '<token>', description: 'API token when auth is on (env KANBAN_TOKEN)' },
  agent: {
    type: 'string',
    value: '<name>',
    description: 'act as this agent: claims, pick, and writes to cards other agents hold (env KANBAN_AGENT)',
  },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

/** Flags that take a value, for finding the command name before the command's own flags are known. */
export function takesValue(flag: string, extra: Record<string, OptionSpec> = {}): boolean {
  const name = flag.replace(/^--?/, '');
  const all = { ...GLOBAL_OPTIONS, ...extra };
  const spec = all[name] ?? Object.values(all).find((o) => o.short === name);
  return spec?.type === 'string' && !flag.includes('=');
}

/** Index of the first positional in argv, skipping flags (and the values of known value flags). */
export function firstPositional(argv: string[], extra: Record<string, OptionSpec> = {}): number {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!arg.startsWith('-') || arg === '-') return i;
    if (takesValue(arg, extra)) i++;
  }
  return -1;
}

export function helpFor(command: Command, prefix = 'kanban'): string {
  const lines = [
    `usage: ${prefix} ${command.name}${command.args ? ` ${command.args}` : ''}${Object.keys(command.options ?? {}).length ? ' [flags]' : ''}`,
    '',
    command.summary,
  ];
  if (command.details?.length) lines.push('', ...command.details);
  const own = Object.entries(command.options ?? {});
  if (own.length) lines.push('', 'flags:', ...flagLines(own));
  lines.push('', 'global flags:', ...flagLines(Object.entries(GLOBAL_OPTIONS)));
  return lines.join('\n');
}

function flagLines(entries: [string, OptionSpec][]): string[] {
  const shown = entries.map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : spec.type === 'string' ? ' <value>' : ''}`;
    return [flag, spec.description + (spec.multiple ? ' (repeatable)' : '')] as const;
  });
  const width = Math.min(34, Math.max(...shown.map(([flag]) => flag.length)));
  return shown.map(([flag, text]) =>
    flag.length > width ? `  ${flag}\n  ${' '.repeat(width)}  ${text}` : `  ${flag.padEnd(width)}  ${text}`,
  );
}

/** Parse argv (without the command name) against the command's and the global flags. */
export function parseCommand(command: Command, argv: string[]): Parsed {
  const options = Object.fromEntries(
    Object.entries({ ...GLOBAL_OPTIONS, ...command.options }).map(([name, spec]) => [
      name,
      { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) },
    ]),
  );
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args: argv, options: options as never, allowPositionals: true, strict: true }) as Parsed;
  } catch (error) {
    throw new UsageError(plainParseError((error as Error).message), helpFor(command));
  }
  if (parsed.values.help) return parsed;
  const [min, max] = command.positionals ?? [0, 0];
  const count = parsed.positionals.length;
  if (count < min)
    throw new UsageError(`${command.name} needs ${command.args ?? `${min} argument(s)`}`, helpFor(command));
  if (count > max)
    throw new UsageError(
      `${command.name} takes ${max === 0 ? 'no arguments' : `at most ${max} argument(s)`}; unexpected "${parsed.positionals[max]}"`,
      helpFor(command),
    );
  return parsed;
}

/** Node's parseArgs messages, shortened to what the user typed wrong. */
function plainParseError(message: string): string {
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown flag ${unknown[1]}`;
  const missing = /Option '([^']+?)(?: <value>)?' argument missing/.exec(message);
  if (missing) return `${missing[1].replace(/^-\w, /, '')} needs a value`;
  const ambiguous = /Option '([^']+?)(?: <value>)?' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const name = ambiguous[1].replace(/^-\w, /, '');
    return `${name} needs a value (one that starts with "-" is written ${name}=<value>)`;
  }
  const notBoolean = /Option '([^']+?)' does not take an argument/.exec(message);
  if (notBoolean) return `${notBoolean[1].replace(/^-\w, /, '')} takes no value`;
  return message.split('\n')[0];
}

export function str(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function list(parsed: Parsed, name: string): string[] {
  const value = parsed.values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

export function flag(parsed: Parsed, name: string): boolean {
  return parsed.values[name] === true;
}
