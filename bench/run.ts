import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProviderError } from '../server/storage/providers';
import { generateCards } from './dataset';
import { LIVE_SCENARIOS, parseOptions, USAGE, UsageError, type BenchOptions } from './options';
import { monotonicUs, summariseFile, type TimeWindow } from './profileSummary';
import { formatRun, writeResults, type RunResult } from './report';
import { apiScenarios, pageCursors, runScenario, waitUntilIdle, type ScenarioResult } from './scenarios';
import { seedMarkdownFiles, seedThroughApi, seedThroughStore, type SeedMethod } from './seed';
import { ServerStartError, startServerChild, type ServerChild } from './serverProcess';
import {
  prepareStorage,
  writeWorkspaceConfig,
  type BenchStorage,
  type SharedStorageKind,
  type StorageKind,
} from './storage';
import { runLiveScenario } from './live';
import { FLOOR_SCENARIOS, measureFloor } from './floor';
import { runUiScenario } from './ui';
import { runCliBench } from './cliCommands';
import { mcpListBytesNote, mcpToolsetBytes } from './mcpListBytes';
import { runInstancesBench } from './instances';
import { writeBurst } from './writeBurst';
import { runGitLinksScenario } from './gitLinks';
import { freshMetricsNote, seedYearOfFlow } from './flowHistory';
import { runMcpCallsScenario } from './mcpCalls';
import { isPickScenario, notRun, pickBoardConfig, runPickCliScenario, runPickScenario, type PickOutcome } from './pick';

const PROFILE_DIR = path.join(__dirname, '..', 'test-output', 'profiles');

/** Stretches of each profiled server's life, by its pid, so its profile can be cut per scenario. */
const profileWindows = new Map<number, TimeWindow[]>();

/** A configured storage provider that this build of the server cannot use: not a bench failure. */
class ProviderUnavailable extends Error {}

function serverArgs(options: BenchOptions): string[] {
  return options.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
}

async function startOrExplain(root: string, options: BenchOptions): Promise<ServerChild> {
  try {
    return await startServerChild(root, { nodeArgs: serverArgs(options) });
  } catch (error) {
    if (
      error instanceof ServerStartError &&
      options.storage !== 'markdown' &&
      /provider|storage|sqlite|mysql/i.test(error.output)
    ) {
      const cause =
        error.output
          .trim()
          .split('\n')
          .find((l) => /provider|storage|sqlite|mysql/i.test(l)) ?? error.message;
      throw new ProviderUnavailable(`the server cannot start with card.storage "${options.storage}": ${cause.trim()}`);
    }
    if (error instanceof ServerStartError) throw new Error(`${error.message}; it printed:\n${error.output}`);
    throw error;
  }
}

async function seed(root: string, storage: BenchStorage, count: number, options: BenchOptions): Promise<SeedMethod> {
  let cards = generateCards(count, new Date(), !options.plainCards);
  if (options.scenarios.includes('metrics')) cards = seedYearOfFlow(cards);
  if (storage.kind === 'markdown') {
    await seedMarkdownFiles(root, cards);
    return 'markdown files written directly';
  }
  if (!options.seedThroughApi) {
    try {
      await seedThroughStore(root, storage, cards);
    } catch (error) {
      if (error instanceof ProviderError)
        throw new ProviderUnavailable(`card.storage "${storage.kind}" is not available: ${error.message}`);
      throw error;
    }
    return "the provider's card store, called in the bench process";
  }
  const server = await startOrExplain(root, options);
  try {
    await seedThroughApi(server.baseUrl, cards);
  } finally {
    await server.stop();
  }
  return 'the HTTP API (POST /api/tasks)';
}

/** The whole list once, timed from the request to its last byte. */
async function timeFirstList(server: ServerChild): Promise<number> {
  const started = performance.now();
  // Uncompressed, as the load generator asks: fetch would otherwise ask for gzip.
  const answer = await fetch(`${server.baseUrl}/api/tasks`, { headers: { 'accept-encoding': 'identity' } });
  await answer.arrayBuffer();
  if (!answer.ok) throw new Error(`GET /api/tasks answered ${answer.status}`);
  return performance.now() - started;
}

