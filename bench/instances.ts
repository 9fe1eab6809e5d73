import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { generateCards } from './dataset';
import { seedThroughStore } from './seed';
import { startServerChild, type ServerChild } from './serverProcess';
import { prepareSharedStorage, writeWorkspaceConfig, type BenchStorage, type SharedStorageKind } from './storage';

/**
 * `--storage mysql --instances <n>`: the same load against one instance and against n
 * over one database, spread evenly, and how long a write on one instance takes to reach a
 * WebSocket client of another (through the global event log). `--storage sqlite` does the same
 * with n processes on one shared SQLite file, `--storage postgres` over PostgreSQL, where the n
 * instances' idle cost is measured too; `--storage postgres,mysql` runs both, one after the other.
 */

export interface InstancesOptions {
  storages: SharedStorageKind[];
  instances: number;
  cards: number;
  connections: number;
  durationSeconds: number;
}

interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  failures: number;
}

interface Row {
  storage: SharedStorageKind;
  instances: number;
  write: Throughput;
  read: Throughput;
  /** From sending a write on the first instance to its event on another (the same one when alone). */
  eventP50Ms: number;
  eventP99Ms: number;
  eventsMissed: number;
  /** The database's transactions per second while the instances sat idle (postgres only). */
  idleTransactionsPerSecond?: number;
}

const EVENT_SAMPLES = 100;
const EVENT_TIMEOUT_MS = 10_000;
/**
 * How long idle instances are watched, before any load, after a pause: PostgreSQL's backends report
 * their counts up to 10 s late, so the start-up's transactions would otherwise count as idle ones.
 */
const IDLE_WATCH_MS = 20_000;
const IDLE_SETTLE_MS = 15_000;

export async function runInstancesBench(options: InstancesOptions): Promise<number> {
  const rows: Row[] = [];
  for (const storage of options.storages)
    for (const count of [...new Set([1, options.instances])]) rows.push(await measure(storage, count, options));
  console.log(`\n${format(rows, options)}`);
  return rows.some((r) => r.write.failures + r.read.failures + r.eventsMissed > 0) ? 1 : 0;
}

async function measure(kind: SharedStorageKind, count: number, options: InstancesOptions): Promise<Row> {
  const storage = await prepareSharedStorage(kind);
  const roots: string[] = [];
  const servers: ServerChild[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), `kanban-bench-instance-${i}-`));
      roots.push(root);
      await writeWorkspaceConfig(root, storage);
    }
    await seedThroughStore(roots[0], storage, generateCards(options.cards));
    servers.push(await startServerChild(roots[0]));
    servers.push(...(await Promise.all(roots.slice(1).map((root) => startServerChild(root)))));
    const ids = await cardIds(servers[0].baseUrl);
    console.log(`${kind}: ${count} instance(s) over ${options.cards} cards:`);
    const idle = await idleTransactionsPerSecond(servers[0], storage);
    if (idle !== undefined) console.log(`  idle: ${idle.toFixed(2)} transactions/s on the database`);
    const write = await load(servers, options, (n) => ({
      method: 'PUT',
      path: `/api/tasks/${encodeURIComponent(ids[n % ids.length])}`,
      body: { priority: ['high', 'low'][n % 2] },
    }));
    console.log(`  write ${write.requestsPerSecond.toFixed(0)} req/s, p50 ${write.p50Ms} ms`);
    const read = await load(servers, options, (n) => ({
      method: 'GET',
      path: `/api/tasks/${encodeURIComponent(ids[(n * 7) % ids.length])}`,
    }));
    console.log(`  read ${read.requestsPerSecond.toFixed(0)} req/s, p50 ${read.p50Ms} ms`);
    const events = await writeToEvent(servers[0], servers[servers.length > 1 ? 1 : 0], ids);
    console.log(
      `  write -> event on ${servers.length > 1 ? 'another' : 'the same'} instance: p50 ${events.p50} ms, p99 ${events.p99} ms`,
    );
    return {
      storage: kind,
      instances: count,
      idleTransactionsPerSecond: idle,
      write,
      read,
      eventP50Ms: events.p50,
      eventP99Ms: events.p99,
      eventsMissed: events.missed,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    for (const root of roots) await fs.rm(root, { recursive: true, force: true });
    await storage.dispose();
  }
}

/**
 * With one webhook registered (its queue is polled too), the database's transactions per second
 * while nobody sends anything: the price of following other instances' changes.
 */
