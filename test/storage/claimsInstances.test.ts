import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { configWith } from './helpers/cardProviders';
import { startServerProcess, type ServerProcess } from './helpers/child';
import { MYSQL_HOST, MYSQL_PORT, createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';

/** One answer of any server (in this process or another): status and `data`. */
interface Answer {
  status: number;
  data: any;
  error?: string;
}

/** An API over one instance, the agent naming itself as over HTTP (X-Kanban-Agent). */
function instanceApi(url: () => string) {
  const request = async (method: string, urlPath: string, body?: unknown, agent?: string): Promise<Answer> => {
    const headers: Record<string, string> = agent ? { 'X-Kanban-Agent': agent } : {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url() + urlPath, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as { data?: unknown; error?: string }) : null;
    return { status: response.status, data: json?.data, error: json?.error };
  };
  return {
    request,
    pick: (agent: string) => request('POST', '/api/tasks/pick', {}, agent),
    claim: (id: string, agent: string) => request('POST', `/api/tasks/${id}/claim`, {}, agent),
    report: (id: string, agent: string, note: string, ttlSeconds?: number) =>
      request('PUT', `/api/tasks/${id}/session`, { state: 'active', note, ttlSeconds }, agent),
    card: async (id: string) => (await request('GET', `/api/tasks/${id}`)).data,
    cardIds: async () => ((await request('GET', '/api/tasks')).data as { id: string }[]).map((card) => card.id),
  };
}
type InstanceApi = ReturnType<typeof instanceApi>;

/** Ten cards ready to pick, made through `a` and known to `b` before anything is picked. */
async function tenReadyCards(make: (title: string) => Promise<string>, b: InstanceApi): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) ids.push(await make(`Ready ${i}`));
  await eventually(
    async () => assert.deepEqual((await b.cardIds()).filter((id) => ids.includes(id)).sort(), [...ids].sort()),
    20_000,
  );
  return ids;
}

/** 20 picks at once, alternating between the instances; answers the picked ids and how many got 204. */
async function twentyPicks(a: InstanceApi, b: InstanceApi): Promise<{ picked: string[]; none: number }> {
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).pick(`agent-${i}`)));
  for (const answer of answers)
    assert.ok(answer.status === 200 || answer.status === 204, `a pick answered ${answer.status}: ${answer.error}`);
  return {
    picked: answers.filter((r) => r.status === 200).map((r) => r.data.id as string),
    none: answers.filter((r) => r.status === 204).length,
  };
}

describe('claims over MySQL: two server instances over one MariaDB database', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let apiA: InstanceApi;
  let apiB: InstanceApi;
  const sockets: RecordingSocket[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
    const config = configWith({ 'card.storage': mysqlPlugin(database.name, { pollIntervalMs: 200 }) });
    a = await startTestServer({ config });
    b = await startTestServer({ config });
    apiA = instanceApi(() => a.url);
    apiB = instanceApi(() => b.url);
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await a?.close();
    await b?.close();
    await database.drop();
  });

  it('when the workspace is asked where claims live, then both instances name the database', async () => {
    const where = { store: 'database', location: `mysql ${database.name}@${MYSQL_HOST}:${MYSQL_PORT}` };
    assert.deepEqual(okData(await a.api('GET', '/api/workspace')).claims, where);
    assert.deepEqual(okData(await b.api('GET', '/api/workspace')).claims, where);
  });

  it('when 20 picks split between two instances run at once over 10 pickable cards, then 10 distinct cards are picked and the rest get 204', async () => {
    const ids = await tenReadyCards(
      async (title) => (await createTask(a, { content: `# ${title}\n`, status: 'todo' })).id,
      apiB,
    );
    const { picked, none } = await twentyPicks(apiA, apiB);
    assert.deepEqual([...picked].sort(), [...ids].sort(), 'every card picked once, none twice');
    assert.equal(none, 10);
    const rows = await database.query<{ card_id: string; agent: string }>('SELECT card_id, agent FROM kanban_claims');
    assert.equal(new Set(rows.map((row) => row.agent)).size, 10, 'ten agents hold one card each');
    // Each instance's reads show every claim, the other's too, once it has followed them.
    for (const api of [apiA, apiB]) {
      await eventually(
        async () =>
          assert.deepEqual(((await api.request('GET', '/api/tasks?claimed=true')).data as unknown[]).length, 10),
        20_000,
      );
    }
  });

  it("when an agent claims on instance A, then B refuses another agent's claim with 409, and B's reads and WebSocket clients show the claim", async () => {
    const card = await createTask(a, { content: '# Contested\n', status: 'todo' });
    await eventually(async () => assert.ok((await apiB.cardIds()).includes(card.id)), 20_000);
    const onB = await RecordingSocket.connect(wsUrl(b.url));
    sockets.push(onB);
    assert.equal((await apiA.claim(card.id, 'agent-a')).data.claim.agent, 'agent-a');

    const refused = await apiB.claim(card.id, 'agent-b');
    assert.equal(refused.status, 409);
    assert.match(refused.error ?? '', /claimed by agent agent-a/);
    const heard = await onB.waitFor((m) => m.event === 'task.claimed' && m.data?.taskId === card.id, 20_000);
    assert.equal(heard.data.agent, 'agent-a');
    // B delivers another instance's event only after catching up with it: a read right after shows it.
    assert.equal((await apiB.card(card.id)).claim?.agent, 'agent-a');

    // B's own write waits for its events to reach the shared log: had B's follower announced the
    // claim again, the log would hold it twice by now.
    await createTask(b, { content: '# After\n', status: 'todo' });
    const logged = await database.query<{ body: string }>('SELECT body FROM kanban_events');
    const claimedEvents = logged
      .map((row) => JSON.parse(row.body))
      .filter((e) => e.event === 'task.claimed' && e.data.taskId === card.id);
    assert.equal(claimedEvents.length, 1, 'one task.claimed in the shared log, from the instance that claimed');
  });

  it('when an agent reports a session on A, then B shows the session and the claim it took, and B answers 409 to another agent', async () => {
    const card = await createTask(a, { content: '# Reported\n', status: 'todo' });
    await eventually(async () => assert.ok((await apiB.cardIds()).includes(card.id)), 20_000);
    const onB = await RecordingSocket.connect(wsUrl(b.url));
    sockets.push(onB);
    assert.equal((await apiA.report(card.id, 'agent-a', 'reading the code')).status, 200);

    await onB.waitFor((m) => m.event === 'task.session' && m.data?.taskId === card.id, 20_000);
    const seen = await apiB.card(card.id);
    assert.deepEqual(
      [seen.session?.agent, seen.session?.state, seen.session?.note, seen.claim?.agent],
      ['agent-a', 'active', 'reading the code', 'agent-a'],
    );
    assert.equal((await apiB.report(card.id, 'agent-b', 'me too')).status, 409);
  });

  it('when a lease runs out and a session turns stale while two instances follow them, then the shared log announces each once', async () => {
    const card = await createTask(a, { content: '# Brief\n', status: 'todo' });
    await eventually(async () => assert.ok((await apiB.cardIds()).includes(card.id)), 20_000);
    const onB = await RecordingSocket.connect(wsUrl(b.url));
    sockets.push(onB);
    assert.equal((await apiA.report(card.id, 'agent-a', 'quick look', 2)).status, 200);
    // Both instances hold the claim and the session, so both see them lapse.
    await eventually(async () => assert.equal((await apiB.card(card.id)).claim?.agent, 'agent-a'), 20_000);

    await onB.waitFor(
      (m) => m.event === 'task.released' && m.data?.taskId === card.id && m.data.expired === true,
      20_000,
    );
    await onB.waitFor(
      (m) => m.event === 'task.session' && m.data?.taskId === card.id && m.data.session?.stale === true,
      20_000,
    );
    // A write waits behind an announcement under way, and for its own events to reach the log.
    await createTask(a, { content: '# After, on A\n' });
    await createTask(b, { content: '# After, on B\n' });
    const logged = (await database.query<{ body: string }>('SELECT body FROM kanban_events'))
      .map((row) => JSON.parse(row.body))
      .filter((e) => e.data.taskId === card.id);
    assert.equal(
      logged.filter((e) => e.event === 'task.released' && e.data.expired === true).length,
      1,
      'the lease ran out once',
    );
    assert.equal(
      logged.filter((e) => e.event === 'task.session' && e.data.session?.stale === true).length,
      1,
      'the session turned stale once',
    );
  });
});

