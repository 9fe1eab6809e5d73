// `tsx bench/uiGraph.ts [--cards 2000] [--runs 5]`: the graph view's first render in Chromium over a
// board whose every card is linked (groups of ten: a parent, sub-cards, and a chain of blockers),
// from navigation to `?layout=graph` until every node is drawn. Needs `node esbuild.mjs` first.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { startServerChild } from './serverProcess';

const CHROMIUM = '/usr/bin/chromium';
const GROUP = 10;
const PARALLEL = 8;

function parseArgs(argv: string[]): { cards: number; runs: number } {
  let cards = 2000;
  let runs = 5;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cards') cards = Number(argv[++i]);
    else if (argv[i] === '--runs') runs = Number(argv[++i]);
    else throw new Error(`unknown flag ${argv[i]}`);
  }
  return { cards, runs };
}

async function create(baseUrl: string, body: Record<string, unknown>): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/tasks`, { method: 'POST', body: JSON.stringify(body) });
  if (answer.status !== 201) throw new Error(`create failed: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { data: { id: string } }).data.id;
}

/** One group: a parent, then sub-cards each blocked by the one before (every card has a link). */
async function seedGroup(baseUrl: string, group: number): Promise<void> {
  const parent = await create(baseUrl, { content: `# Release ${group}\n`, status: 'todo' });
  let previous: string | null = null;
  for (let i = 1; i < GROUP; i++) {
    const status = i < 3 ? 'done' : i < 5 ? 'in-progress' : 'todo';
    previous = await create(baseUrl, {
      content: `# Step ${i} of release ${group}\n`,
      status,
      parent,
      ...(previous ? { blockedBy: [previous] } : {}),
    });
  }
}

async function main(): Promise<void> {
  const { cards, runs } = parseArgs(process.argv.slice(2));
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-bench-graph-'));
  const server = await startServerChild(root);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const groups = Math.ceil(cards / GROUP);
    for (let next = 0; next < groups; next += PARALLEL) {
      const batch = Array.from({ length: Math.min(PARALLEL, groups - next) }, (_, i) => next + i);
      await Promise.all(batch.map((group) => seedGroup(server.baseUrl, group)));
    }
    const total = groups * GROUP;
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const started = performance.now();
      await page.goto(`${server.baseUrl}/?layout=graph`);
      await page.waitForFunction(
        (count) => document.querySelectorAll('[data-testid="graph-view"] .graph-node').length === count,
        total,
        { timeout: 120_000, polling: 'raf' },
      );
      times.push(performance.now() - started);
      await page.close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `ui-graph: first render of the graph view, ${total} linked cards (${groups} groups), navigation to every node drawn: ` +
        `median ${median.toFixed(0)} ms over ${runs} cold loads (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`,
    );
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(root, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