async function idleTransactionsPerSecond(server: ServerChild, storage: BenchStorage): Promise<number | undefined> {
  if (!storage.transactions) return undefined;
  const answer = await fetch(`${server.baseUrl}/api/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/idle-bench', events: ['board.deleted'] }),
  });
  if (!answer.ok) throw new Error(`registering the idle bench's webhook answered ${answer.status}`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  const before = await storage.transactions();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_WATCH_MS));
  // The first reading's own transaction is counted by the second.
  const during = (await storage.transactions()) - before - 1;
  return during / ((performance.now() - started) / 1000);
}

async function cardIds(baseUrl: string): Promise<string[]> {
  const body = (await (await fetch(`${baseUrl}/api/tasks?fields=id`)).json()) as { data: { id: string }[] };
  return body.data.map((t) => t.id);
}

interface Request {
  method: string;
  path: string;
  body?: unknown;
}

/** `connections` clients sending one request after another for the duration, spread over the servers. */
async function load(
  servers: ServerChild[],
  options: InstancesOptions,
  request: (n: number) => Request,
): Promise<Throughput> {
  const latencies: number[] = [];
  let failures = 0;
  let n = 0;
  const started = performance.now();
  const until = started + options.durationSeconds * 1000;
  const client = async (c: number) => {
    const server = servers[c % servers.length];
    while (performance.now() < until) {
      const { method, path: urlPath, body } = request(n++);
      const sent = performance.now();
      try {
        const answer = await fetch(server.baseUrl + urlPath, {
          method,
          headers: body ? { 'content-type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : undefined,
        });
        await answer.arrayBuffer();
        if (!answer.ok) failures++;
      } catch {
        failures++;
      }
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, c) => client(c)));
  const seconds = (performance.now() - started) / 1000;
  return {
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    failures,
  };
}

/** One write at a time on `writer`; the time until `listener`'s WebSocket client hears of each. */
async function writeToEvent(
  writer: ServerChild,
  listener: ServerChild,
  ids: string[],
): Promise<{ p50: number; p99: number; missed: number }> {
  const socket = new WebSocket(`${listener.baseUrl.replace(/^http/, 'ws')}/ws`);
  const waiting = new Map<string, () => void>();
  socket.on('message', (raw) => {
    const message = JSON.parse(raw.toString()) as { type: string; event?: string; card?: { title?: string } };
    const title = message.card?.title;
    if (message.event === 'task.updated' && title) waiting.get(title)?.();
  });
  await new Promise((resolve, reject) => socket.once('message', resolve).once('error', reject));
  const latencies: number[] = [];
  let missed = 0;
  const tag = Date.now().toString(36);
  for (let i = 0; i < EVENT_SAMPLES; i++) {
    const title = `Event probe ${tag} ${i}`;
    const heard = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), EVENT_TIMEOUT_MS);
      waiting.set(title, () => (clearTimeout(timer), resolve(true)));
    });
    const sent = performance.now();
    const answer = await fetch(`${writer.baseUrl}/api/tasks/${encodeURIComponent(ids[i % ids.length])}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: `# ${title}\n` }),
    });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`the probe write PUT /api/tasks/${ids[i % ids.length]} answered ${answer.status}`);
    if (await heard) latencies.push(performance.now() - sent);
    else missed++;
    waiting.delete(title);
  }
  socket.terminate();
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), missed };
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
}

const STORAGE_NAMES: Record<SharedStorageKind, string> = {
  mysql: 'MySQL',
  postgres: 'PostgreSQL',
  sqlite: 'SQLite (one shared file)',
};

function format(rows: Row[], options: InstancesOptions): string {
  const lines = [
    `${options.cards} cards, ${options.connections} connections spread over the instances, ${options.durationSeconds} s per load; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    'storage | instances | write req/s | write p50/p99 ms | read req/s | read p50/p99 ms | write->event p50/p99 ms | idle tx/s | failures',
  ];
  for (const r of rows) {
    lines.push(
      `${STORAGE_NAMES[r.storage]} | ${r.instances} | ${r.write.requestsPerSecond.toFixed(0)} | ${r.write.p50Ms}/${r.write.p99Ms} | ${r.read.requestsPerSecond.toFixed(0)} | ${r.read.p50Ms}/${r.read.p99Ms} | ` +
        `${r.eventP50Ms}/${r.eventP99Ms} | ${r.idleTransactionsPerSecond?.toFixed(2) ?? '-'} | ${r.write.failures + r.read.failures} requests, ${r.eventsMissed} events missed`,
    );
  }
  lines.push(
    'write->event: from sending PUT on the first instance to the task.updated event on a WebSocket of the second (of the same one when alone).',
    `idle tx/s: PostgreSQL only, the database's xact_commit + xact_rollback (pg_stat_database) over ${IDLE_WATCH_MS / 1000} s with the instances idle and one webhook registered.`,
  );
  return lines.join('\n');
}