/**
 * The same over SQLite: two server processes over one file with `shared: true` (the native driver:
 * the WebAssembly build keeps a file to one process).
 */
describe('claims over SQLite: two server processes over one shared file', function () {
  this.timeout(180_000);
  let dir: string;
  let roots: string[] = [];
  let servers: ServerProcess[] = [];
  let apiA: InstanceApi;
  let apiB: InstanceApi;

  before(async () => {
    dir = await makeTempDir();
    const file = path.join(dir, 'team.db');
    const plugins = {
      'card.storage': { provider: 'sqlite', options: { sqlitePath: file, shared: true, pollIntervalMs: 200 } },
    };
    roots = await Promise.all(
      [0, 1].map(async () => {
        const root = await makeTempDir();
        await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(plugins), null, 2));
        return root;
      }),
    );
    // One after the other: the first seeds the shared configuration.
    for (const root of roots) servers.push(await startServerProcess(root, { KANBAN_SQLITE_DRIVER: 'native' }));
    apiA = instanceApi(() => servers[0].url);
    apiB = instanceApi(() => servers[1].url);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    for (const folder of [...roots, dir]) await fs.rm(folder, { recursive: true, force: true });
    servers = [];
    roots = [];
  });

  it('when 20 picks split between two processes run at once over 10 pickable cards, then 10 distinct cards are picked and the rest get 204', async () => {
    const where = (await apiA.request('GET', '/api/workspace')).data.claims;
    assert.deepEqual(where, { store: 'database', location: `sqlite ${path.join(dir, 'team.db')}` });
    const ids = await tenReadyCards(
      async (title) => (await apiA.request('POST', '/api/tasks', { content: `# ${title}\n`, status: 'todo' })).data.id,
      apiB,
    );
    const { picked, none } = await twentyPicks(apiA, apiB);
    assert.deepEqual([...picked].sort(), [...ids].sort(), 'every card picked once, none twice');
    assert.equal(none, 10);
  });

  it("when an agent claims on A and then reports, then B refuses another agent's claim with 409 and shows the claim and the session", async () => {
    const card = (await apiA.request('POST', '/api/tasks', { content: '# Contested\n', status: 'todo' })).data;
    await eventually(async () => assert.ok((await apiB.cardIds()).includes(card.id)), 20_000);
    assert.equal((await apiA.claim(card.id, 'agent-a')).status, 200);
    const refused = await apiB.claim(card.id, 'agent-b');
    assert.equal(refused.status, 409, refused.error);
    await eventually(async () => assert.equal((await apiB.card(card.id)).claim?.agent, 'agent-a'), 20_000);

    assert.equal((await apiA.report(card.id, 'agent-a', 'halfway')).status, 200);
    await eventually(async () => assert.deepEqual(((await apiB.card(card.id)).session ?? {}).note, 'halfway'), 20_000);
  });
});
