import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, MYSQL_HOST, MYSQL_PORT, type TestDatabase } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin, POSTGRES_HOST, POSTGRES_PORT } from './helpers/postgres';
import { TcpProxy } from './helpers/tcpProxy';
import { startServerProcess, type ServerProcess } from './helpers/child';
import { eventually, waitUntil } from '../helpers/waiting';
import WebSocket from 'ws';
import { RecordingSocket, wsUrl, type WsMessage } from '../helpers/wsClient';

interface Answer {
  status: number;
  body: any;
  etag: string | null;
}

async function request(
  base: string,
  method: string,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(base + urlPath, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), etag: response.headers.get('etag') };
}

async function call(base: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const answer = await request(base, method, urlPath, body);
  if (!answer.body.ok) throw new Error(`${method} ${urlPath} answered ${answer.status}: ${answer.body.error}`);
  return answer.body.data;
}

/** The HTTP answer to a WebSocket upgrade the server refuses. */
function upgradeRefusal(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => reject(new Error(`${url} was accepted`)));
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
}

/** What every instance must answer alike once the load has settled. */
const SHARED_READS = ['/api/boards', '/api/columns', '/api/labels', '/api/settings', '/api/webhooks', '/api/tasks'];

/** Events a client saw, as [revision, event, id] for comparing clients. */
function seen(client: RecordingSocket): [number, string, unknown][] {
  return client
    .events()
    .map((m) => [m.revision as number, m.event as string, m.data?.taskId ?? m.data?.columnId ?? m.data?.name ?? null]);
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

/** The shared databases the test runs over: a fresh database, the server's address, the plugin entry. */
const DATABASES = [
  { provider: 'mysql', create: createTestDatabase, host: MYSQL_HOST, port: MYSQL_PORT, plugin: mysqlPlugin },
  {
    provider: 'postgres',
    create: createPostgresTestDatabase,
    host: POSTGRES_HOST,
    port: POSTGRES_PORT,
    plugin: postgresPlugin,
  },
] as const;

/**
 * Three real server processes over one MariaDB (or PostgreSQL) database (reached through a TCP relay, so the
 * database can be taken away without stopping the server other tests share).
 */
for (const { provider, create, host, port, plugin } of DATABASES)
  describe(`card.storage ${provider}: three instances, one global event log`, function () {
    this.timeout(180_000);
    let database: TestDatabase;
    let proxy: TcpProxy;
    let roots: string[] = [];
    let servers: ServerProcess[] = [];
    const sockets: RecordingSocket[] = [];

    const headSeq = async () =>
      Number((await database.query('SELECT seq FROM kanban_event_seq WHERE name = ?', ['events']))[0].seq);

    before(async () => {
      database = await create();
      proxy = new TcpProxy(host, port);
      await proxy.start();
      roots = [await makeTempDir(), await makeTempDir(), await makeTempDir()];
      const plugins = { 'card.storage': plugin(database.name, { port: proxy.port, pollIntervalMs: 200 }) };
      for (const root of roots)
        await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(plugins), null, 2));
      // The first seeds the shared configuration; the others then adopt it.
      servers = [await startServerProcess(roots[0])];
      servers.push(...(await Promise.all(roots.slice(1).map((root) => startServerProcess(root)))));
    });
    after(async () => {
      for (const socket of sockets) socket.close();
      await Promise.all(servers.map((s) => s.stop()));
      for (const root of roots) await fs.rm(root, { recursive: true, force: true });
      await proxy?.stop();
      await database?.drop();
    });

    it('when card and config writes are spread over three instances, then all answer the same and each WebSocket client saw every event once, in revision order', async () => {
      const clients = await Promise.all(servers.map((s) => RecordingSocket.connect(wsUrl(s.url))));
      sockets.push(...clients);
      const start = clients[0].messages[0].revision as number;
      for (const client of clients)
        assert.equal(client.messages[0].revision, start, 'every instance says hello at the same global revision');

      const worker = async (server: ServerProcess, n: number) => {
        await call(server.url, 'POST', '/api/webhooks', {
          url: `http://127.0.0.1:9/hook-${n}`,
          events: ['board.deleted'],
        });
        for (let i = 0; i < 5; i++) {
          const card = await call(server.url, 'POST', '/api/tasks', { content: `# Load ${n}.${i}\n` });
          await call(server.url, 'POST', `/api/tasks/${card.id}/comments`, {
            author: `i${n}`,
            content: `comment ${n}.${i}`,
          });
          await call(server.url, 'PUT', `/api/tasks/${card.id}`, { content: `# Load ${n}.${i} edited\n` });
          await call(server.url, 'PATCH', `/api/tasks/${card.id}/move`, { status: 'in-progress' });
          await call(server.url, 'PUT', `/api/labels/l${n}-${i}`, { color: '#336699' });
          await call(server.url, 'PUT', '/api/settings', { compactMode: (n + i) % 2 === 0 });
        }
        await call(server.url, 'POST', '/api/columns', { id: `c${n}`, name: `Column ${n}` });
      };
      await Promise.all(servers.map((s, n) => worker(s, n)));

      const head = await headSeq();
      assert.ok(head - start >= 3 * 5 * 6, `the log holds every change (${head - start} events)`);
      const answers = async (s: ServerProcess) =>
        JSON.stringify(await Promise.all(SHARED_READS.map((p) => call(s.url, 'GET', p))));
      await eventually(
        async () => {
          const [a, b, c] = await Promise.all(servers.map(answers));
          assert.equal(b, a, 'instance 2 answers like instance 1');
          assert.equal(c, a, 'instance 3 answers like instance 1');
        },
        20_000,
        200,
      );
      const tasks = await call(servers[0].url, 'GET', '/api/tasks');
      assert.equal(
        tasks.filter((t: any) => /^Load \d\.\d edited$/.test(t.title) && t.status === 'in-progress').length,
        15,
      );

      for (const [n, client] of clients.entries()) {
        await waitUntil(
          () => client.events().at(-1)?.revision === head,
          20_000,
          `instance ${n + 1}'s client reaching revision ${head}`,
        );
        assertConsecutive(client.events(), start + 1, `instance ${n + 1}`);
        assert.ok(
          client.events().every((m) => m.data?.peer === undefined),
          'events mirrored from another instance are not sent twice',
        );
      }
      assert.deepEqual(seen(clients[1]), seen(clients[0]));
      assert.deepEqual(seen(clients[2]), seen(clients[0]));
    });

    it('when a card changes on one instance, then a client of another gets the event within a second and a GET there right after it shows the change', async () => {
      const [a, , c] = servers;
      const card = await call(a.url, 'POST', '/api/tasks', { content: '# Read after event\n' });
      const client = await RecordingSocket.connect(wsUrl(c.url));
      sockets.push(client);
      for (let i = 1; i <= 3; i++) {
        const sent = Date.now();
        await call(a.url, 'PUT', `/api/tasks/${card.id}`, { content: `# Read after event ${i}\n` });
        const event = await client.waitFor(
          (m) => m.event === 'task.updated' && m.card?.title === `Read after event ${i}`,
          10_000,
        );
        const lag = Date.now() - sent;
        const read = await call(c.url, 'GET', `/api/tasks/${card.id}`);
        assert.equal(read.title, `Read after event ${i}`, `the GET after event ${event.revision} shows the change`);
        // Within a second on an idle machine; the bound is loose because CI machines are loaded.
        assert.ok(lag < 5000, `the event took ${lag} ms`);
      }
    });

    it('when a card changed on instance 2 after instance 1 gave its ETag, then If-Match with that ETag on instance 1 is refused with 412 and nothing is overwritten', async () => {
      const [a, b] = servers;
      const card = await call(a.url, 'POST', '/api/tasks', { content: '# Versioned\n' });
      await eventually(() => call(b.url, 'GET', `/api/tasks/${card.id}`), 10_000);
      const read = await request(a.url, 'GET', `/api/tasks/${card.id}`);
      assert.ok(read.etag);
      await call(b.url, 'PUT', `/api/tasks/${card.id}`, { content: '# Versioned by instance 2\n' });
      const stale = await request(
        a.url,
        'PUT',
        `/api/tasks/${card.id}`,
        { content: '# Versioned by instance 1\n' },
        { 'if-match': read.etag! },
      );
      assert.equal(stale.status, 412, JSON.stringify(stale.body));
      assert.match(stale.body.error, /changed since you read it/);
      const settings = await request(a.url, 'GET', '/api/settings');
      await call(b.url, 'PUT', '/api/settings', { showAssignee: false });
      const staleSettings = await request(
        a.url,
        'PUT',
        '/api/settings',
        { showLabels: false },
        { 'if-match': settings.etag! },
      );
      assert.equal(staleSettings.status, 412, JSON.stringify(staleSettings.body));
      for (const s of servers)
        await eventually(
          async () =>
            assert.equal((await call(s.url, 'GET', `/api/tasks/${card.id}`)).title, 'Versioned by instance 2'),
          10_000,
        );
    });

    it('when a client reconnects to another instance with ?since, then it gets exactly the events it missed; when they were pruned, it is told to re-fetch', async () => {
      const [a, b, c] = servers;
      const first = await RecordingSocket.connect(wsUrl(a.url));
      const since = first.messages[0].revision as number;
      first.close();
      const missed = await call(b.url, 'POST', '/api/tasks', { content: '# Missed while away\n' });
      await call(b.url, 'PATCH', `/api/tasks/${missed.id}/move`, { status: 'done' });
      const head = await headSeq();

      const back = await RecordingSocket.connect(wsUrl(c.url, `/ws?since=${since}`));
      sockets.push(back);
      assert.equal(back.messages[0].revision, since);
      assert.equal((back.messages[0] as any).resumed, true);
      await waitUntil(() => back.events().at(-1)?.revision === head, 10_000, 'the missed events');
      assertConsecutive(back.events(), since + 1, 'reconnected client');
      // Instance 1 may have said hello before an earlier test's last event reached it: that one comes too.
      assert.deepEqual(
        back
          .events()
          .slice(-2)
          .map((m) => m.event),
        ['task.created', 'task.moved'],
      );

      await database.query('DELETE FROM kanban_events WHERE seq <= ?', [head - 1]);
      const late = await RecordingSocket.connect(wsUrl(b.url, `/ws?since=${since}`));
      sockets.push(late);
      assert.equal((late.messages[0] as any).refetch, true, 'pruned events: re-fetch');
      assert.ok((late.messages[0].revision as number) >= head);
      const refused = await upgradeRefusal(wsUrl(b.url, '/ws?since=yesterday'));
      assert.equal(refused.status, 400);
      assert.match(refused.body, /since must be a revision/);
    });

    it('when the database is away for 5 s, then writes answer 503 on every instance, and afterwards all serve and stream again without a restart', async () => {
      const client = await RecordingSocket.connect(wsUrl(servers[2].url));
      sockets.push(client);
      await proxy.stop();
      const away = Date.now();
      let refusals = 0;
      // The outage lasts 5 s by definition of the test; writes are tried all along.
      while (Date.now() - away < 5000) {
        for (const s of servers) {
          const answer = await request(s.url, 'POST', '/api/tasks', { content: '# During the outage\n' });
          assert.equal(answer.status, 503, JSON.stringify(answer.body));
          refusals++;
        }
      }
      assert.ok(refusals >= 3);
      await proxy.start();
      const after: string[] = [];
      for (const s of servers) {
        const card = await eventually(
          () => call(s.url, 'POST', '/api/tasks', { content: `# After the outage ${s.url}\n` }),
          20_000,
          200,
        );
        after.push(card.id);
      }
      await client.waitFor((m) => m.event === 'task.created' && m.data?.taskId === after[0], 10_000);
      for (const s of servers) {
        await eventually(
          async () => {
            const ids = (await call(s.url, 'GET', '/api/tasks')).map((t: any) => t.id);
            for (const id of after) assert.ok(ids.includes(id), `${s.url} lists ${id}`);
            assert.ok(
              !(await call(s.url, 'GET', '/api/tasks')).some((t: any) => t.title === 'During the outage'),
              'no refused write was stored',
            );
          },
          15_000,
          200,
        );
      }
    });

    it('when one instance is killed (kill -9) in the middle of a load, then no acknowledged write is lost and the others keep streaming in order', async () => {
      const [a, b, c] = servers;
      const watchers = await Promise.all([a, b].map((s) => RecordingSocket.connect(wsUrl(s.url))));
      sockets.push(...watchers);
      const acknowledged: string[] = [];
      let stop = false;
      const load = async (server: ServerProcess, who: string) => {
        for (let i = 0; !stop && i < 200; i++) {
          try {
            const card = await call(server.url, 'POST', '/api/tasks', { content: `# Crash load ${who}.${i}\n` });
            acknowledged.push(card.id);
            await call(server.url, 'PATCH', `/api/tasks/${card.id}/move`, { status: 'review' });
          } catch {
            if (server === c) return; // the killed instance's unanswered requests were never acknowledged
            throw new Error(`instance ${who} failed during the load`);
          }
        }
      };
      const loads = [load(a, 'a'), load(b, 'b'), load(c, 'c')];
      await waitUntil(() => acknowledged.length >= 12, 30_000, 'a dozen acknowledged writes');
      await c.kill();
      const ackedAtKill = acknowledged.length;
      await waitUntil(() => acknowledged.length >= ackedAtKill + 6, 30_000, 'more writes after the kill');
      stop = true;
      await Promise.all(loads);
      servers = [a, b, await startServerProcess(roots[2])];

      for (const s of servers) {
        await eventually(
          async () => {
            const ids = new Set((await call(s.url, 'GET', '/api/tasks')).map((t: any) => t.id));
            const lost = acknowledged.filter((id) => !ids.has(id));
            assert.deepEqual(lost, [], `${s.url} lacks acknowledged cards`);
          },
          20_000,
          200,
        );
      }
      const head = await headSeq();
      for (const [n, watcher] of watchers.entries()) {
        await waitUntil(
          () => watcher.events().at(-1)?.revision === head,
          20_000,
          `watcher ${n + 1} reaching revision ${head}`,
        );
        // Each from its own hello: an event still being delivered when they connected may put one
        // instance's hello a revision past the other's.
        assertConsecutive(watcher.events(), (watcher.messages[0].revision as number) + 1, `watcher ${n + 1}`);
      }
    });
  });
