import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { startServerProcess, type ServerProcess, call } from './helpers/child';
import { eventually, waitUntil } from '../helpers/waiting';
import { Receiver, type Received } from '../helpers/webhookReceiver';
import { RecordingSocket, wsUrl, type WsMessage } from '../helpers/wsClient';

/** Rows read straight from the file, by a connection of the test's own. */
function queryFile(file: string, sql: string, ...params: (string | number)[]): any[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

/** The last number the file's global event log handed out. */
const headSeq = (file: string) =>
  Number(queryFile(file, "SELECT seq FROM kanban_event_seq WHERE name = 'events'")[0].seq);
/** Webhook deliveries not yet settled by any process. */
const pendingDeliveries = (file: string) =>
  Number(queryFile(file, 'SELECT COUNT(*) AS n FROM kanban_webhook_deliveries')[0].n);
const deliveryId = (r: Received) => String(r.headers['x-webhook-delivery']);
const taskIdOf = (r: Received) => r.body.card?.id ?? r.body.data?.taskId;

const SECRET = 'sqlite-shared-secret';
const SEED_LINE = /seeded it from this \.kanban\.json/g;
/** What every process must answer alike once the writes have settled. */
const SHARED_READS = ['/api/boards', '/api/columns', '/api/labels', '/api/settings', '/api/webhooks', '/api/tasks'];

/** A workspace folder whose .kanban.json points at the shared file and names its own label. */
async function workspaceFor(file: string, label: string): Promise<string> {
  const root = await makeTempDir();
  const plugins = {
    'card.storage': { provider: 'sqlite', options: { sqlitePath: file, shared: true, pollIntervalMs: 200 } },
  };
  const config = { ...configWith(plugins), labels: { [label]: { color: '#123456' } } };
  await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(config, null, 2));
  return root;
}

function assertConsecutive(events: WsMessage[], from: number, what: string): void {
  events.forEach((m, i) =>
    assert.equal(
      m.revision,
      from + i,
      `${what}: event ${i} has revision ${m.revision}, expected ${from + i} (a gap, a repeat or out of order)`,
    ),
  );
}

/** Events a client saw, as [revision, event, what] for comparing clients. */
function seen(client: RecordingSocket): [number, string, unknown][] {
  return client
    .events()
    .map((m) => [m.revision as number, m.event as string, m.data?.taskId ?? m.data?.columnId ?? m.data?.name ?? null]);
}

/**
 * Three real server processes, each with its own workspace folder and .kanban.json, over one SQLite
 * file with `shared: true` (the native driver): one configuration, one global event log.
 */
