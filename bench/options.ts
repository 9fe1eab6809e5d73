import { STORAGES, type StorageKind } from './storage';
import { API_SCENARIOS } from './scenarios';

/** Measured only when named (`--only live`): they add about a minute per card count. */
export const LIVE_SCENARIOS = ['live-edit', 'live-webhooks', 'live-webhooks-healthy', 'live-webhooks-failing'] as const;
/** The board UI in Chromium (`--only ui`): first render and drop-to-settled, about 30 s. */
export const UI_SCENARIOS = ['ui'] as const;
/** Git links over 50,000 commits (`--only git-links`): it makes the workspace a git repository. */
export const GIT_SCENARIOS = ['git-links'] as const;
/** Agents picking work (`--only pick,pick-cli`): 50 REST agents on the server, 8 CLI pickers on a folder. */
export const AGENT_SCENARIOS = ['pick', 'pick-cli'] as const;
/**
 * What `tools/list` costs per MCP toolset (`--only mcp-tools`): in-process, no server and no cards;
 * an agent's wait on `list_cards` and `pick_card` over the seeded server (`--only mcp-calls`).
 */
export const MCP_SCENARIOS = ['mcp-tools', 'mcp-calls'] as const;
/** Everyday `kanban` commands as whole processes beside `node -e 0` and Backlog.md's CLI (`--only cli`): no server. */
export const CLI_SCENARIOS = ['cli'] as const;
const ALL_SCENARIOS: readonly string[] = [
  ...API_SCENARIOS,
  ...LIVE_SCENARIOS,
  ...UI_SCENARIOS,
  ...GIT_SCENARIOS,
  ...AGENT_SCENARIOS,
  ...MCP_SCENARIOS,
  ...CLI_SCENARIOS,
];

export interface BenchOptions {
  cardCounts: number[];
  storage: StorageKind;
  /** With --instances: every storage named (`--storage postgres,mysql`), measured one after the other. */
  storages: StorageKind[];
  durationSeconds: number;
  connections: number;
  scenarios: string[];
  /** Seed sqlite/mysql through the HTTP API instead of the provider's store. */
  seedThroughApi: boolean;
  /** Run the server child with --cpu-prof and summarise where its time went. */
  profile: boolean;
  /** Measure list, searches and get against a bare node:http server answering the same bytes. */
  floor: boolean;
  /** With mysql, postgres or sqlite: compare 1 and this many instances over one database (null: the usual bench). */
  instances: number | null;
  /** Whether --cards was given (the instances bench defaults to 1,000 cards). */
  cardsGiven: boolean;
  /** Cards without checklists and dependencies, to price those fields (`--plain-cards`). */
  plainCards: boolean;
  /** Cards created right before each floor scenario (`--after-writes`), or 0. */
  writesBeforeReads: number;
  /** Whether --storage was given (`--only cli` measures markdown and sqlite otherwise). */
  storageGiven: boolean;
  /** Timed runs per command of `--only cli` (the median is reported). */
  cliRuns: number;
}

