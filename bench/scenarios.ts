import * as http from 'node:http';
import autocannon from 'autocannon';
import { COLUMN_IDS, MISSPELLED_WORD, SEARCH_WORD, seededRandom } from './dataset';
import { yearRange } from './flowHistory';

/** One HTTP request of a scenario; `n` counts requests so writes rotate over ids and columns. */
export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  body?: unknown;
}

export interface Scenario {
  name: string;
  request(n: number): BenchRequest;
  /** Extra check of the sample answer's data beyond `ok:true` (e.g. a search must find something). */
  checkData?(data: unknown): string | null;
}

export interface ScenarioResult {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /**
   * p50 of the same request sent one at a time (sub-millisecond): the service time without queueing
   * behind the other connections, which the autocannon p50 includes.
   */
  serialP50Ms: number;
  /**
   * Server CPU time per request under load (user + system of the server process). Unlike latency it
   * hardly depends on what else the shared machine is doing, so runs under different load compare.
   */
  cpuMsPerRequest: number;
  timeouts: number;
  /** What the sample answer showed (e.g. how many cards a search found). */
  sample: string;
  /** Set when the sample answer was not a success: the scenario was not run. */
  failure?: string;
  /** `pick`, `pick-cli`: cards answered to two different agents while the first lease ran (must be 0). */
  doubleClaims?: number;
  /** Scenario-specific figures for the results JSON (e.g. pick-cli's `node -e 0` floor). */
  details?: Record<string, number>;
}

export const READ_SCENARIOS = [
  'list',
  'list-ready',
  'list-overdue',
  'search-exact',
  'search-fuzzy',
  'get',
  'page-50',
  'metrics',
] as const;
export const WRITE_SCENARIOS = ['update', 'move', 'create'] as const;
export const API_SCENARIOS = [...READ_SCENARIOS, ...WRITE_SCENARIOS];

const PRIORITY_CYCLE = ['critical', 'high', 'medium', 'low'];
const ASSIGNEE_CYCLE = ['alice', 'bob', 'chen', null];

function nonEmptyList(data: unknown): string | null {
  return Array.isArray(data) && data.length > 0 ? null : 'the search found no cards; pick a word the data holds';
}

/** Card ids in a fixed shuffled order, so writes spread over all columns instead of one. */
function shuffled(ids: string[]): string[] {
  const random = seededRandom(ids.length + 17);
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** What a script or agent reads: one page of 50 cards with three fields. */
const PAGE_QUERY = 'limit=50&fields=id,title,status';

function isProjectedPage(data: unknown): string | null {
  if (!Array.isArray(data) || data.length !== 50)
    return `expected a page of 50 cards, got ${Array.isArray(data) ? data.length : typeof data}`;
  const keys = Object.keys(data[0]).join(',');
  return keys === 'id,title,status' ? null : `expected the fields id,title,status, got ${keys}`;
}

/**
 * Cursors spread over the whole list (one per 1,000 cards; a cursor does not depend on the page
 * size), so page reads rotate through shallow and deep pages instead of repeating the first.
 */
export async function pageCursors(baseUrl: string): Promise<string[]> {
  const cursors = [''];
  let next: string | undefined = '/api/tasks?limit=1000&fields=id';
  while (next) {
    const answer: Response = await fetch(baseUrl + next);
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`GET ${next} answered ${answer.status}`);
    next = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
    const cursor = next ? new URL(next, baseUrl).searchParams.get('cursor') : null;
    if (cursor) cursors.push(cursor);
  }
  return cursors;
}

/** The API scenarios over a workspace whose cards have these ids (and pages that start at these cursors). */
export function apiScenarios(cardIds: string[], cursors: string[] = ['']): Scenario[] {
  const ids = shuffled(cardIds);
  const idAt = (n: number) => encodeURIComponent(ids[n % ids.length]);
  const runTag = Date.now().toString(36);
  return [
    { name: 'list', request: () => ({ method: 'GET', path: '/api/tasks' }), checkData: nonEmptyList },
    { name: 'list-ready', request: () => ({ method: 'GET', path: '/api/tasks?ready=true' }), checkData: nonEmptyList },
    {
      name: 'list-overdue',
      request: () => ({ method: 'GET', path: '/api/tasks?due=overdue' }),
      checkData: nonEmptyList,
    },
    {
      name: 'search-exact',
      request: () => ({ method: 'GET', path: `/api/tasks?q=${SEARCH_WORD}` }),
      checkData: nonEmptyList,
    },
    {
      name: 'search-fuzzy',
      request: () => ({ method: 'GET', path: `/api/tasks?q=${MISSPELLED_WORD}&fuzzy=true` }),
      checkData: nonEmptyList,
    },
    { name: 'get', request: (n) => ({ method: 'GET', path: `/api/tasks/${idAt(n)}` }) },
    {
      name: 'page-50',
      request: (n) => {
        const cursor = cursors[n % cursors.length];
        return { method: 'GET', path: `/api/tasks?${PAGE_QUERY}${cursor ? `&cursor=${cursor}` : ''}` };
      },
      checkData: isProjectedPage,
    },
    {
      // A year of flow history (bench/flowHistory.ts): every card, its cycle and lead time, the aggregates.
      name: 'metrics',
      request: () => ({ method: 'GET', path: `/api/metrics?${yearRange()}` }),
      checkData: (data) =>
        (data as { cards?: unknown[] }).cards?.length ? null : 'the metrics list no card; was the history seeded?',
    },
    {
      name: 'update',
      request: (n) => ({
        method: 'PUT',
        path: `/api/tasks/${idAt(n)}`,
        body: {
          priority: PRIORITY_CYCLE[n % PRIORITY_CYCLE.length],
          assignee: ASSIGNEE_CYCLE[n % ASSIGNEE_CYCLE.length],
        },
      }),
    },
    {
      name: 'move',
      // A step of 7 positions lands cards in the middle of columns, where new order keys are made.
      request: (n) => ({
        method: 'PATCH',
        path: `/api/tasks/${idAt(n + 1)}/move`,
        body: { status: COLUMN_IDS[n % COLUMN_IDS.length], position: (n * 7) % 50 },
      }),
    },
    {
      name: 'create',
      request: (n) => ({
        method: 'POST',
        path: '/api/tasks',
        body: {
          content: `# Bench created card ${runTag} ${n}\n\nMade by the benchmark.\n`,
          labels: ['chore'],
          metadata: { sprint: '2025-S99' },
        },
      }),
    },
  ];
}