async function cardIdsOf(server: ServerChild, expected: number): Promise<string[]> {
  // Ids only: at 100,000 cards the full list is about 70 MB.
  const answer = await fetch(`${server.baseUrl}/api/tasks?fields=id`);
  const body = (await answer.json()) as { ok: boolean; data?: { id: string }[]; error?: string };
  if (!body.ok || !body.data) throw new Error(`GET /api/tasks failed: ${body.error}`);
  if (body.data.length !== expected)
    throw new Error(`the server lists ${body.data.length} cards, the bench seeded ${expected}`);
  return body.data.map((task) => task.id);
}

async function runOneCount(count: number, options: BenchOptions): Promise<RunResult> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), `kanban-bench-${count}-`));
  const loadAtStart = os.loadavg()[0];
  let storage: BenchStorage | null = null;
  let server: ServerChild | null = null;
  try {
    storage = await prepareStorage(options.storage).catch((error: Error) => {
      throw new ProviderUnavailable(`cannot prepare ${options.storage} storage: ${error.message}`);
    });
    // The pick scenarios pick from every open column (pickFrom): the default, the columns before
    // in-progress, would leave only the backlog, since the seeding blocks every todo card.
    await writeWorkspaceConfig(
      root,
      storage,
      options.scenarios.some((s) => isPickScenario(s) || s === 'mcp-calls') ? pickBoardConfig() : {},
    );
    const seedStarted = performance.now();
    const seedMethod = await seed(root, storage, count, options);
    const seedMs = performance.now() - seedStarted;
    console.log(
      `seeded ${count} cards in ${(seedMs / 1000).toFixed(1)} s (${options.plainCards ? 'plain: no checklists or blockers' : 'one in ten with a checklist, one in five blocked'}) through ${seedMethod}; starting the server`,
    );
    server = await startOrExplain(root, options);
    const firstStartupMs = server.startupMs;
    profileWindows.set(server.pid, [
      {
        name: `start-up with ${count} cards`,
        startUs: server.spawnedAtUs,
        endUs: server.spawnedAtUs + server.startupMs * 1000,
      },
    ]);
    const ids = await cardIdsOf(server, count);
    // A second start over the same folder: the markdown store's index cache (written after the first load) makes it cheaper.
    const restartMs = await restart(root, options, server).then((restarted) => {
      server = restarted;
      return restarted.startupMs;
    });
    profileWindows.set(server.pid, [
      {
        name: `restart with ${count} cards`,
        startUs: server.spawnedAtUs,
        endUs: server.spawnedAtUs + server.startupMs * 1000,
      },
    ]);
    const firstListMs = await timeFirstList(server);
    const scenarios: ScenarioResult[] = [];
    const notes: string[] = [];
    const load = { connections: options.connections, durationSeconds: options.durationSeconds };
    const windows = profileWindows.get(server.pid)!;
    const target = {
      baseUrl: server.baseUrl,
      cpuMs: server.cpuMs,
      idleProbePath: `/api/tasks/${encodeURIComponent(ids[0])}`,
    };
    const cursors = options.scenarios.includes('page-50') ? await pageCursors(server.baseUrl) : [''];
    for (const scenario of apiScenarios(ids, cursors).filter((s) => options.scenarios.includes(s.name))) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      const afterWrites = options.writesBeforeReads > 0 && FLOOR_SCENARIOS.includes(scenario.name);
      if (afterWrites) await writeBurst(target.baseUrl, options.writesBeforeReads, options.connections);
      process.stdout.write(
        `  ${scenario.name}${afterWrites ? ` (right after ${options.writesBeforeReads} creates)` : ''} ... `,
      );
      const startUs = monotonicUs();
      const result = await runScenario(target, scenario, load);
      windows.push({ name: `${scenario.name} with ${count} cards`, startUs, endUs: monotonicUs() });
      console.log(
        result.failure
          ? `NOT RUN: ${result.failure}`
          : `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms`,
      );
      scenarios.push(result);
      if (options.floor && !result.failure && FLOOR_SCENARIOS.includes(scenario.name)) {
        process.stdout.write(`  ${scenario.name} floor ... `);
        const floor = await measureFloor(target, scenario, result, load, count);
        console.log(floor.note);
        scenarios.push(floor.result);
        notes.push(floor.note);
      }
    }
    if (options.scenarios.includes('metrics')) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      process.stdout.write('  metrics after a change ... ');
      const note = await freshMetricsNote(target.baseUrl, ids[0]);
      console.log(note);
      notes.push(note);
    }
    for (const name of LIVE_SCENARIOS.filter((s) => options.scenarios.includes(s))) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      process.stdout.write(`  ${name} ... `);
      const startUs = monotonicUs();
      const outcome = await runLiveScenario(name, { root, target, ids, load });
      windows.push({ name: `${name} with ${count} cards`, startUs, endUs: monotonicUs() }, ...(outcome.windows ?? []));
      console.log(outcome.failure ? `NOT RUN: ${outcome.failure}` : outcome.notes.join('; '));
      scenarios.push(...outcome.results);
      notes.push(...outcome.notes);
    }
    if (options.scenarios.includes('git-links')) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      process.stdout.write(`  git-links (${count} cards) ... `);
      const startUs = monotonicUs();
      const outcome = await runGitLinksScenario({ root, target, ids, load });
      windows.push({ name: `git-links with ${count} cards`, startUs, endUs: monotonicUs() });
      console.log(outcome.failure ? `NOT RUN: ${outcome.failure}` : outcome.notes.join('; '));
      scenarios.push(...outcome.results);
      notes.push(...outcome.notes);
    }
    if (options.scenarios.includes('pick')) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      process.stdout.write(`  pick (${count} cards) ... `);
      const startUs = monotonicUs();
      const outcome = await runPickScenario(target, options.durationSeconds);
      windows.push({ name: `pick with ${count} cards`, startUs, endUs: monotonicUs() });
      console.log(outcome.failure ? `NOT RUN: ${outcome.failure}` : outcome.notes.join('; '));
      scenarios.push(...outcome.results);
      notes.push(...outcome.notes);
    }
    if (options.scenarios.includes('pick-cli')) {
      process.stdout.write(`  pick-cli (${count} cards, a folder of its own) ... `);
      const outcome = await pickCliOnItsOwnFolder(count, options);
      console.log(outcome.failure ? `NOT RUN: ${outcome.failure}` : outcome.notes.join('; '));
      scenarios.push(...outcome.results);
      notes.push(...outcome.notes);
    }
    if (options.scenarios.includes('mcp-calls')) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      process.stdout.write(`  mcp-calls (${count} cards) ... `);
      const outcome = await runMcpCallsScenario(target.baseUrl, root, count);
      console.log(outcome.failure ? `NOT RUN: ${outcome.failure}` : outcome.notes.join('; '));
      scenarios.push(...outcome.results);
      notes.push(...outcome.notes);
    }
    notes.push(await mcpListBytesNote(target.baseUrl));
    // Last: its drags move cards, which the scenarios above must not see.
    if (options.scenarios.includes('ui')) {
      await waitUntilIdle(target.baseUrl, target.idleProbePath);
      process.stdout.write('  ui (Chromium) ... ');
      const startUs = monotonicUs();
      const outcome = await runUiScenario(target.baseUrl);
      windows.push({ name: `ui with ${count} cards`, startUs, endUs: monotonicUs() });
      console.log(outcome.failure ? `NOT RUN: ${outcome.failure}` : outcome.notes.join('; '));
      scenarios.push(...outcome.results);
      notes.push(...outcome.notes);
    }
    const rssMb = await server.rssMb();
    const loadAverage = { start: loadAtStart, end: os.loadavg()[0] };
    return {
      cards: count,
      storage: options.storage,
      seedMethod,
      seedMs,
      startupMs: firstStartupMs,
      restartMs,
      firstListMs,
      rssMb,
      ...load,
      loadAverage,
      scenarios,
      notes,
    };
  } finally {
    await server?.stop();
    await fs.rm(root, { recursive: true, force: true });
    await storage?.dispose();
  }
}

