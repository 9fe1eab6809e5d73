import * as http from 'node:http';
import { fastImport, fastImportStream, git, initRepo } from '../test/helpers/gitRepos';
import { runScenario, type LoadOptions, type ScenarioResult, type Target } from './scenarios';

/**
 * `git-links` (`--only git-links`): the seeded workspace becomes a git repository of 50,000 commits
 * written by `git fast-import` (one in five with a `Kanban:` trailer naming a seeded card, in turn,
 * and a branch `kanban/<id>` for each of 100 cards), while the server runs. Then, in order:
 * - the first scan: the first `GET /api/tasks/{id}/git`, from the request to its answer, with a
 *   list page (`GET /api/tasks?limit=1`) sent 10 ms into it and timed on its own;
 * - a card's first read when it has a branch (git counts ahead/behind for it then), one at a time;
 * - cached answers: a second pass over 200 cards already read, one at a time (p50, p99), and the
 *   same 200 under load like the API scenarios (the `git-links` row).
 */

export const GIT_COMMITS = 50_000;
const TRAILER_EVERY = 5;
const BRANCHES = 100;
const SAMPLE = 200;
const LIST_DELAY_MS = 10;
/** The brief's bound for a card's links once the first scan is done. */
export const GIT_LINKS_TARGET_MS = 50;

export interface GitLinksContext {
  root: string;
  target: Target;
  ids: string[];
  load: LoadOptions;
}

export interface GitLinksOutcome {
  results: ScenarioResult[];
  notes: string[];
  failure?: string;
}

const linksPath = (id: string) => `/api/tasks/${encodeURIComponent(id)}/git`;

/** Milliseconds of one GET answered 200, over its own connection agent. */
async function timedGet(agent: http.Agent, baseUrl: string, path: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const body = await new Promise<string>((resolve, reject) => {
    http
      .get(baseUrl + path, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`GET ${path} answered ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
  return { ms: performance.now() - started, body };
}

const quantile = (times: number[], q: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * q))];

async function serialTimes(baseUrl: string, paths: string[]): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const times: number[] = [];
    for (const path of paths) times.push((await timedGet(agent, baseUrl, path)).ms);
    return times;
  } finally {
    agent.destroy();
  }
}

async function makeHistory(root: string, ids: string[]): Promise<number> {
  const started = performance.now();
  await initRepo(root);
  const message = (i: number) =>
    i % TRAILER_EVERY ? `Change ${i}\n` : `Change ${i}\n\nKanban: ${ids[(i / TRAILER_EVERY - 1) % ids.length]}\n`;
  const branches = ids
    .slice(0, BRANCHES)
    .map((id, n) => ({ ref: `refs/heads/kanban/${id}`, at: GIT_COMMITS - n * 10 }));
  await fastImport(root, fastImportStream('main', GIT_COMMITS, message, branches));
  return performance.now() - started;
}

export async function runGitLinksScenario({ root, target, ids, load }: GitLinksContext): Promise<GitLinksOutcome> {
  const version = await git(root, ['--version']).catch(() => null);
  if (!version) return notRun('git is not installed');
  const importMs = await makeHistory(root, ids);

  const agents = [new http.Agent({ keepAlive: true }), new http.Agent({ keepAlive: true })];
  let scanMs: number;
  let listMs: number;
  let listFirst: boolean;
  let sample: string;
  try {
    const order: string[] = [];
    const scan = timedGet(agents[0], target.baseUrl, linksPath(ids[0])).then((answer) => (order.push('scan'), answer));
    await new Promise((resolve) => setTimeout(resolve, LIST_DELAY_MS));
    const list = await timedGet(agents[1], target.baseUrl, '/api/tasks?limit=1');
    order.push('list');
    const first = await scan;
    [scanMs, listMs, listFirst] = [first.ms, list.ms, order[0] === 'list'];
    const data = (JSON.parse(first.body) as { data: { branches: unknown[]; commits: unknown[] } }).data;
    if (data.branches.length !== 1 || data.commits.length < 1)
      return notRun(`the first card should have 1 branch and a commit, got ${first.body.slice(0, 300)}`);
    sample = `${data.branches.length} branch, ${data.commits.length} commit(s), ${(first.body.length / 1024).toFixed(1)} KB`;
  } finally {
    for (const agent of agents) agent.destroy();
  }

  const withBranch = await serialTimes(target.baseUrl, ids.slice(1, 21).map(linksPath));
  const warm = ids.slice(0, SAMPLE).map(linksPath);
  await serialTimes(target.baseUrl, warm);
  const cached = await serialTimes(target.baseUrl, warm);

  const loaded = await runScenario(
    target,
    { name: 'git-links', request: (n) => ({ method: 'GET', path: warm[n % warm.length] }) },
    load,
  );
  const p50 = quantile(cached, 0.5);
  const note =
    `git-links: ${GIT_COMMITS.toLocaleString('en-US')} commits (${(GIT_COMMITS / TRAILER_EVERY).toLocaleString('en-US')} with a Kanban: trailer, ${BRANCHES} branches kanban/<id>) ` +
    `made by git fast-import in ${(importMs / 1000).toFixed(1)} s; first scan (the first GET /api/tasks/{id}/git): ${scanMs.toFixed(0)} ms; ` +
    `a list page sent ${LIST_DELAY_MS} ms into it: ${listMs.toFixed(1)} ms${listFirst ? ', answered before the scan' : ', NOT before the scan'}; ` +
    `a card's first read with a branch (ahead/behind from git): p50 ${quantile(withBranch, 0.5).toFixed(1)} ms; ` +
    `cached, one at a time over ${SAMPLE} cards: p50 ${p50.toFixed(2)} ms, p99 ${quantile(cached, 0.99).toFixed(2)} ms ` +
    `(< ${GIT_LINKS_TARGET_MS} ${p50 < GIT_LINKS_TARGET_MS ? 'ok' : 'MISS'}) [${version.trim()}]`;
  return { results: [{ ...loaded, sample: loaded.failure ? loaded.sample : sample }], notes: [note] };
}

function notRun(reason: string): GitLinksOutcome {
  const failed: ScenarioResult = {
    scenario: 'git-links',
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