export const USAGE = `usage: npm run bench -- [options]
  --cards <n>[,<n>...]   card counts to run (default: 1000 and 10000)
  --storage <kind>       markdown (default), sqlite, mysql or postgres (with --instances, several:
                         postgres,mysql)
  --duration <s>         seconds per scenario (default 5)
  --connections <n>      concurrent connections (default 10)
  --only <a,b,...>       scenarios (default: the API ones): ${API_SCENARIOS.join(', ')},
                         ${LIVE_SCENARIOS.join(', ')}, or live for all live-update ones,
                         ui for the board UI in Chromium (first render, drop to settled),
                         git-links for a card's git links over 50,000 commits (first scan, cached answers),
                         pick for 50 agents picking through the server (p50/p99, picks/s, double claims),
                         pick-cli for 8 kanban pick processes at once on a folder no server serves,
                         mcp-tools for the bytes of MCP tools/list per toolset (no server; alone, it skips the rest),
                         mcp-calls for the latency of MCP list_cards and pick_card beside the REST calls,
                         cli for show, list --limit 20, add, move, pick and --version as whole kanban
                         processes (markdown and sqlite unless --storage is given) beside node -e 0 and
                         Backlog.md's backlog CLI (installed on demand into .cache/backlog-md); no server,
                         alone it skips the rest; 100000 cards works but takes minutes per storage
  --runs <n>             with --only cli: timed runs per command, median reported (default 5)
  --seed-api             seed sqlite/mysql through POST /api/tasks instead of the provider's store
  --profile              record a CPU profile of the server (test-output/profiles/) and print its hot spots
  --instances <n>        with --storage mysql or postgres (or sqlite: one shared file, "shared": true):
                         write and read throughput of 1 and n instances over one database, write ->
                         event time from one instance to another (p50, p99), and with postgres the
                         database's transactions per second while the n instances are idle
  --plain-cards          cards without checklists and blockedBy (by default one in ten has a
                         checklist and one in five a blocker): the cost of those fields
  --after-writes <n>     create n cards right before each of list, the searches and get (and their
                         floors), to measure reads as a board sees them right after a burst of writes
  --no-floor             skip the floor rows (list, searches and get against a bare node:http server
                         answering the same bytes from memory, printed as ours/floor beside the 2x target)`;

export class UsageError extends Error {}

function positiveInt(text: string, flag: string): number {
  const n = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} needs a whole number above 0, got "${text}"`);
  return n;
}

function scenarioList(text: string): string[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((s) => (s === 'live' ? [...LIVE_SCENARIOS] : [s]));
  const unknown = names.filter((name) => !ALL_SCENARIOS.includes(name));
  if (unknown.length)
    throw new UsageError(`unknown scenario ${unknown.join(', ')}; known: ${ALL_SCENARIOS.join(', ')}, live`);
  return names;
}

export function parseOptions(argv: string[]): BenchOptions {
  const options: BenchOptions = {
    cardCounts: [1_000, 10_000],
    storage: 'markdown',
    storages: ['markdown'],
    durationSeconds: 5,
    connections: 10,
    scenarios: [...API_SCENARIOS],
    seedThroughApi: false,
    profile: false,
    floor: true,
    instances: null,
    cardsGiven: false,
    plainCards: false,
    writesBeforeReads: 0,
    storageGiven: false,
    cliRuns: 5,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=')
      ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)]
      : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--cards') {
      options.cardCounts = value()
        .split(',')
        .map((v) => positiveInt(v, '--cards'));
      options.cardsGiven = true;
    } else if (flag === '--instances') options.instances = positiveInt(value(), '--instances');
    else if (flag === '--storage') {
      const kinds = value().split(',');
      for (const kind of kinds)
        if (!STORAGES.includes(kind as StorageKind))
          throw new UsageError(`--storage must be one of ${STORAGES.join(', ')}, got "${kind}"`);
      options.storages = kinds as StorageKind[];
      options.storage = options.storages[0];
      options.storageGiven = true;
    } else if (flag === '--duration') options.durationSeconds = positiveInt(value(), '--duration');
    else if (flag === '--connections') options.connections = positiveInt(value(), '--connections');
    else if (flag === '--only') options.scenarios = scenarioList(value());
    else if (flag === '--seed-api') options.seedThroughApi = true;
    else if (flag === '--profile') options.profile = true;
    else if (flag === '--no-floor') options.floor = false;
    else if (flag === '--plain-cards') options.plainCards = true;
    else if (flag === '--runs') options.cliRuns = positiveInt(value(), '--runs');
    else if (flag === '--after-writes') options.writesBeforeReads = positiveInt(value(), '--after-writes');
    else throw new UsageError(flag === '--help' || flag === '-h' ? '' : `unknown option ${argv[i]}`);
  }
  if (options.instances !== null && options.storages.includes('markdown'))
    throw new UsageError(
      '--instances needs --storage mysql, postgres or sqlite: card files are not shared by several instances through a database',
    );
  if (options.instances === null && options.storages.length > 1)
    throw new UsageError('several storages (--storage a,b) are measured only with --instances');
  return options;
}
