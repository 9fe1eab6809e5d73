import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';
import { apiScenarios, runScenario, type LoadOptions, type ScenarioResult, type Target } from './scenarios';
import { startSlowReceiver } from './slowReceiver';
import { startFailingReceivers } from './failingReceivers';
import { TARGETS } from './report';
import { monotonicUs, type TimeWindow } from './profileSummary';

/** Live-update measurements of issue 4: hand edit -> WebSocket event, and writes with slow webhooks. */

export interface LiveContext {
  root: string;
  target: Target;
  ids: string[];
  load: LoadOptions;
}

export interface LiveOutcome {
  results: ScenarioResult[];
  notes: string[];
  failure?: string;
  /** Parts of the run a `--profile` summary shows on their own (the phase with webhooks). */
  windows?: TimeWindow[];
}

const EDIT_COUNT = 200;
const EVENT_TIMEOUT_MS = 5_000;
const WEBHOOK_COUNT = 3;
const RECEIVER_DELAY_MS = 2_000;

/** A scenario could not be measured; the message says why in one line. */
class LiveUnavailable extends Error {}

export async function runLiveScenario(name: string, context: LiveContext): Promise<LiveOutcome> {
  try {
    if (name === 'live-edit') return await measureEditToEvent(context);
    if (name === 'live-webhooks')
      return await measureWebhookCost(context, await slowReceivers(), TARGETS.webhookSlowdown);
    if (name === 'live-webhooks-healthy')
      return await measureWebhookCost(context, await healthyReceivers(), TARGETS.webhookSlowdown);
    if (name === 'live-webhooks-failing')
      return await measureWebhookCost(context, await failingReceivers(), TARGETS.failingWebhookSlowdown);
    throw new Error(`unknown live scenario ${name}`);
  } catch (error) {
    if (!(error instanceof LiveUnavailable)) throw error;
    const failed: ScenarioResult = {
      scenario: name,
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
      failure: error.message,
    };
    return { results: [failed], notes: [], failure: error.message };
  }
}

interface EventMessage {
  type: string;
  event?: string;
  data?: { taskId?: string };
  card?: { id?: string };
}

