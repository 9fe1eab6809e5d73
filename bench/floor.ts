import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runScenario, type LoadOptions, type Scenario, type ScenarioResult, type Target } from './scenarios';
import { readCpuMs } from './serverProcess';

/**
 * The physical floor of a read: a bare `node:http` server in its own process that answers
 * every request with the bytes and headers our server gave for the scenario's sample request, from
 * memory. Measured in the same run with the same load, so `ours / floor` shows what the service's
 * own work costs on top of HTTP itself.
 */
export const FLOOR_SCENARIOS = ['list', 'search-exact', 'search-fuzzy', 'get'];
export const FLOOR_TARGET_RATIO = 2;
/** The floor ratio's target is stated at these card counts; other counts show how it grows. */
const FLOOR_TARGET_CARDS = [2_000, 10_000];

/** Headers that describe the connection or the moment, not the answer. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

const FLOOR_PROGRAM = `
const http = require('node:http');
const answer = JSON.parse(require('node:fs').readFileSync(process.env.FLOOR_ANSWER, 'utf8'));
const body = Buffer.from(answer.body, 'base64');
const headers = { ...answer.headers, 'content-length': String(body.length) };
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.writeHead(answer.status, headers); res.end(body); });
});
server.listen(0, '127.0.0.1', () => console.log('floor ' + server.address().port));
process.on('SIGTERM', () => process.exit(0));
`;

interface FloorServer {
  target: Target;
  stop(): Promise<void>;
}

async function startFloor(answer: {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}): Promise<FloorServer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-floor-'));
  const file = path.join(dir, 'answer.json');
  await fs.writeFile(
    file,
    JSON.stringify({ status: answer.status, headers: answer.headers, body: answer.body.toString('base64') }),
  );
  const child = spawn(process.execPath, ['-e', FLOOR_PROGRAM], {
    env: { ...process.env, FLOOR_ANSWER: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /floor (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error(`the floor server exited before listening: ${output}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    target: { baseUrl, cpuMs: () => readCpuMs(child.pid!), idleProbePath: '/' },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** The answer our server gives to the scenario's sample request, as the floor will repeat it. */
async function sampleAnswer(
  target: Target,
  scenario: Scenario,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const request = scenario.request(0);
  const response = await fetch(target.baseUrl + request.path, { method: request.method });
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // fetch has decoded any compression; autocannon does not ask for it either.
    if (!HOP_HEADERS.has(name) && name !== 'content-encoding') headers[name] = value;
  });
  return { status: response.status, headers, body };
}

/** Run the scenario against its floor; the result's row is named `<scenario> floor`, and a note gives ours/floor. */
export async function measureFloor(
  target: Target,
  scenario: Scenario,
  ours: ScenarioResult,
  load: LoadOptions,
  cards: number,
): Promise<{ result: ScenarioResult; note: string }> {
  const floor = await startFloor(await sampleAnswer(target, scenario));
  let result: ScenarioResult;
  try {
    result = { ...(await runScenario(floor.target, scenario, load)), scenario: `${scenario.name} floor` };
  } finally {
    await floor.stop();
  }
  const ratio = ours.requestsPerSecond > 0 ? result.requestsPerSecond / ours.requestsPerSecond : Infinity;
  const verdict = !FLOOR_TARGET_CARDS.includes(cards)
    ? `applies at ${FLOOR_TARGET_CARDS.map((n) => n.toLocaleString('en-US')).join(' and ')} cards`
    : ratio <= FLOOR_TARGET_RATIO
      ? 'ok'
      : 'MISS';
  const note =
    `${scenario.name}: ours/floor ${ratio.toFixed(1)}x by requests/s (${ours.requestsPerSecond.toFixed(0)} against ${result.requestsPerSecond.toFixed(0)}; ` +
    `p50 ${ours.p50Ms} against ${result.p50Ms} ms; CPU ${ours.cpuMsPerRequest.toFixed(2)} against ${result.cpuMsPerRequest.toFixed(2)} ms/req) ` +
    `(target <= ${FLOOR_TARGET_RATIO}x: ${verdict})`;
  return { result, note };
}
