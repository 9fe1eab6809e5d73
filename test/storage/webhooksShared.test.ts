import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { Receiver, type Received } from '../helpers/webhookReceiver';
import { configWith } from './helpers/cardProviders';
import { startServerProcess, type ServerProcess, call } from './helpers/child';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin } from './helpers/postgres';

const SECRET = 'shared-signing-key';
const deliveryId = (r: Received) => String(r.headers['x-webhook-delivery']);
const taskIdOf = (r: Received) => r.body.card?.id ?? r.body.data?.taskId;

/** The shared databases the test runs over: each makes a fresh database and names it in a plugin entry. */
const DATABASES = [
  { provider: 'mysql', create: createTestDatabase, plugin: mysqlPlugin },
  { provider: 'postgres', create: createPostgresTestDatabase, plugin: postgresPlugin },
] as const;

/**
 * Three real server processes over one MariaDB (or PostgreSQL) database, a receiver in the test. Deliveries live in
 * the database: each event goes once to each webhook whichever instance made it, any instance may
 * retry it, the log is the same from every instance, and a killed instance's leases are taken over.
 */
for (const { provider, create, plugin } of DATABASES)
  describe(`card.storage ${provider}: webhooks delivered once across three instances`, function () {
    this.timeout(120_000);
    let database: TestDatabase;
    let roots: string[] = [];
    let servers: ServerProcess[] = [];
    const receiver = new Receiver();

    before(async () => {
      database = await create();
      await receiver.listen();
      roots = await Promise.all([0, 1, 2].map(() => makeTempDir()));
      for (const root of roots) {
        await fs.writeFile(
          path.join(root, '.kanban.json'),
          JSON.stringify(configWith({ 'card.storage': plugin(database.name, { pollIntervalMs: 200 }) }), null, 2),
        );
      }
      // A short lease, so that a killed instance's deliveries are taken over within seconds.
      const env = { KANBAN_WEBHOOK_BACKOFF_MS: '50', KANBAN_WEBHOOK_LEASE_MS: '6000' };
      servers = [];
      for (const root of roots) servers.push(await startServerProcess(root, env));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await receiver.close();
      for (const root of roots) await fs.rm(root, { recursive: true, force: true });
      await database?.drop();
    });

    /** Register on the first instance, then wait until every instance has the registration. */
    async function register(hookPath: string): Promise<string> {
      const hook = await call(servers[0].url, 'POST', '/api/webhooks', {
        url: receiver.url(hookPath),
        events: ['task.created'],
        secret: SECRET,
      });
      for (const server of servers) {
        await eventually(
          async () => assert.ok((await call(server.url, 'GET', '/api/webhooks')).some((h: any) => h.id === hook.id)),
          10_000,
        );
      }
      return hook.id;
    }

    /** Once no delivery is pending, no instance can send anything more. */
    async function nothingPending(): Promise<void> {
      await eventually(async () => {
        const [row] = await database.query('SELECT COUNT(*) AS n FROM kanban_webhook_deliveries');
        assert.equal(Number(row.n), 0, 'deliveries still pending');
      }, 30_000);
    }

    it('when writes are spread over all three instances, then the receiver gets each event exactly once, signed with the shared secret', async () => {
      await register('/all');
      // The three write at the same time, each one request after another (a burst of connections
      // could time out on a loaded machine, which is not what this test is about).
      const created = await Promise.all(
        servers.map(async (server, s) => {
          const tasks = [];
          for (let i = 0; i < 8; i++)
            tasks.push(await call(server.url, 'POST', '/api/tasks', { content: `# From ${s} number ${i}\n` }));
          return tasks;
        }),
      );
      const ids = created
        .flat()
        .map((t) => t.id)
        .sort();
      await receiver.until(
        () => new Set(receiver.on('/all').map(taskIdOf)).size === ids.length,
        'one delivery per created task',
        30_000,
      );
      await nothingPending();
      const got = receiver.on('/all');
      assert.deepEqual(got.map(taskIdOf).sort(), ids, 'each created task once, none twice');
      assert.equal(new Set(got.map(deliveryId)).size, got.length, 'no delivery id twice');
      for (const request of got) {
        const expected = 'sha256=' + createHmac('sha256', SECRET).update(request.rawBody).digest('hex');
        assert.equal(
          request.headers['x-webhook-signature'],
          expected,
          'signed with the secret stored in the database, whichever instance sent it',
        );
        assert.equal(request.body.id, deliveryId(request));
      }
    });

    it('when the receiver fails the first attempt, then some instance retries it once and every instance lists both attempts', async () => {
      const hookId = await register('/flaky');
      receiver.answer = (request) =>
        request.path === '/flaky' && receiver.received.filter((r) => deliveryId(r) === deliveryId(request)).length === 1
          ? 500
          : 200;
      const task = await call(servers[1].url, 'POST', '/api/tasks', { content: '# Flaky receiver\n' });
      await receiver.until(() => receiver.on('/flaky').length >= 2, 'the first attempt and its retry', 30_000);
      await nothingPending();
      const got = receiver.on('/flaky');
      assert.equal(got.length, 2, 'one failed attempt, one retry');
      assert.equal(deliveryId(got[0]), deliveryId(got[1]), 'the retry carries the same delivery id');
      assert.equal(taskIdOf(got[0]), task.id);
      for (const server of servers) {
        await eventually(async () => {
          const log = await call(server.url, 'GET', `/api/webhooks/${hookId}/deliveries`);
          assert.deepEqual(
            log.map((a: any) => [a.deliveryId, a.attempt, a.status, a.httpStatus]),
            [
              [deliveryId(got[0]), 2, 'delivered', 200],
              [deliveryId(got[0]), 1, 'retrying', 500],
            ],
          );
        }, 10_000);
      }
    });

    it('when a webhook is deleted through one instance, then its pending retries are dropped and its log is gone on every instance', async () => {
      const hookId = await register('/gone');
      receiver.answer = (request) => (request.path === '/gone' ? 503 : 200);
      await call(servers[0].url, 'POST', '/api/tasks', { content: '# Nobody listens\n' });
      await eventually(async () => {
        const log = await call(servers[2].url, 'GET', `/api/webhooks/${hookId}/deliveries`);
        assert.ok(
          log.some((a: any) => a.status === 'retrying' && a.httpStatus === 503),
          'a failed attempt is listed',
        );
      }, 20_000);
      await call(servers[1].url, 'DELETE', `/api/webhooks/${hookId}`);
      await nothingPending();
      for (const server of servers) {
        await eventually(
          async () => assert.equal((await fetch(`${server.url}/api/webhooks/${hookId}/deliveries`)).status, 404),
          10_000,
        );
      }
      const [row] = await database.query('SELECT COUNT(*) AS n FROM kanban_webhook_attempts WHERE webhook_id = ?', [
        hookId,
      ]);
      assert.equal(Number(row.n), 0, 'the shared log of the webhook is gone');
    });

    it('when the instance holding a delivery is killed, then another takes it over after the lease and no delivery is lost', async () => {
      await register('/slow');
      // The first delivery hangs in the receiver, so an instance holds its lease while we kill it.
      let first: string | null = null;
      receiver.answer = (request) => {
        if (request.path !== '/slow') return 200;
        first ??= deliveryId(request);
        return deliveryId(request) === first && receiver.received.filter((r) => deliveryId(r) === first).length === 1
          ? 'hang'
          : 200;
      };
      const hung = await call(servers[2].url, 'POST', '/api/tasks', { content: '# Hung delivery\n' });
      await receiver.until(() => first !== null, 'the first delivery to arrive', 30_000);
      const [lease] = await database.query('SELECT owner, lease_until FROM kanban_webhook_deliveries WHERE id = ?', [
        first,
      ]);
      assert.ok(lease?.owner, 'the hung delivery is leased');
      // While the attempt runs, its owner keeps renewing the lease, so no one else takes it.
      await eventually(async () => {
        const [now] = await database.query('SELECT owner, lease_until FROM kanban_webhook_deliveries WHERE id = ?', [
          first,
        ]);
        assert.equal(now.owner, lease.owner);
        assert.ok(now.lease_until > lease.lease_until, 'the lease was renewed');
      }, 10_000);
      const owners = await Promise.all(
        servers.map(async (s) => (await call(s.url, 'GET', '/api/workspace')).instances.find((i: any) => i.self).id),
      );
      const doomed = owners.indexOf(lease.owner);
      assert.ok(doomed >= 0, `the lease owner ${lease.owner} is one of ${owners.join(', ')}`);
      // More writes on every instance, the doomed one included, just before it dies.
      const more = await Promise.all(
        servers.map((s, i) => call(s.url, 'POST', '/api/tasks', { content: `# Written before the kill on ${i}\n` })),
      );
      await servers[doomed].kill();
      const ids = [hung, ...more].map((t) => t.id).sort();
      await receiver.until(
        () => receiver.on('/slow').filter((r) => deliveryId(r) === first).length === 2,
        'the hung delivery sent again by another instance',
        30_000,
      );
      await receiver.until(
        () => new Set(receiver.on('/slow').map(taskIdOf)).size === ids.length,
        'every write delivered',
        30_000,
      );
      await nothingPending();
      const got = receiver.on('/slow');
      assert.deepEqual([...new Set(got.map(taskIdOf))].sort(), ids, 'no delivery lost');
      // A delivery the killed instance had in flight may arrive twice (its answer died with it), but
      // always under its one delivery id: a receiver that de-duplicates on the id sees each event once.
      const idsPerTask = new Map<string, Set<string>>();
      for (const r of got) idsPerTask.set(taskIdOf(r), (idsPerTask.get(taskIdOf(r)) ?? new Set()).add(deliveryId(r)));
      assert.deepEqual(
        [...idsPerTask.values()].map((set) => set.size),
        ids.map(() => 1),
        'one delivery id per event',
      );
      const [attempt] = await database.query(
        "SELECT instance FROM kanban_webhook_attempts WHERE delivery_id = ? AND status = 'delivered'",
        [first],
      );
      assert.notEqual(attempt.instance, lease.owner, 'delivered by a surviving instance');
    });
  });
