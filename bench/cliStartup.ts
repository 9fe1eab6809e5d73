// `tsx bench/cliStartup.ts [--cli dist/cli.js]... [--runs 7] [--cards 1000]`: how long a whole
// `kanban` process takes, beside `node -e 0` (the floor no command can beat), over a seeded folder.
// Several --cli paths are measured in the same loop, so a before/after comparison shares the load.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateCards } from './dataset';
import { seedMarkdownFiles } from './seed';
import { prepareStorage, writeWorkspaceConfig } from './storage';

interface Case {
  label: string;
  argv: string[];
}

function parseArgs(argv: string[]): { clis: string[]; runs: number; cards: number } {
  const clis: string[] = [];
  let runs = 7;
  let cards = 1000;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cli') clis.push(path.resolve(argv[++i]));
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--cards') cards = Number(argv[++i]);
    else throw new Error(`unknown flag ${argv[i]}`);
  }
  return { clis: clis.length ? clis : [path.resolve('dist/cli.js')], runs, cards };
}

/** Wall time of one whole process, from spawn to exit, in milliseconds. */
function timeProcess(argv: string[], cwd: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const { clis, runs, cards } = parseArgs(process.argv.slice(2));
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-cli-startup-'));
  try {
    const generated = generateCards(cards);
    await writeWorkspaceConfig(root, await prepareStorage('markdown'));
    await seedMarkdownFiles(root, generated);
    const someId = generated[Math.floor(cards / 2)].id;
    // Writes too: each add makes a card, each pick claims the next one, move moves one card back and forth.
    const commands = [
      ['--version'],
      ['--help'],
      ['list', '--limit', '20'],
      ['list'],
      ['show', someId],
      ['add', 'Startup bench card'],
      ['move', someId, 'review'],
      ['pick', '--agent', 'startup-bench'],
    ];
    const cases: Case[] = [{ label: 'node -e 0', argv: ['-e', '0'] }];
    for (const cli of clis) {
      for (const command of commands)
        cases.push({
          label: `${path.join(path.basename(path.dirname(cli)), path.basename(cli))} ${command.join(' ')}`.replace(
            someId,
            '<id>',
          ),
          argv: [cli, ...command],
        });
    }
    const times = new Map(cases.map((c) => [c.label, [] as number[]]));
    for (const c of cases) timeProcess(c.argv, root); // warm the file cache, untimed
    for (let run = 0; run < runs; run++) for (const c of cases) times.get(c.label)!.push(timeProcess(c.argv, root));
    const floor = median(times.get('node -e 0')!);
    console.log(
      `${cards} cards, median of ${runs}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log('| process | median | x node -e 0 |\n|---|---|---|');
    for (const c of cases) {
      const m = median(times.get(c.label)!);
      console.log(`| \`${c.label}\` | ${m.toFixed(0)} ms | ${(m / floor).toFixed(2)} |`);
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