/** Send one request and check it is a success (`ok:true`): a benchmark of error answers is worthless. */
async function checkSample(baseUrl: string, scenario: Scenario): Promise<{ sample: string } | { failure: string }> {
  const request = scenario.request(0);
  const answer = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await answer.text();
  let body: { ok?: boolean; data?: unknown; error?: string } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    return {
      failure: `${request.method} ${request.path} answered ${answer.status} with non-JSON: ${text.slice(0, 200)}`,
    };
  }
  if (!answer.ok || body?.ok !== true)
    return {
      failure: `${request.method} ${request.path} answered ${answer.status}: ${body?.error ?? text.slice(0, 200)}`,
    };
  const problem = scenario.checkData?.(body.data);
  if (problem) return { failure: `${request.method} ${request.path}: ${problem}` };
  const sample = Array.isArray(body.data)
    ? `${body.data.length} cards, ${(text.length / 1024).toFixed(0)} KB`
    : `${(text.length / 1024).toFixed(1)} KB`;
  return { sample };
}

const SERIAL_MAX_REQUESTS = 200;
const SERIAL_MAX_MS = 1500;
/** Starts the one-at-a-time requests far from the ones autocannon sends, so writes touch other cards. */
const SERIAL_OFFSET = 1_000_000;

function sendOne(agent: http.Agent, baseUrl: string, request: BenchRequest): Promise<number> {
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      baseUrl + request.path,
      { method: request.method, agent, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Median latency of requests sent strictly one after another over one kept-alive connection. */
async function serialP50(baseUrl: string, scenario: Scenario): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const deadline = performance.now() + SERIAL_MAX_MS;
  try {
    for (let n = 0; n < SERIAL_MAX_REQUESTS && performance.now() < deadline; n++) {
      const started = performance.now();
      const status = await sendOne(agent, baseUrl, scenario.request(SERIAL_OFFSET + n));
      if (status < 200 || status > 299) throw new Error(`${scenario.name}: a one-at-a-time request answered ${status}`);
      times.push(performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const IDLE_PROBE_FAST_MS = 20;
const IDLE_WAIT_MAX_MS = 30_000;

/**
 * Waits until the server answers a cheap request quickly. autocannon stops sending when its time is
 * up, but the server still works through the requests already queued; without this wait that
 * backlog would slow the next scenario and blur its CPU profile window.
 */
export async function waitUntilIdle(baseUrl: string, probePath: string): Promise<void> {
  const deadline = performance.now() + IDLE_WAIT_MAX_MS;
  while (performance.now() < deadline) {
    const started = performance.now();
    const answer = await fetch(baseUrl + probePath).catch(() => null);
    await answer?.arrayBuffer();
    if (answer && performance.now() - started < IDLE_PROBE_FAST_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

/** The server under load: its address, and how to read its CPU time. */
export interface Target {
  baseUrl: string;
  cpuMs(): Promise<number>;
  /** A cheap GET that answers fast once the server has no backlog. */
  idleProbePath: string;
}

/** Drive one scenario with autocannon after checking a sample answer. */
export async function runScenario(target: Target, scenario: Scenario, options: LoadOptions): Promise<ScenarioResult> {
  const baseUrl = target.baseUrl;
  const empty = {
    scenario: scenario.name,
    requestsPerSecond: 0,
    p50Ms: 0,
    p99Ms: 0,
    requests: 0,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    serialP50Ms: 0,
    cpuMsPerRequest: 0,
  };
  const checked = await checkSample(baseUrl, scenario);
  if ('failure' in checked) return { ...empty, sample: '', failure: checked.failure };
  const serialP50Ms = await serialP50(baseUrl, scenario);
  let n = 1;
  const cpuBefore = await target.cpuMs();
  const result = await autocannon({
    url: baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        setupRequest: (req) => {
          const request = scenario.request(n++);
          return {
            ...req,
            method: request.method,
            path: request.path,
            headers: request.body === undefined ? {} : { 'content-type': 'application/json' },
            body: request.body === undefined ? undefined : JSON.stringify(request.body),
          };
        },
      },
    ],
  });
  // Requests still queued when autocannon stops are served afterwards: wait, so their CPU counts too.
  await waitUntilIdle(baseUrl, target.idleProbePath);
  const cpuMsPerRequest = ((await target.cpuMs()) - cpuBefore) / Math.max(1, result.requests.total);
  return {
    scenario: scenario.name,
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    serialP50Ms,
    cpuMsPerRequest,
    sample: checked.sample,
  };
}