describe('card.storage sqlite shared: three processes over one file', function () {
  this.timeout(180_000);
  let dir: string;
  let file: string;
  let roots: string[] = [];
  let servers: ServerProcess[] = [];
  const sockets: RecordingSocket[] = [];
  const env = { KANBAN_SQLITE_DRIVER: 'native' };

  before(async () => {
    dir = await makeTempDir();
    file = path.join(dir, 'team.db');
    roots = await Promise.all(['from-a', 'from-b', 'from-c'].map((label) => workspaceFor(file, label)));
    // All three start at once over a new file: exactly one may seed.
    servers = await Promise.all(roots.map((root) => startServerProcess(root, env)));
  });
  after(async () => {
    for (const socket of sockets) socket.close();
    await Promise.all(servers.map((s) => s.stop()));
    for (const root of [...roots, dir]) await fs.rm(root, { recursive: true, force: true });
  });

  it('when three processes start together over a new file, then exactly one seeds the configuration from its .kanban.json, says so, and all answer its labels', async () => {
    const seeders = servers.filter((s) => (s.output().match(SEED_LINE) ?? []).length > 0);
    assert.equal(seeders.length, 1, `seed log lines: ${servers.map((s) => s.output()).join('\n---\n')}`);
    assert.equal((seeders[0].output().match(SEED_LINE) ?? []).length, 1, 'seeded once');
    const seeded = ['from-a', 'from-b', 'from-c'][servers.indexOf(seeders[0])];
    for (const server of servers) {
      const labels = Object.keys(await call(server.url, 'GET', '/api/labels'));
      assert.ok(labels.includes(seeded), `${server.url} has the seeder's label ${seeded}: ${labels}`);
      assert.equal(
        labels.filter((l) => l.startsWith('from-')).length,
        1,
        `${server.url} has only the seeder's label: ${labels}`,
      );
    }
    // Each lists the others from its next heartbeat (every 5 s).
    await eventually(
      async () => {
        const { instances } = await call(servers[0].url, 'GET', '/api/workspace');
        assert.equal(instances.length, 3, `three live instances: ${JSON.stringify(instances)}`);
      },
      12_000,
      250,
    );
  });

  it('when columns, labels, webhooks and cards are written through all three, then every process answers the same and each WebSocket client saw every event once, in revision order', async () => {
    const clients = await Promise.all(servers.map((s) => RecordingSocket.connect(wsUrl(s.url))));
    sockets.push(...clients);
    const start = clients[0].messages[0].revision as number;
    for (const client of clients)
      assert.equal(client.messages[0].revision, start, 'every process says hello at the same global revision');

    const worker = async (server: ServerProcess, n: number) => {
      await call(server.url, 'POST', '/api/webhooks', {
        url: `http://127.0.0.1:9/hook-${n}`,
        events: ['board.deleted'],
      });
      await call(server.url, 'POST', '/api/columns', { id: `c${n}`, name: `Column ${n}` });
      for (let i = 0; i < 4; i++) {
        const card = await call(server.url, 'POST', '/api/tasks', { content: `# Load ${n}.${i}\n` });
        await call(server.url, 'PATCH', `/api/tasks/${card.id}/move`, { status: 'review' });
        await call(server.url, 'PUT', `/api/labels/l${n}-${i}`, { color: '#336699' });
      }
    };
    await Promise.all(servers.map((s, n) => worker(s, n)));

    const answers = async (s: ServerProcess) =>
      JSON.stringify(await Promise.all(SHARED_READS.map((p) => call(s.url, 'GET', p))));
    await eventually(
      async () => {
        const [a, b, c] = await Promise.all(servers.map(answers));
        assert.equal(b, a, 'process 2 answers like process 1');
        assert.equal(c, a, 'process 3 answers like process 1');
      },
      20_000,
      200,
    );
    for (const server of servers) {
      const columns = (await call(server.url, 'GET', '/api/columns')).map((c: any) => c.id);
      for (const id of ['c0', 'c1', 'c2']) assert.ok(columns.includes(id), `${server.url} lists column ${id}`);
      const labels = Object.keys(await call(server.url, 'GET', '/api/labels'));
      assert.ok(labels.includes('l0-3') && labels.includes('l2-0'), `${server.url} lists the new labels`);
      const hooks = (await call(server.url, 'GET', '/api/webhooks')).map((h: any) => h.url);
      for (const n of [0, 1, 2])
        assert.ok(hooks.includes(`http://127.0.0.1:9/hook-${n}`), `${server.url} lists webhook ${n}`);
    }

    const head = headSeq(file);
    // 3 processes x (column + 4 x (created, moved, label)); creating a webhook emits no event.
    assert.ok(head - start >= 3 * (1 + 4 * 3), `the log holds every change (${head - start} events)`);
    for (const [n, client] of clients.entries()) {
      await waitUntil(
        () => client.events().at(-1)?.revision === head,
        20_000,
        `client ${n + 1} reaching revision ${head}`,
      );
      assertConsecutive(client.events(), start + 1, `client of process ${n + 1}`);
      assert.ok(
        client.events().every((m) => m.data?.peer === undefined),
        'events mirrored from another process are not sent twice',
      );
    }
    assert.deepEqual(seen(clients[1]), seen(clients[0]));
    assert.deepEqual(seen(clients[2]), seen(clients[0]));
  });

  it('when a webhook with a secret is registered through one process and all three create cards, then the receiver gets each event once, signed with that secret', async () => {
    const receiver = new Receiver();
    await receiver.listen();
    try {
      const hook = await call(servers[0].url, 'POST', '/api/webhooks', {
        url: receiver.url('/all'),
        events: ['task.created'],
        secret: SECRET,
      });
      for (const server of servers) {
        await eventually(
          async () => assert.ok((await call(server.url, 'GET', '/api/webhooks')).some((h: any) => h.id === hook.id)),
          10_000,
        );
      }
      const created = await Promise.all(
        servers.map(async (server, s) => {
          const ids: string[] = [];
          for (let i = 0; i < 4; i++)
            ids.push((await call(server.url, 'POST', '/api/tasks', { content: `# Hooked ${s}.${i}\n` })).id);
          return ids;
        }),
      );
      const ids = created.flat().sort();
      await receiver.until(
        () => new Set(receiver.on('/all').map(taskIdOf)).size === ids.length,
        'one delivery per created card',
        30_000,
      );
      await eventually(async () => assert.equal(pendingDeliveries(file), 0, 'deliveries still pending'), 30_000);
      const got = receiver.on('/all');
      assert.deepEqual(got.map(taskIdOf).sort(), ids, 'each created card once, none twice');
      for (const request of got) {
        const expected = 'sha256=' + createHmac('sha256', SECRET).update(request.rawBody).digest('hex');
        assert.equal(
          request.headers['x-webhook-signature'],
          expected,
          'signed with the secret kept in the file, whichever process sent it',
        );
      }
      await call(servers[0].url, 'DELETE', `/api/webhooks/${hook.id}`);
    } finally {
      await receiver.close();
    }
  });

  it('when a process is restarted, then it does not seed again and a client reconnecting to it with ?since gets exactly the events it missed', async () => {
    const [a, b, c] = servers;
    const first = await RecordingSocket.connect(wsUrl(c.url));
    // What this client last saw: once c has caught up with the log (under load its hello may come
    // before it has mirrored the last events of the test before).
    const lastSeen = () => first.messages.at(-1)?.revision as number;
    await waitUntil(() => lastSeen() === headSeq(file), 10_000, 'process c caught up with the event log');
    const since = lastSeen();
    first.close();
    await c.stop();
    const missed = await call(a.url, 'POST', '/api/tasks', { content: '# Missed while away\n' });
    await call(a.url, 'PATCH', `/api/tasks/${missed.id}/move`, { status: 'done' });
    await call(b.url, 'PUT', '/api/labels/while-away', { color: '#654321' });

    const restarted = await startServerProcess(roots[2], env);
    servers[2] = restarted;
    assert.doesNotMatch(restarted.output(), SEED_LINE, 'a restart adopts the stored configuration');
    const back = await RecordingSocket.connect(wsUrl(restarted.url, `/ws?since=${since}`));
    sockets.push(back);
    assert.equal(back.messages[0].revision, since);
    assert.equal((back.messages[0] as any).resumed, true);
    await waitUntil(() => back.events().at(-1)?.revision === headSeq(file), 10_000, 'the missed events');
    assertConsecutive(back.events(), since + 1, 'reconnected client');
    assert.deepEqual(
      back.events().map((m) => m.event),
      ['task.created', 'task.moved', 'label.updated'],
    );
    const labels = Object.keys(await call(restarted.url, 'GET', '/api/labels'));
    assert.ok(labels.includes('while-away'), 'the restarted process reads the configuration written while it was away');
  });
});

