import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { COLUMN_IDS } from './dataset';
import type { ScenarioResult, Target } from './scenarios';
import { waitUntilIdle } from './scenarios';

/**
 * Agents picking work, measured only when named:
 * - `pick` (`--only pick`): 50 agents, each a concurrent client with its own connection and
 *   `X-Kanban-Agent: bench-agent-<i>`, looping `POST /api/tasks/pick` with a short lease for the
 *   scenario's duration (or until nothing is pickable) against the server;
 * - `pick-cli` (`--only pick-cli`): 8 `kanban pick --dir <folder> --agent cli-<i> --json` loops at
 *   once, each a new node process that opens the folder itself (no server serves that folder).
 * Both count double claims from the answers alone: a card answered to two different agents while
 * the first answer's lease (`claim.until`) still ran. It must be 0.
 */

/** The ready columns of the bench board: every column but the last (`pickFrom` in `.kanban.json`). */
export const PICK_FROM = COLUMN_IDS.slice(0, -1);
export const PICK_AGENTS = 50;
/** Short, so claims run out during the run and their cards are picked again: the lease boundary is exercised. */
export const PICK_TTL_SECONDS = 2;
const SERIAL_PICKS = 100;
const SERIAL_MAX_MS = 1500;
export const CLI_PICKERS = 8;
export const CLI_PICKS_EACH = 5;
const CLI_SERIAL_PICKS = 3;
/** Picks one at a time before the warm ones, at most, while the card index cache is not written yet. */
const COLD_PICKS_MAX = 8;
const NODE_FLOOR_RUNS = 5;
const CLI_SCRIPT = path.join(__dirname, '..', 'dist', 'cli.js');

/** `.kanban.json` additions for the pick scenarios: the default board picking from every open column. */
export function pickBoardConfig(): Record<string, unknown> {
  return { boards: [{ id: 'default', name: 'Default', pickFrom: PICK_FROM }] };
}

export function isPickScenario(name: string): boolean {
  return name === 'pick' || name === 'pick-cli';
}

/** One card handed to an agent, as the answer said. */
interface PickAnswer {
  card: string;
  agent: string;
  since: number;
  until: number;
}

export interface PickOutcome {
  results: ScenarioResult[];
  notes: string[];
  failure?: string;
}

const quantile = (times: number[], q: number) =>
  times.length ? [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * q))] : 0;

/**
 * Cards answered to two different agents while the earlier answer's lease still ran (the later
 * claim's `since` before the earlier one's `until`), and the same over one agent (pick must not hand
 * a caller a card it already holds either). Counted per card.
 */
export function countDoubleClaims(answers: PickAnswer[]): {
  doubleClaims: number;
  repeats: number;
  cardsPicked: number;
  pickedAgain: number;
} {
  const byCard = new Map<string, PickAnswer[]>();
  for (const answer of answers) {
    const list = byCard.get(answer.card);
    if (list) list.push(answer);
    else byCard.set(answer.card, [answer]);
  }
  let doubleClaims = 0;
  let repeats = 0;
  let pickedAgain = 0;
  for (const list of byCard.values()) {
    if (list.length < 2) continue;
    pickedAgain++;
    list.sort((a, b) => a.since - b.since);
    let double = false;
    let repeat = false;
    for (let j = 1; j < list.length; j++) {
      for (let i = 0; i < j; i++) {
        if (list[j].since >= list[i].until) continue;
        if (list[j].agent !== list[i].agent) double = true;
        else repeat = true;
      }
    }
    if (double) doubleClaims++;
    if (repeat) repeats++;
  }
  return { doubleClaims, repeats, cardsPicked: byCard.size, pickedAgain };
}

function answerOf(text: string, agent: string): PickAnswer | string {
  type Answered = { id?: string; boardId?: string; claim?: { agent?: string; since?: string; until?: string } | null };
  let body: Answered & { ok?: boolean; data?: Answered };
  try {
    body = JSON.parse(text);
  } catch {
    return `non-JSON answer: ${text.slice(0, 200)}`;
  }
  // REST answers {ok, data: card}; `kanban pick --json` prints the card itself.
  const card = body.ok === true ? body.data : body.ok === undefined ? body : undefined;
  const claim = card?.claim;
  if (!card?.id || !claim?.since || !claim.until)
    return `an answer without a card and its claim: ${text.slice(0, 200)}`;
  if (claim.agent !== agent) return `picked for ${agent}, the answer's claim names ${claim.agent}`;
  return { card: `${card.boardId}/${card.id}`, agent, since: Date.parse(claim.since), until: Date.parse(claim.until) };
}