/**
 * `pick-cli` on a folder seeded like the server's but served by no server (the CLI refuses to write
 * a folder a server serves): the same cards, the same storage kind (a database of its own for mysql).
 */
async function pickCliOnItsOwnFolder(count: number, options: BenchOptions): Promise<PickOutcome> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `kanban-bench-pick-cli-${count}-`));
  let storage: BenchStorage | null = null;
  try {
    storage = await prepareStorage(options.storage);
    await writeWorkspaceConfig(dir, storage, pickBoardConfig());
    await seed(dir, storage, count, options);
    return await runPickCliScenario(dir, storage.kind === 'markdown');
  } catch (error) {
    return notRun('pick-cli', (error as Error).message);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    await storage?.dispose();
  }
}

const CARD_INDEX_CACHE = path.join('.kanban', '.state', 'card-index.json');

/** Stop the server once the markdown store has written its index cache, and start it again. */
async function restart(root: string, options: BenchOptions, server: ServerChild): Promise<ServerChild> {
  if (options.storage === 'markdown') {
    const deadline = performance.now() + 300_000;
    while (!(await fs.stat(path.join(root, CARD_INDEX_CACHE)).catch(() => null))) {
      if (performance.now() > deadline) throw new Error('the server wrote no card index cache within 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await server.stop();
  return startOrExplain(root, options);
}

async function printProfiles(): Promise<void> {
  const files = await fs.readdir(PROFILE_DIR).catch(() => [] as string[]);
  for (const [pid, windows] of profileWindows) {
    // node names profiles CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile
    const name = files.find((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(pid));
    if (name) console.log(`\n${await summariseFile(path.join(PROFILE_DIR, name), windows)}`);
    else console.log(`\nno CPU profile found for server pid ${pid} in ${PROFILE_DIR}`);
  }
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (error.message) console.error(`bench: ${error.message}`);
    console.log(USAGE);
    return error.message ? 2 : 0;
  }
  if (options.instances !== null) {
    const cards = options.cardsGiven ? options.cardCounts[0] : 1_000;
    return runInstancesBench({
      storages: options.storages as SharedStorageKind[],
      instances: options.instances,
      cards,
      connections: options.connections,
      durationSeconds: options.durationSeconds,
    });
  }
  if (options.scenarios.includes('mcp-tools')) {
    const { lines, overBudget } = await mcpToolsetBytes();
    for (const line of lines) console.log(line);
    // Alone, it needs no seeded server: the other scenarios are not run.
    if (options.scenarios.every((s) => s === 'mcp-tools')) return overBudget ? 1 : 0;
  }
  if (options.scenarios.includes('cli')) {
    const storages: StorageKind[] = options.storageGiven ? [options.storage] : ['markdown', 'sqlite'];
    await runCliBench({ cardCounts: options.cardCounts, storages, runs: options.cliRuns });
    // It needs no server: alone (or with mcp-tools), the server scenarios are not run.
    if (options.scenarios.every((s) => s === 'cli' || s === 'mcp-tools')) return 0;
  }
  const runs: RunResult[] = [];
  try {
    for (const count of options.cardCounts) runs.push(await runOneCount(count, options));
  } catch (error) {
    if (error instanceof ProviderUnavailable) {
      console.error(`bench: ${error.message}`);
      return 3;
    }
    throw error;
  }
  for (const run of runs) console.log(`\n${formatRun(run)}`);
  console.log(`results written to ${path.relative(process.cwd(), await writeResults(options.storage, runs))}`);
  if (options.profile) await printProfiles();
  const failed = runs.some((run) =>
    run.scenarios.some((s) => s.failure || s.non2xx > 0 || s.errors > 0 || (s.doubleClaims ?? 0) > 0),
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`bench: ${(error as Error).stack ?? error}`);
    process.exit(1);
  },
);
