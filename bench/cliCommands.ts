// `npm run bench -- --only cli`: each everyday `kanban` command as a whole process, beside
// `node -e 0` and beside the same commands of Backlog.md's `backlog` CLI on the same tasks.
// Every case of one card count runs in one interleaved loop, so they all share the machine's load.
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Card } from '../server/core/model';
import { titleOf } from '../server/core/model';
import { STANDARD_COLUMNS } from '../server/core/defaults';
import { generateCards } from './dataset';
import { AUTO_MIN_CARDS } from '../server/cli/daemonStart';
import { seedMarkdownFiles, seedThroughStore } from './seed';
import { prepareStorage, writeWorkspaceConfig, type StorageKind } from './storage';

/** The Backlog.md release measured; installed on demand, never a dependency of ours. */
export const BACKLOG_VERSION = '1.52.0';
const REPO = path.join(__dirname, '..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const PEER_DIR = path.join(REPO, '.cache', 'backlog-md');
const PEER_BIN = path.join(PEER_DIR, 'node_modules', '.bin', 'backlog');

export interface CliBenchOptions {
  cardCounts: number[];
  storages: StorageKind[];
  runs: number;
}

interface Case {
  tool: string;
  command: string;
  cwd: string;
  /** The argv of run `n` (writes alternate, e.g. move back and forth). */
  argv: (n: number) => string[];
  env?: Record<string, string>;
}

/**
 * The first command after a clone (no card index, no board process), timed once: it reads every
 * file and, on a board of AUTO_MIN_CARDS or more, starts the board process; then how long until
 * that process is ready (`kanban daemon start` waits for it).
 */
function firstCalls(root: string, kind: StorageKind, someId: string, count: number): string[] {
  const first = timeProcess([process.execPath, CLI, 'show', someId], root);
  const line = `first call (${kind}, \`show <id>\`, no index, no board process): ${first.toFixed(0)} ms`;
  if (count < AUTO_MIN_CARDS) return [`${line}; below ${AUTO_MIN_CARDS} cards every call opens the folder in-process`];
  const ready = timeProcess([process.execPath, CLI, 'daemon', 'start'], root);
  return [`${line}; the board process it started was ready ${ready.toFixed(0)} ms after`];
}

export interface CliCommandResult {
  cards: number;
  tool: string;
  command: string;
  medianMs: number;
  timesNodeE0: number;
}

export interface CliBenchResult {
  results: CliCommandResult[];
  lines: string[];
}

function timeProcess(argv: string[], cwd: string, env: Record<string, string> = {}): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 512 * 1024 * 1024,
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    throw new Error(`${argv.join(' ')} (in ${cwd}) exited ${result.status}: ${result.stderr || result.error}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Installs Backlog.md into the git-ignored cache the first time; null with the reason when it cannot. */
function ensurePeer(): { bin: string } | { missing: string } {
  if (!existsSync(PEER_BIN)) {
    console.log(`cli: installing backlog.md@${BACKLOG_VERSION} into ${path.relative(process.cwd(), PEER_DIR)} (once)`);
    const npm = spawnSync(
      'npm',
      ['install', '--prefix', PEER_DIR, `backlog.md@${BACKLOG_VERSION}`, '--no-audit', '--no-fund', '--no-save'],
      { encoding: 'utf8' },
    );
    if (npm.status !== 0 || !existsSync(PEER_BIN))
      return {
        missing: `npm install backlog.md@${BACKLOG_VERSION} failed: ${(npm.stderr || String(npm.error)).trim().split('\n').slice(-3).join(' ')}`,
      };
  }
  const version = spawnSync(PEER_BIN, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0)
    return {
      missing: `${PEER_BIN} --version exited ${version.status}: ${(version.stderr || String(version.error)).trim()}`,
    };
  return { bin: PEER_BIN };
}

/** Our status column's name, which is also the Backlog.md status of the same task. */
const STATUS_NAME = new Map(STANDARD_COLUMNS.map((c) => [c.id, c.name]));

/**
 * A Backlog.md project with the same tasks (title, status), written in the format `backlog task
 * create` writes (front matter, `task-<n> - <Title-slug>.md` under backlog/tasks/), since creating
 * 10,000 through its CLI would take about an hour at ~0.3 s a task.
 */
export async function seedBacklog(root: string, cards: Card[]): Promise<void> {
  const statuses = STANDARD_COLUMNS.map((c) => JSON.stringify(c.name)).join(', ');
  await fs.mkdir(path.join(root, 'backlog', 'tasks'), { recursive: true });
  const config = [
    'project_name: "bench"',
    'default_status: "To Do"',
    `statuses: [${statuses}]`,
    'labels: []',
    'date_format: yyyy-mm-dd',
    'max_column_width: 20',
    'auto_open_browser: false',
    'default_port: 6420',
    'remote_operations: false',
    'auto_commit: false',
    'filesystem_only: true',
    'bypass_git_hooks: false',
    'check_active_branches: false',
    'active_branch_days: 30',
    'task_prefix: "task"',
  ];
  await fs.writeFile(path.join(root, 'backlog', 'config.yml'), `${config.join('\n')}\n`);
  const files = cards.map((card, i) => {
    const title = titleOf(card.content);
    const created = card.created.slice(0, 16).replace('T', ' ');
    const body = [
      '---',
      `id: TASK-${i + 1}`,
      `title: ${JSON.stringify(title)}`,
      `status: ${STATUS_NAME.get(card.status) ?? card.status}`,
      'assignee: []',
      `created_date: '${created}'`,
      'labels: []',
      'dependencies: []',
      `ordinal: ${(i + 1) * 1000}`,
      '---',
      '',
      '',
    ].join('\n');
    return { name: `task-${i + 1} - ${title.replace(/[^A-Za-z0-9]+/g, '-')}.md`, body };
  });
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(
      files.slice(i, i + 256).map((f) => fs.writeFile(path.join(root, 'backlog', 'tasks', f.name), f.body)),
    );
  }
}

async function oneCount(
  count: number,
  options: CliBenchOptions,
  peer: { bin: string } | { missing: string },
  temp: string,
): Promise<CliBenchResult> {
  const cards = generateCards(count);
  const middle = Math.floor(count / 2);
  const someId = cards[middle].id;
  const cases: Case[] = [{ tool: 'node', command: 'node -e 0', cwd: temp, argv: () => [process.execPath, '-e', '0'] }];
  const roots: string[] = [];
  const lines: string[] = [];
  for (const kind of options.storages) {
    const root = path.join(temp, `kanban-${kind}-${count}`);
    await fs.mkdir(root, { recursive: true });
    const storage = await prepareStorage(kind);
    await writeWorkspaceConfig(root, storage);
    const started = Date.now();
    if (kind === 'markdown') await seedMarkdownFiles(root, cards);
    else await seedThroughStore(root, storage, cards);
    lines.push(`seeded ${count} ${kind} cards in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const kanban = (...args: string[]) => [process.execPath, CLI, ...args];
    const tool = `kanban (${kind})`;
    lines.push(...firstCalls(root, kind, someId, count));
    cases.push(
      { tool, command: '--version', cwd: root, argv: () => kanban('--version') },
      { tool, command: 'show <id>', cwd: root, argv: () => kanban('show', someId) },
      { tool, command: 'list --limit 20', cwd: root, argv: () => kanban('list', '--limit', '20') },
      { tool, command: 'add <title>', cwd: root, argv: () => kanban('add', 'CLI bench card') },
      {
        tool,
        command: 'move <id> <status>',
        cwd: root,
        argv: (n) => kanban('move', someId, n % 2 ? 'in-progress' : 'review'),
      },
      { tool, command: 'pick --agent <name>', cwd: root, argv: () => kanban('pick', '--agent', 'cli-bench') },
      // The same show with the folder opened in-process every time, as before the board process.
      {
        tool,
        command: 'show <id> (KANBAN_DAEMON=never)',
        cwd: root,
        argv: () => kanban('show', someId),
        env: { KANBAN_DAEMON: 'never' },
      },
    );
    roots.push(root);
  }
  if ('bin' in peer) {
    const root = path.join(temp, `backlog-${count}`);
    const started = Date.now();
    await seedBacklog(root, cards);
    lines.push(
      `seeded ${count} Backlog.md task files (its format, written directly) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const backlog = (...args: string[]) => [peer.bin, ...args];
    const tool = `backlog ${BACKLOG_VERSION}`;
    const taskId = `TASK-${middle + 1}`;
    cases.push(
      { tool, command: '--version', cwd: root, argv: () => backlog('--version') },
      { tool, command: 'task view <id> --plain', cwd: root, argv: () => backlog('task', 'view', taskId, '--plain') },
      {
        tool,
        command: 'task list --plain --limit 20',
        cwd: root,
        argv: () => backlog('task', 'list', '--plain', '--limit', '20'),
      },
      {
        tool,
        command: 'task create <title>',
        cwd: root,
        argv: () => backlog('task', 'create', 'CLI bench card', '--plain'),
      },
      {
        tool,
        command: 'task edit <id> -s <status>',
        cwd: root,
        argv: (n) => backlog('task', 'edit', taskId, '-s', n % 2 ? 'In Progress' : 'Review', '--plain'),
      },
    );
  } else {
    lines.push(`backlog.md: NOT RUN (${peer.missing})`);
  }
  const times = cases.map(() => [] as number[]);
  try {
    cases.forEach((c) => timeProcess(c.argv(0), c.cwd, c.env)); // warm-up, untimed
    for (let run = 1; run <= options.runs; run++)
      cases.forEach((c, i) => times[i].push(timeProcess(c.argv(run), c.cwd, c.env)));
  } finally {
    for (const root of roots) timeProcess([process.execPath, CLI, 'daemon', 'stop'], root);
  }
  const floor = median(times[0]);
  const results = cases.map((c, i) => ({
    cards: count,
    tool: c.tool,
    command: c.command,
    medianMs: median(times[i]),
    timesNodeE0: median(times[i]) / floor,
  }));
  lines.push(
    `${count} cards: median of ${options.runs} after one warm-up, interleaved; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  lines.push('| tool | command | median | x node -e 0 |', '|---|---|---|---|');
  for (const r of results)
    lines.push(`| ${r.tool} | \`${r.command}\` | ${r.medianMs.toFixed(0)} ms | ${r.timesNodeE0.toFixed(2)} |`);
  return { results, lines };
}

/** Runs every count, prints the tables and writes test-output/bench-cli.json. */
export async function runCliBench(options: CliBenchOptions): Promise<CliBenchResult> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (node esbuild.mjs)`);
  if (options.cardCounts.some((n) => n >= 100_000))
    console.log(
      'cli: 100,000 cards is slow (seeding, and every list/show reads the whole folder): expect minutes per storage',
    );
  const peer = ensurePeer();
  const all: CliBenchResult = { results: [], lines: [] };
  for (const count of options.cardCounts) {
    const temp = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-cli-bench-'));
    try {
      const one = await oneCount(count, options, peer, temp);
      for (const line of one.lines) console.log(line);
      console.log('');
      all.results.push(...one.results);
      all.lines.push(...one.lines, '');
    } finally {
      await fs.rm(temp, { recursive: true, force: true });
    }
  }
  const file = path.join(REPO, 'test-output', 'bench-cli.json');
  await fs.mkdir(path.dirname(file), { recursive: true });
  const peerNote = 'bin' in peer ? `backlog.md@${BACKLOG_VERSION}` : `NOT RUN: ${peer.missing}`;
  await fs.writeFile(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs: options.runs, peer: peerNote, results: all.results }, null, 2)}\n`,
  );
  console.log(`results written to ${path.relative(process.cwd(), file)}`);
  return all;
}