/** Cards pick may choose now: ready (not blocked, not in the last column) in the `pickFrom` columns. */
export async function countPickable(baseUrl: string): Promise<number> {
  const answer = await fetch(`${baseUrl}/api/tasks?ready=true&fields=id,status`);
  const body = (await answer.json()) as { ok: boolean; data?: { status: string }[]; error?: string };
  if (!body.ok || !body.data) throw new Error(`GET /api/tasks?ready=true failed: ${body.error}`);
  return body.data.filter((card) => PICK_FROM.includes(card.status)).length;
}

interface Picked {
  status: number;
  ms: number;
  text: string;
}

function postPick(agent: http.Agent, baseUrl: string, name: string): Promise<Picked> {
  const body = JSON.stringify({ ttlSeconds: PICK_TTL_SECONDS });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/api/tasks/pick`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-kanban-agent': name } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `pick`: 50 agents against the server. */
export async function runPickScenario(target: Target, durationSeconds: number): Promise<PickOutcome> {
  const pickable = await countPickable(target.baseUrl);
  if (pickable < PICK_AGENTS)
    return notRun('pick', `only ${pickable} pickable cards, fewer than the ${PICK_AGENTS} agents`);
  const answers: PickAnswer[] = [];
  const problems: string[] = [];
  let non2xx = 0;
  let errors = 0;
  let nothingLeft = 0;
  let sample = '';

  // One agent alone first: the service time of a pick without queueing behind the others.
  const serial: number[] = [];
  {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const deadline = performance.now() + SERIAL_MAX_MS;
    try {
      for (let n = 0; n < SERIAL_PICKS && performance.now() < deadline; n++) {
        const picked = await postPick(agent, target.baseUrl, 'bench-agent-0');
        if (picked.status !== 200)
          return notRun('pick', `a first pick answered ${picked.status}: ${picked.text.slice(0, 200)}`);
        const answer = answerOf(picked.text, 'bench-agent-0');
        if (typeof answer === 'string') return notRun('pick', answer);
        if (!sample) sample = `${(picked.text.length / 1024).toFixed(1)} KB`;
        answers.push(answer);
        serial.push(picked.ms);
      }
    } finally {
      agent.destroy();
    }
  }

  const latencies: number[] = [];
  const cpuBefore = await target.cpuMs();
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  const client = async (i: number) => {
    const name = `bench-agent-${i}`;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (performance.now() < deadline) {
        let picked: Picked;
        try {
          picked = await postPick(agent, target.baseUrl, name);
        } catch (error) {
          errors++;
          if (problems.length < 3) problems.push(`${name}: ${(error as Error).message}`);
          continue;
        }
        if (picked.status === 204) {
          nothingLeft++;
          return;
        }
        latencies.push(picked.ms);
        if (picked.status !== 200) {
          non2xx++;
          if (problems.length < 3) problems.push(`${name}: ${picked.status} ${picked.text.slice(0, 160)}`);
          continue;
        }
        const answer = answerOf(picked.text, name);
        if (typeof answer === 'string') {
          errors++;
          if (problems.length < 3) problems.push(`${name}: ${answer}`);
        } else answers.push(answer);
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: PICK_AGENTS }, (_, i) => client(i)));
  const elapsedS = (performance.now() - started) / 1000;
  await waitUntilIdle(target.baseUrl, target.idleProbePath);
  const cpuMs = (await target.cpuMs()) - cpuBefore;

  const counted = countDoubleClaims(answers);
  const picks = latencies.length;
  const result: ScenarioResult = {
    scenario: 'pick',
    requestsPerSecond: picks / elapsedS,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    requests: picks,
    non2xx,
    errors,
    timeouts: 0,
    serialP50Ms: quantile(serial, 0.5),
    cpuMsPerRequest: cpuMs / Math.max(1, picks),
    sample: `${sample}, ${counted.doubleClaims} double claims`,
    doubleClaims: counted.doubleClaims,
    details: {
      agents: PICK_AGENTS,
      ttlSeconds: PICK_TTL_SECONDS,
      pickableAtStart: pickable,
      seconds: elapsedS,
      serialPicks: serial.length,
      cardsPicked: counted.cardsPicked,
      pickedAgainAfterLease: counted.pickedAgain,
      sameAgentRepeats: counted.repeats,
      agentsStoppedOnNothing: nothingLeft,
    },
  };
  const note =
    `pick: ${PICK_AGENTS} agents (bench-agent-<i>, each its own connection) looping POST /api/tasks/pick with ttlSeconds ${PICK_TTL_SECONDS}, ` +
    `${pickable.toLocaleString('en-US')} cards pickable at the start (pickFrom ${PICK_FROM.join(', ')}; the other open cards are blocked); ` +
    `${picks.toLocaleString('en-US')} picks in ${elapsedS.toFixed(1)} s: ${result.requestsPerSecond.toFixed(0)} picks/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms ` +
    `(one agent alone: p50 ${result.serialP50Ms.toFixed(2)} ms over ${serial.length} picks), ${result.cpuMsPerRequest.toFixed(2)} ms of server CPU per pick; ` +
    `${counted.cardsPicked.toLocaleString('en-US')} cards picked, ${counted.pickedAgain.toLocaleString('en-US')} of them again after their lease ran out; ` +
    `double claims (from the answers' since/until): ${counted.doubleClaims} (must be 0: ${counted.doubleClaims === 0 ? 'ok' : 'MISS'})` +
    `${counted.repeats ? `; the same card answered twice to one agent within its lease: ${counted.repeats}` : ''}` +
    `${nothingLeft ? `; ${nothingLeft} agents stopped on 204 (nothing pickable)` : ''}` +
    `${problems.length ? `; problems: ${problems.join(' | ')}` : ''}`;
  return { results: [result], notes: [note] };
}

interface Ran {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
}

/** Environment for a child: none of the caller's KANBAN_* settings (a URL, a workspace, an agent). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('KANBAN_')));
}

function runNode(args: string[]): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, stdout, stderr }));
  });
}

const cliPick = (dir: string, agent: string) => runNode([CLI_SCRIPT, 'pick', '--dir', dir, '--agent', agent, '--json']);

/**
 * `pick-cli`: on `dir`, a folder no server serves (seeded like the server's), first a few picks one
 * at a time, then 8 pickers at once, each `CLI_PICKS_EACH` picks in a row; every pick a new
 * `node dist/cli.js pick` process, timed from spawn to exit. Then `node -e 0` the same ways: the floor.
 */
export async function runPickCliScenario(dir: string, markdown: boolean): Promise<PickOutcome> {
  const answers: PickAnswer[] = [];
  const problems: string[] = [];
  let failed = 0;
  let nothingLeft = 0;
  let sample = '';
  const take = (ran: Ran, agent: string): boolean => {
    if (ran.code === 3) {
      nothingLeft++;
      return false;
    }
    const answer =
      ran.code === 0
        ? answerOf(ran.stdout, agent)
        : `exit ${ran.code}: ${(ran.stderr || ran.stdout).trim().slice(0, 200)}`;
    if (typeof answer === 'string') {
      failed++;
      if (problems.length < 3) problems.push(`${agent}: ${answer}`);
      return false;
    }
    if (!sample) sample = `${(ran.stdout.length / 1024).toFixed(1)} KB`;
    answers.push(answer);
    return true;
  };

  // A pick on a folder without the markdown store's card index cache reads every card file, and
  // then writes the cache after answering, which a CLI process often leaves unfinished when it
  // exits. Picked one at a time until the cache is there (at most COLD_PICKS_MAX), timed on their own.
  const cold: number[] = [];
  let cached = false;
  while (markdown && !cached && cold.length < COLD_PICKS_MAX) {
    const ran = await cliPick(dir, 'cli-serial');
    if (!take(ran, 'cli-serial')) return notRun('pick-cli', problems[0] ?? `kanban pick exited ${ran.code}`);
    cold.push(ran.ms);
    cached = await waitForIndexCache(dir);
  }
  const serial: number[] = [];
  for (let n = 0; n < CLI_SERIAL_PICKS; n++) {
    const ran = await cliPick(dir, 'cli-serial');
    if (!take(ran, 'cli-serial')) return notRun('pick-cli', problems[0] ?? `kanban pick exited ${ran.code}`);
    serial.push(ran.ms);
  }

  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLI_PICKERS }, async (_, i) => {
      const agent = `cli-${i}`;
      for (let n = 0; n < CLI_PICKS_EACH; n++) {
        const ran = await cliPick(dir, agent);
        times.push(ran.ms);
        if (!take(ran, agent) && ran.code === 3) return;
      }
    }),
  );
  const elapsedS = (performance.now() - started) / 1000;

  // The floor: a node process that does nothing, alone and 8 at once, in this same run.
  const floorSerial: number[] = [];
  for (let n = 0; n < NODE_FLOOR_RUNS; n++) floorSerial.push((await runNode(['-e', '0'])).ms);
  const floorConcurrent: number[] = [];
  await Promise.all(
    Array.from({ length: CLI_PICKERS }, async () => {
      for (let n = 0; n < CLI_PICKS_EACH; n++) floorConcurrent.push((await runNode(['-e', '0'])).ms);
    }),
  );

  const counted = countDoubleClaims(answers);
  const result: ScenarioResult = {
    scenario: 'pick-cli',
    requestsPerSecond: times.length / elapsedS,
    p50Ms: quantile(times, 0.5),
    p99Ms: quantile(times, 0.99),
    requests: times.length,
    non2xx: failed,
    errors: 0,
    timeouts: 0,
    serialP50Ms: quantile(serial, 0.5),
    cpuMsPerRequest: 0,
    sample: `${sample}, ${counted.doubleClaims} double claims`,
    doubleClaims: counted.doubleClaims,
    details: {
      pickers: CLI_PICKERS,
      picksEach: CLI_PICKS_EACH,
      seconds: elapsedS,
      coldPicks: cold.length,
      coldPickP50Ms: quantile(cold, 0.5),
      indexCacheWritten: cached ? 1 : 0,
      nodeFloorP50Ms: quantile(floorSerial, 0.5),
      nodeFloorConcurrentP50Ms: quantile(floorConcurrent, 0.5),
      nodeFloorConcurrentP99Ms: quantile(floorConcurrent, 0.99),
      cardsPicked: counted.cardsPicked,
      sameAgentRepeats: counted.repeats,
      nothingToPick: nothingLeft,
    },
  };
  const note =
    `pick-cli: ${CLI_PICKERS} pickers at once (node dist/cli.js pick --dir <folder> --agent cli-<i> --json, a new process per pick, no server on the folder), ` +
    `${CLI_PICKS_EACH} picks each: ${times.length} picks in ${elapsedS.toFixed(1)} s, wall time per pick p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms; ` +
    `one picker alone: ${markdown ? `${cold.length} pick(s) until the card index cache was ${cached ? 'written' : 'NOT written'} (each reads every card file): ${cold.map((t) => t.toFixed(0)).join(', ')} ms, then ` : ''}` +
    `p50 ${result.serialP50Ms.toFixed(0)} ms over ${serial.length} picks (${serial.map((t) => t.toFixed(0)).join(', ')} ms); ` +
    `floor, node -e 0 in this run: alone p50 ${quantile(floorSerial, 0.5).toFixed(0)} ms, ${CLI_PICKERS} at once p50 ${quantile(floorConcurrent, 0.5).toFixed(0)} ms, p99 ${quantile(floorConcurrent, 0.99).toFixed(0)} ms; ` +
    `${counted.cardsPicked} cards picked; double claims (from the answers' since/until): ${counted.doubleClaims} (must be 0: ${counted.doubleClaims === 0 ? 'ok' : 'MISS'})` +
    `${counted.repeats ? `; the same card answered twice to one agent within its lease: ${counted.repeats}` : ''}` +
    `${nothingLeft ? `; ${nothingLeft} picks found nothing pickable (exit 3)` : ''}` +
    `${problems.length ? `; problems: ${problems.join(' | ')}` : ''}`;
  return { results: [result], notes: [note] };
}

/** Whether the markdown store's card index cache is there (within 1 s): later processes load it instead of every file. */
async function waitForIndexCache(dir: string): Promise<boolean> {
  const file = path.join(dir, '.kanban', '.state', 'card-index.json');
  const deadline = performance.now() + 1_000;
  while (performance.now() < deadline) {
    if (await fs.stat(file).catch(() => null)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

export function notRun(scenario: string, reason: string): PickOutcome {
  const failed: ScenarioResult = {
    scenario,
    requestsPerSecond: 0,
    p50Ms: 0,
    p99Ms: 0,
    requests: 0,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    serialP50Ms: 0,
    cpuMsPerRequest: 0,
    sample: '',
    failure: reason,
  };
  return { results: [failed], notes: [], failure: reason };
}
