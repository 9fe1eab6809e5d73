/**
 * Start-up over one kept folder: `npx tsx bench/startupFolder.ts --dir <folder> [--cards 100000]`.
 * Seeds the folder the first time (markdown files written directly, as `npm run bench` does), then
 * times a first start without the card index cache, restarts from it, and the server's RSS after the
 * bench's warm-up (the ids, the whole list, the `get` scenario). Over one folder, so builds compared
 * back to back read the same files; `--node-arg` passes a flag to the server's node (`--cpu-prof`).
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateCards } from './dataset';
import { seedMarkdownFiles } from './seed';
import { startServerChild, type ServerChild } from './serverProcess';
import { apiScenarios, runScenario, waitUntilIdle } from './scenarios';
import { prepareStorage, writeWorkspaceConfig } from './storage';

interface Options {
  dir: string;
  cards: number;
  restarts: number;
  cold: boolean;
  warmup: boolean;
  nodeArgs: string[];
  scripts: (string | undefined)[];
  rounds: number;
}

function parse(argv: string[]): Options {
  const options: Options = {
    dir: '',
    cards: 100_000,
    restarts: 2,
    cold: true,
    warmup: true,
    nodeArgs: [],
    scripts: [],
    rounds: 1,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--dir') options.dir = path.resolve(argv[++i]);
    else if (flag === '--cards') options.cards = Number(argv[++i]);
    else if (flag === '--restarts') options.restarts = Number(argv[++i]);
    else if (flag === '--rounds') options.rounds = Number(argv[++i]);
    else if (flag === '--no-cold') options.cold = false;
    else if (flag === '--no-warmup') options.warmup = false;
    else if (flag === '--server') options.scripts.push(path.resolve(argv[++i]));
    else if (flag === '--node-arg') options.nodeArgs.push(argv[++i]);
    else throw new Error(`unknown option ${flag}`);
  }
  if (!options.dir) throw new Error('--dir <folder> is required');
  return options;
}

const CACHE = path.join('.kanban', '.state', 'card-index.json');

async function seedOnce(options: Options): Promise<void> {
  if (await fs.stat(path.join(options.dir, '.kanban', 'boards')).catch(() => null)) return;
  await fs.mkdir(options.dir, { recursive: true });
  const started = performance.now();
  await writeWorkspaceConfig(options.dir, await prepareStorage('markdown'));
  await seedMarkdownFiles(options.dir, generateCards(options.cards));
  console.log(`seeded ${options.cards} cards in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Wait until the store has written its cache after a load that read files. */
async function cacheWritten(root: string, after: number): Promise<void> {
  for (;;) {
    const stat = await fs.stat(path.join(root, CACHE)).catch(() => null);
    if (stat && stat.mtimeMs > after) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function warmUp(server: ServerChild): Promise<string> {
  const ids = ((await (await fetch(`${server.baseUrl}/api/tasks?fields=id`)).json()) as { data: { id: string }[] })
    .data;
  const rss = [`ids ${(await server.rssMb()).toFixed(0)}`];
  const asked = performance.now();
  const whole = await fetch(`${server.baseUrl}/api/tasks`, { headers: { 'accept-encoding': 'identity' } });
  await whole.arrayBuffer();
  const listMs = performance.now() - asked;
  rss.push(`whole list ${(await server.rssMb()).toFixed(0)} (its first answer ${listMs.toFixed(0)} ms)`);
  const probe = `/api/tasks/${encodeURIComponent(ids[0].id)}`;
  const target = { baseUrl: server.baseUrl, cpuMs: server.cpuMs, idleProbePath: probe };
  const get = apiScenarios(ids.map((t) => t.id)).find((s) => s.name === 'get')!;
  await waitUntilIdle(server.baseUrl, probe);
  const result = await runScenario(target, get, { connections: 10, durationSeconds: 5 });
  return `RSS MB after ${rss.join(', ')}; get ${result.requestsPerSecond.toFixed(0)} req/s`;
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  await seedOnce(options);
  const load = () => os.loadavg()[0].toFixed(2);
  const scripts = options.scripts.length ? options.scripts : [undefined];
  const start = async (label: string, script: string | undefined) => {
    const before = load();
    const server = await startServerChild(options.dir, { nodeArgs: options.nodeArgs, script });
    const cpu = await server.cpuMs();
    console.log(
      `${label}: ${server.startupMs.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms), RSS ${(await server.rssMb()).toFixed(0)} MB (load ${before}-${load()})`,
    );
    return server;
  };
  // Builds alternate round by round, so a change of the machine's load weighs on each alike.
  for (let round = 1; round <= options.rounds; round++) {
    for (const script of scripts) {
      const name = script ? path.relative(process.cwd(), script) : 'dist/server.js';
      if (options.cold) {
        await fs.rm(path.join(options.dir, CACHE), { force: true });
        const spawned = Date.now();
        const server = await start(`${name} first start, no cache`, script);
        await cacheWritten(options.dir, spawned);
        await server.stop();
      }
      for (let i = 1; i <= options.restarts; i++) {
        const server = await start(`${name} restart ${i}`, script);
        if (i === options.restarts && options.warmup) {
          const note = await warmUp(server);
          console.log(`${name} after warm-up (${note}): RSS ${(await server.rssMb()).toFixed(0)} MB (load ${load()})`);
        }
        await server.stop();
      }
    }
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