/** A WebSocket on /ws that has received its hello, with a way to wait for a matching event. */
async function openEventSocket(
  baseUrl: string,
): Promise<{ socket: WebSocket; waitFor(match: (m: EventMessage) => boolean): Promise<void> }> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`);
  const waiters = new Set<{ match: (m: EventMessage) => boolean; resolve: () => void }>();
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as EventMessage;
    for (const waiter of waiters) {
      if (!waiter.match(message)) continue;
      waiters.delete(waiter);
      waiter.resolve();
    }
  });
  const hello = new Promise<void>((resolve) => waiters.add({ match: (m) => m.type === 'hello', resolve }));
  await new Promise<void>((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) =>
      reject(
        new LiveUnavailable(
          `the WebSocket upgrade on /ws answered HTTP ${res.statusCode}: the live endpoint is not available in this server build`,
        ),
      ),
    );
    socket.once('error', (error) => reject(new LiveUnavailable(`cannot open ws on /ws: ${error.message}`)));
    socket.once('open', () => resolve());
  });
  const timeout = (what: string) =>
    new Promise<never>((_, reject) => setTimeout(() => reject(new LiveUnavailable(what)), EVENT_TIMEOUT_MS).unref());
  await Promise.race([hello, timeout(`/ws sent no {"type":"hello"} within ${EVENT_TIMEOUT_MS} ms`)]);
  return {
    socket,
    waitFor: (match) => new Promise<void>((resolve) => waiters.add({ match, resolve })),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
}

async function filePathOf(baseUrl: string, id: string): Promise<string> {
  const answer = await fetch(`${baseUrl}/api/tasks/${encodeURIComponent(id)}`);
  const body = (await answer.json()) as { ok: boolean; data?: { filePath?: string }; error?: string };
  if (!body.ok) throw new Error(`GET /api/tasks/${id} failed: ${body.error}`);
  if (!body.data?.filePath)
    throw new LiveUnavailable('live-edit needs card files to edit by hand: run it with --storage markdown');
  return body.data.filePath;
}

/** (a) Rewrite a card file with a new title, as an editor would, and time the matching `task.updated`. */
async function measureEditToEvent({ root, target, ids }: LiveContext): Promise<LiveOutcome> {
  const events = await openEventSocket(target.baseUrl);
  const latencies: number[] = [];
  let missed = 0;
  try {
    // Every edit goes to another card, so an event can only belong to the edit that awaits it.
    const step = Math.max(1, Math.floor(ids.length / EDIT_COUNT));
    const targets = ids.filter((_, i) => i % step === 0).slice(0, EDIT_COUNT);
    for (const [i, id] of targets.entries()) {
      const file = path.join(root, await filePathOf(target.baseUrl, id));
      const text = await fs.readFile(file, 'utf8');
      const edited = text.replace(/^# .*$/m, `# Edited by hand ${i} ${id}`);
      const arrived = events.waitFor(
        (m) => m.type === 'event' && m.event === 'task.updated' && (m.data?.taskId === id || m.card?.id === id),
      );
      const started = performance.now();
      await fs.writeFile(file, edited);
      const outcome = await Promise.race([
        arrived.then(() => 'event'),
        new Promise((r) => setTimeout(() => r('timeout'), EVENT_TIMEOUT_MS)),
      ]);
      if (outcome === 'event') latencies.push(performance.now() - started);
      else missed++;
    }
  } finally {
    events.socket.close();
  }
  if (latencies.length === 0)
    throw new LiveUnavailable(
      `no task.updated event arrived on /ws within ${EVENT_TIMEOUT_MS} ms of any of ${missed} hand edits`,
    );
  latencies.sort((a, b) => a - b);
  const result: ScenarioResult = {
    scenario: 'live-edit',
    requestsPerSecond: 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    requests: latencies.length + missed,
    non2xx: missed,
    errors: 0,
    timeouts: missed,
    serialP50Ms: percentile(latencies, 50),
    cpuMsPerRequest: 0,
    sample: `${latencies.length + missed} hand edits, ${missed} without event in ${EVENT_TIMEOUT_MS / 1000} s`,
  };
  const note = `live-edit: file rewritten -> task.updated on /ws: p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms over ${latencies.length} edits (${missed} missed; non-2xx column = missed events)`;
  return { results: [result], notes: [note] };
}