describe('card.storage sqlite shared: on the WebAssembly driver', function () {
  this.timeout(60_000);
  let dir: string;
  let server: ServerProcess | null = null;

  before(async () => {
    dir = await makeTempDir();
  });
  after(async () => {
    await server?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('when a shared file is served on the WebAssembly driver, then it says that only this process can open the file, and a second process is refused with a reason', async () => {
    const file = path.join(dir, 'wasm.db');
    const roots = await Promise.all(['w-a', 'w-b'].map((label) => workspaceFor(file, label)));
    server = await startServerProcess(roots[0], { KANBAN_SQLITE_DRIVER: 'wasm' });
    assert.match(server.output(), /WebAssembly build here, which keeps the file to this process alone/);
    assert.ok((await call(server.url, 'GET', '/api/labels'))['w-a'], 'it serves the seeded configuration');
    await assert.rejects(
      startServerProcess(roots[1], { KANBAN_SQLITE_DRIVER: 'native' }),
      /WebAssembly|VS Code|another process/i,
    );
    for (const root of roots) await fs.rm(root, { recursive: true, force: true });
  });
});

describe('card.storage sqlite shared: a process killed while it holds a webhook delivery', function () {
  this.timeout(120_000);
  let dir: string;
  let file: string;
  let roots: string[] = [];
  let servers: ServerProcess[] = [];
  const receiver = new Receiver();

  before(async () => {
    await receiver.listen();
    dir = await makeTempDir();
    file = path.join(dir, 'hooks.db');
    roots = [await workspaceFor(file, 'k-a'), await workspaceFor(file, 'k-b')];
    // A short lease, so that the killed process's delivery is taken over within seconds.
    const env = { KANBAN_SQLITE_DRIVER: 'native', KANBAN_WEBHOOK_BACKOFF_MS: '50', KANBAN_WEBHOOK_LEASE_MS: '3000' };
    servers = await Promise.all(roots.map((root) => startServerProcess(root, env)));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver.close();
    for (const root of [...roots, dir]) await fs.rm(root, { recursive: true, force: true });
  });

  it('when the process holding a delivery is killed (kill -9), then the other takes it over after the lease and no delivery is lost', async () => {
    const hook = await call(servers[0].url, 'POST', '/api/webhooks', {
      url: receiver.url('/slow'),
      events: ['task.created'],
    });
    await eventually(
      async () => assert.ok((await call(servers[1].url, 'GET', '/api/webhooks')).some((h: any) => h.id === hook.id)),
      10_000,
    );
    // The first delivery hangs in the receiver, so a process holds its lease while we kill it.
    let first: string | null = null;
    receiver.answer = (request) => {
      first ??= deliveryId(request);
      return deliveryId(request) === first && receiver.received.filter((r) => deliveryId(r) === first).length === 1
        ? 'hang'
        : 200;
    };
    const hung = await call(servers[1].url, 'POST', '/api/tasks', { content: '# Hung delivery\n' });
    await receiver.until(() => first !== null, 'the first delivery to arrive', 30_000);
    const [lease] = queryFile(file, 'SELECT owner FROM kanban_webhook_deliveries WHERE id = ?', first!);
    assert.ok(lease?.owner, 'the hung delivery is leased');
    const owners = await Promise.all(
      servers.map(async (s) => (await call(s.url, 'GET', '/api/workspace')).instances.find((i: any) => i.self).id),
    );
    const doomed = owners.indexOf(lease.owner);
    assert.ok(doomed >= 0, `the lease owner ${lease.owner} is one of ${owners.join(', ')}`);
    const more = await Promise.all(
      servers.map((s, i) => call(s.url, 'POST', '/api/tasks', { content: `# Written before the kill on ${i}\n` })),
    );
    await servers[doomed].kill();
    const ids = [hung, ...more].map((t) => t.id).sort();
    await receiver.until(
      () => receiver.on('/slow').filter((r) => deliveryId(r) === first).length === 2,
      'the hung delivery sent again by the other process',
      30_000,
    );
    await receiver.until(
      () => new Set(receiver.on('/slow').map(taskIdOf)).size === ids.length,
      'every write delivered',
      30_000,
    );
    await eventually(async () => assert.equal(pendingDeliveries(file), 0, 'deliveries still pending'), 30_000);
    assert.deepEqual([...new Set(receiver.on('/slow').map(taskIdOf))].sort(), ids, 'no delivery lost');
    const [attempt] = queryFile(
      file,
      "SELECT instance FROM kanban_webhook_attempts WHERE delivery_id = ? AND status = 'delivered'",
      first!,
    );
    assert.notEqual(attempt.instance, lease.owner, 'delivered by the surviving process');
  });
});

describe('card.storage sqlite shared: card state is the same on every process', function () {
  this.timeout(60_000);
  const ALICE = 'alice-token-0123456789abcdef';
  const BOB = 'bob-token-0123456789abcdef';
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  let dir: string;
  const servers: TestServer[] = [];

  before(async () => {
    dir = await makeTempDir();
    const config = configWith({
      'card.storage': {
        provider: 'sqlite',
        options: { sqlitePath: path.join(dir, 'state.db'), shared: true, pollIntervalMs: 100 },
      },
      'auth.identity': {
        provider: 'token',
        options: {
          tokens: [
            { token: ALICE, subject: 'alice', role: 'editor' },
            { token: BOB, subject: 'bob', role: 'editor' },
          ],
        },
      },
    });
    servers.push(await startTestServer({ config }));
    servers.push(await startTestServer({ config }));
  });
  after(async () => {
    for (const server of servers.splice(0)) await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** The card's state for one reader, as one process lists it. */
  async function listed(server: TestServer, token: string, id: string): Promise<{ unread: boolean; open: boolean }> {
    const tasks = okData(await server.api('GET', '/api/tasks', undefined, as(token))) as {
      id: string;
      cardState: { unread: boolean; open: boolean };
    }[];
    const task = tasks.find((t) => t.id === id);
    assert.ok(task, `task ${id} is not listed`);
    return task.cardState;
  }

  it('when bob reads and opens a card through one process and alice changes it through the other, then both list the same state for bob, kept in the file', async () => {
    const [first, second] = servers;
    const task = okData(await first.api('POST', '/api/tasks', { content: '# Shared state' }, as(ALICE)), 201);
    await eventually(
      async () => assert.equal((await second.api('GET', `/api/tasks/${task.id}`, undefined, as(BOB))).status, 200),
      10_000,
    );
    okData(await second.api('POST', `/api/tasks/${task.id}/read`, undefined, as(BOB)));
    okData(await second.api('POST', `/api/tasks/${task.id}/open`, undefined, as(BOB)));
    await eventually(
      async () => assert.deepEqual(await listed(first, BOB, task.id), { unread: false, open: true }),
      10_000,
    );

    okData(await first.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }, as(ALICE)));
    for (const server of servers)
      await eventually(async () => assert.equal((await listed(server, BOB, task.id)).unread, true), 10_000);
    assert.equal((await listed(second, ALICE, task.id)).unread, false, 'never unread for its author');
    const status = okData(await first.api('GET', '/api/card-state/status', undefined, as(BOB)));
    assert.equal(status.backend, 'sqlite');
    for (const server of servers)
      assert.equal(
        existsSync(path.join(server.root, '.kanban', '.state', 'card-state.journal')),
        false,
        'no card state file',
      );
  });
});