async function api(
  baseUrl: string,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<{ status: number; data: any; error?: string }> {
  const answer = await fetch(baseUrl + urlPath, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  try {
    const parsed = JSON.parse(text) as { ok: boolean; data?: unknown; error?: string };
    return { status: answer.status, data: parsed.data, error: parsed.ok ? undefined : (parsed.error ?? 'ok:false') };
  } catch {
    return { status: answer.status, data: null, error: `non-JSON answer: ${text.slice(0, 200)}` };
  }
}

/** Webhook receivers for one measurement: one registration per URL. */
interface Receivers {
  urls: string[];
  /** How the receivers behave, for the table and the note. */
  label: string;
  received(): number;
  close(): Promise<void>;
}

async function slowReceivers(): Promise<Receivers> {
  const receiver = await startSlowReceiver(RECEIVER_DELAY_MS);
  const urls = Array.from({ length: WEBHOOK_COUNT }, () => `${receiver.url}/hook`);
  return {
    urls,
    label: `answered after ${RECEIVER_DELAY_MS / 1000} s`,
    received: receiver.received,
    close: receiver.close,
  };
}

/** Three receivers that answer 200 at once: every event becomes three requests that succeed. */
async function healthyReceivers(): Promise<Receivers> {
  const receiver = await startSlowReceiver(0);
  return {
    urls: Array.from({ length: WEBHOOK_COUNT }, () => `${receiver.url}/hook`),
    label: 'answering 200 at once',
    received: receiver.received,
    close: receiver.close,
  };
}

/** One silent receiver, one answering 500 and a closed port, each on "*". */
async function failingReceivers(): Promise<Receivers> {
  const receivers = await startFailingReceivers();
  const { silent, error500, closedPort } = receivers.urls;
  return {
    urls: [silent, error500, closedPort],
    label: 'failing (silent, HTTP 500, closed port)',
    received: receivers.received,
    close: receivers.close,
  };
}

/**
 * PUT throughput with three `*` webhooks whose receivers are slow or failing, against none,
 * after one untimed run of the same writes. The machine is shared, so the run without webhooks
 * is measured before and after, and the webhook run is compared with their mean: drift in
 * background load then mostly cancels out.
 */
async function measureWebhookCost(
  { target, ids, load }: LiveContext,
  receivers: Receivers,
  slowdown: number,
): Promise<LiveOutcome> {
  const update = apiScenarios(ids).find((s) => s.name === 'update')!;
  try {
    // Untimed: the first write run on a fresh server was the slowest of the three every time
    // (257-327 req/s before against 330-409 after in three runs), which tilted the baseline.
    await runScenario(target, update, load);
    const beforeStartUs = monotonicUs();
    const before = { ...(await runScenario(target, update, load)), scenario: 'update, no webhooks (before)' };
    const beforeWindow = { name: `${before.scenario} (only that phase)`, startUs: beforeStartUs, endUs: monotonicUs() };
    const hookIds = await registerWebhooks(target.baseUrl, receivers.urls);
    let withHooks: ScenarioResult;
    const startUs = monotonicUs();
    try {
      withHooks = {
        ...(await runScenario(target, update, load)),
        scenario: `update, ${receivers.urls.length} webhooks ${receivers.label.split(' (')[0]}`,
      };
    } finally {
      for (const id of hookIds) await api(target.baseUrl, 'DELETE', `/api/webhooks/${id}`);
    }
    const hooksWindow = { name: `${withHooks.scenario} (only that phase)`, startUs, endUs: monotonicUs() };
    const deliveries = receivers.received();
    const after = { ...(await runScenario(target, update, load)), scenario: 'update, no webhooks (after)' };
    const baseline = (before.requestsPerSecond + after.requestsPerSecond) / 2;
    const ratio = withHooks.requestsPerSecond / baseline;
    const floor = 1 - slowdown;
    const verdict = ratio >= floor ? 'ok' : 'MISS';
    const note =
      `${withHooks.scenario}: PUT /api/tasks/{id} ${baseline.toFixed(0)} req/s without webhooks (mean of ${before.requestsPerSecond.toFixed(0)} before and ${after.requestsPerSecond.toFixed(0)} after), ` +
      `${withHooks.requestsPerSecond.toFixed(0)} req/s with ${receivers.urls.length} webhooks on "*" ${receivers.label}: ` +
      `ratio ${ratio.toFixed(2)}x (target >= ${floor.toFixed(2)}x: ${verdict}); server CPU per request ${withHooks.cpuMsPerRequest.toFixed(2)} ms against ` +
      `${((before.cpuMsPerRequest + after.cpuMsPerRequest) / 2).toFixed(2)} ms without (less sensitive to the machine's other load than requests/s); ` +
      `${deliveries} deliveries reached the receivers while the webhooks were registered`;
    return { results: [before, withHooks, after], notes: [note], windows: [beforeWindow, hooksWindow] };
  } finally {
    await receivers.close();
  }
}

async function registerWebhooks(baseUrl: string, urls: string[]): Promise<string[]> {
  const hookIds: string[] = [];
  for (const url of urls) {
    const created = await api(baseUrl, 'POST', '/api/webhooks', { url, events: ['*'] });
    if (created.error) {
      for (const id of hookIds) await api(baseUrl, 'DELETE', `/api/webhooks/${id}`);
      const hint = created.status === 404 ? ': the webhooks API is not available in this server build' : '';
      throw new LiveUnavailable(`POST /api/webhooks answered ${created.status}: ${created.error}${hint}`);
    }
    hookIds.push((created.data as { id: string }).id);
  }
  return hookIds;
}
