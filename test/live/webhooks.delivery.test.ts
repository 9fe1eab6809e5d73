import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { listDeliveries, startWebhooks } from '../../server/live/webhooks';
import { createWebhook } from '../../server/live/webhooks/webhookRegistry';
import { createTask as createTaskInWorkspace } from '../../server/service/tasks';
import { Workspace } from '../../server/service/workspace';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, okData } from '../helpers/envelope';
import { Receiver } from '../helpers/webhookReceiver';

/** A port nothing listens on right now (and that a Receiver can take later). */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function hmac(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

async function pause(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('API webhooks: delivery', () => {
  let server: TestServer;
  /** The server this test started, if any, for afterEach to close. */
  let started: TestServer | null = null;
  let receiver: Receiver;
  const savedBackoff = process.env.KANBAN_WEBHOOK_BACKOFF_MS;

  async function startWithBackoff(ms: number): Promise<void> {
    process.env.KANBAN_WEBHOOK_BACKOFF_MS = String(ms);
    server = started = await startTestServer();
  }

  async function register(path: string, events: string[], extra: Record<string, unknown> = {}): Promise<any> {
    return okData(await server.api('POST', '/api/webhooks', { url: receiver.url(path), events, ...extra }), 201);
  }

  async function deliveries(hookId: string): Promise<any[]> {
    return okData(await server.api('GET', `/api/webhooks/${hookId}/deliveries`));
  }

  async function deliveriesUntil(hookId: string, check: (list: any[]) => boolean, what: string): Promise<any[]> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const list = await deliveries(hookId);
      if (check(list)) return list;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; deliveries: ${JSON.stringify(list)}`);
      await pause(25);
    }
  }

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.listen();
  });

  afterEach(async () => {
    if (savedBackoff === undefined) delete process.env.KANBAN_WEBHOOK_BACKOFF_MS;
    else process.env.KANBAN_WEBHOOK_BACKOFF_MS = savedBackoff;
    await started?.close();
    started = null;
    await receiver.close();
  });

  it('when a task is created, then the receiver gets the event, its delivery id, the board and the full card', async () => {
    await startWithBackoff(20);
    await register('/hook', ['task.created']);
    const task = await createTask(server, { content: '# Ship it\n\nBody text', labels: ['ops'], priority: 'high' });
    await receiver.until(() => receiver.received.length === 1, 'one delivery');
    const [got] = receiver.received;
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['x-webhook-event'], 'task.created');
    assert.equal(got.headers['x-webhook-delivery'], got.body.id);
    assert.equal(got.headers['x-webhook-signature'], undefined, 'no secret, no signature');
    assert.deepEqual(Object.keys(got.body), ['id', 'event', 'timestamp', 'boardId', 'card', 'data']);
    assert.equal(got.body.event, 'task.created');
    assert.equal(got.body.boardId, 'default');
    assert.ok(!Number.isNaN(Date.parse(got.body.timestamp)));
    const { comments: _c, ...cardWithoutComments } = got.body.card;
    const { comments: _t, ...taskWithoutComments } = task;
    assert.deepEqual(cardWithoutComments, taskWithoutComments);
  });

  it('when a webhook has a secret, then the signature is the HMAC of the raw body with that secret', async () => {
    await startWithBackoff(20);
    await register('/signed', ['task.created'], { secret: 'top-secret' });
    await createTask(server, 'Signed card');
    await receiver.until(() => receiver.received.length === 1, 'one delivery');
    const [got] = receiver.received;
    assert.equal(got.headers['x-webhook-signature'], hmac('top-secret', got.rawBody));
    assert.notEqual(got.headers['x-webhook-signature'], hmac('other-secret', got.rawBody));
  });

  it('when the secret is ${NAME}, then the environment value signs the delivery', async () => {
    await startWithBackoff(20);
    process.env.KANBAN_TEST_WEBHOOK_KEY = 'from-the-environment';
    try {
      await register('/env', ['column.created'], { secret: '${KANBAN_TEST_WEBHOOK_KEY}' });
      okData(await server.api('POST', '/api/columns', { id: 'qa', name: 'QA' }), 201);
      await receiver.until(() => receiver.received.length === 1, 'one delivery');
      const [got] = receiver.received;
      assert.equal(got.headers['x-webhook-signature'], hmac('from-the-environment', got.rawBody));
      assert.equal(got.body.boardId, 'default');
      assert.equal(got.body.card, undefined, 'column events carry no card');
    } finally {
      delete process.env.KANBAN_TEST_WEBHOOK_KEY;
    }
  });

  it('when the ${NAME} variable of a secret is not set, then nothing is sent and the deliveries say why', async () => {
    await startWithBackoff(20);
    const hook = await register('/unset', ['task.created'], { secret: '${KANBAN_TEST_UNSET_VARIABLE}' });
    await createTask(server, 'Unsigned never');
    const [attempt] = await deliveriesUntil(hook.id, (list) => list.length === 1, 'a failed attempt');
    assert.equal(attempt.status, 'failed');
    assert.match(attempt.error, /KANBAN_TEST_UNSET_VARIABLE.*not set/);
    assert.equal(receiver.received.length, 0);
  });

  it('when the receiver answers 500 once, then the same delivery is retried and then succeeds', async () => {
    await startWithBackoff(20);
    receiver.answer = (_request, count) => (count === 1 ? 500 : 204);
    const hook = await register('/flaky', ['task.created']);
    await createTask(server, 'Retry me');
    await receiver.until(() => receiver.received.length === 2, 'two attempts');
    const [first, second] = receiver.received;
    assert.equal(second.headers['x-webhook-delivery'], first.headers['x-webhook-delivery']);
    assert.equal(second.rawBody, first.rawBody);
    const list = await deliveriesUntil(hook.id, (l) => l.length === 2, 'two recorded attempts');
    assert.deepEqual(
      list.map((a) => [a.attempt, a.status, a.httpStatus]),
      [
        [2, 'delivered', 204],
        [1, 'retrying', 500],
      ],
    );
    assert.match(list[1].error, /HTTP 500: receiver is unwell/);
    assert.equal(list[0].error, null);
    assert.ok(list[1].nextAttemptAt);
    await pause(100);
    assert.equal(receiver.received.length, 2, 'no attempt after success');
  });

  it('when the receiver always fails, then it is tried 5 times with growing delays and then given up', async () => {
    await startWithBackoff(20);
    receiver.answer = () => 503;
    const hook = await register('/down', ['task.created']);
    await createTask(server, 'Never lands');
    const list = await deliveriesUntil(hook.id, (l) => l[0]?.status === 'failed', 'the final failure');
    assert.deepEqual(
      list.map((a) => a.attempt),
      [5, 4, 3, 2, 1],
    );
    assert.deepEqual(
      list.map((a) => a.status),
      ['failed', 'retrying', 'retrying', 'retrying', 'retrying'],
    );
    const times = receiver.received.map((r) => r.headers['x-webhook-delivery']);
    assert.equal(new Set(times).size, 1);
    const starts = list.map((a) => Date.parse(a.at)).reverse();
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    assert.ok(gaps[3] > gaps[0], `delays grow: ${gaps.join(', ')} ms`);
    await pause(200);
    assert.equal(receiver.received.length, 5, 'no sixth attempt');
  });

  it('when a webhook is inactive, then it receives nothing while an active one does, until it is activated again', async () => {
    await startWithBackoff(20);
    const paused = await register('/paused', ['task.created']);
    okData(await server.api('PUT', `/api/webhooks/${paused.id}`, { active: false }));
    await register('/sentinel', ['task.created']);
    await createTask(server, 'While paused');
    await receiver.until(() => receiver.on('/sentinel').length === 1, 'the sentinel delivery');
    await pause(100);
    assert.equal(receiver.on('/paused').length, 0);
    okData(await server.api('PUT', `/api/webhooks/${paused.id}`, { active: true }));
    await createTask(server, 'After resuming');
    await receiver.until(() => receiver.on('/paused').length === 1, 'a delivery after activation');
    assert.match(receiver.on('/paused')[0].body.card.title, /After resuming/);
  });

  it('when webhooks subscribe by exact name, *, and prefix, then each gets exactly its events', async () => {
    await startWithBackoff(20);
    await register('/exact', ['task.created']);
    await register('/all', ['*']);
    await register('/tasks', ['task.*']);
    await register('/columns', ['column.*']);
    const task = await createTask(server, 'Subscribed');
    okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'low' }));
    okData(await server.api('POST', '/api/columns', { id: 'qa', name: 'QA' }), 201);
    await receiver.until(() => receiver.on('/all').length === 3, 'three events on /all');
    await receiver.until(() => receiver.received.length === 7, 'seven deliveries in all');
    await pause(100);
    const events = (path: string) =>
      receiver
        .on(path)
        .map((r) => r.body.event)
        .sort();
    assert.deepEqual(events('/exact'), ['task.created']);
    assert.deepEqual(events('/all'), ['column.created', 'task.created', 'task.updated']);
    assert.deepEqual(events('/tasks'), ['task.created', 'task.updated']);
    assert.deepEqual(events('/columns'), ['column.created']);
    const updated = receiver.on('/tasks').find((r) => r.body.event === 'task.updated')!;
    assert.equal(updated.body.card.priority, 'low');
  });

  it('when a receiver never answers, then API requests are not slowed and the server still closes promptly', async () => {
    await startWithBackoff(20);
    receiver.answer = () => 'hang';
    const hook = await register('/slow', ['*']);
    for (let i = 0; i < 5; i++) await createTask(server, `Fast ${i}`);
    // Had a create waited for its delivery, it would still be waiting: the first request hangs
    // until the 10 s timeout and no attempt has finished yet.
    assert.deepEqual(
      await deliveries(hook.id),
      [],
      'all five creates were answered while the first delivery still hangs',
    );
    await receiver.until(() => receiver.received.length >= 1, 'the hanging request to arrive');
    const closing = Date.now();
    await server.restart();
    assert.ok(Date.now() - closing < 3000, `restart took ${Date.now() - closing} ms`);
  });

  it('when the receiver is down and the server restarts, then the pending delivery still arrives', async () => {
    await startWithBackoff(600);
    const port = await freePort();
    const hook = okData(
      await server.api('POST', '/api/webhooks', { url: `http://127.0.0.1:${port}/later`, events: ['task.created'] }),
      201,
    );
    await createTask(server, 'Survives a restart');
    const [failed] = await deliveriesUntil(hook.id, (l) => l.length >= 1, 'the first failed attempt');
    assert.equal(failed.status, 'retrying');
    assert.equal(failed.httpStatus, null);
    assert.match(failed.error, /ECONNREFUSED/);
    await server.restart();
    const late = new Receiver();
    await late.listen(port);
    try {
      await late.until(() => late.received.length === 1, 'the delivery after restart');
      assert.equal(late.received[0].body.id, failed.deliveryId);
      assert.match(late.received[0].body.card.title, /Survives a restart/);
      const list = await deliveriesUntil(hook.id, (l) => l[0]?.status === 'delivered', 'the delivered attempt');
      assert.equal(list.at(-1).status, 'retrying', 'the attempt before the restart is still listed');
      await pause(100);
      assert.equal(late.received.length, 1, 'delivered once');
      assert.match(await fs.readFile(path.join(server.root, '.kanban', '.gitignore'), 'utf8'), /^\.state\/$/m);
    } finally {
      await late.close();
    }
  });

  it('when a failing webhook gets a corrected url, then the pending retry goes to the new url', async () => {
    await startWithBackoff(150);
    const deadPort = await freePort();
    const hook = okData(
      await server.api('POST', '/api/webhooks', { url: `http://127.0.0.1:${deadPort}/old`, events: ['task.created'] }),
      201,
    );
    await createTask(server, 'Redirected by hand');
    const [failed] = await deliveriesUntil(hook.id, (l) => l.length >= 1, 'the failed first attempt');
    okData(await server.api('PUT', `/api/webhooks/${hook.id}`, { url: receiver.url('/fixed') }));
    await receiver.until(() => receiver.on('/fixed').length === 1, 'the retry at the new url');
    assert.equal(receiver.on('/fixed')[0].body.id, failed.deliveryId);
  });

  it('when a webhook is deleted while a retry is pending, then the retry is not sent', async () => {
    await startWithBackoff(150);
    receiver.answer = () => 500;
    const hook = await register('/doomed', ['task.created']);
    await createTask(server, 'Nobody wants me');
    await receiver.until(() => receiver.on('/doomed').length === 1, 'the first attempt');
    okData(await server.api('DELETE', `/api/webhooks/${hook.id}`));
    // On a busy machine the retry may go out before the delete is answered; none may go after.
    const sentBeforeDelete = receiver.on('/doomed').length;
    // A webhook failing the same way from now on retries after the same backoff, so later than the
    // doomed one would have: once its retry has arrived, the doomed retry's moment has passed.
    await register('/sentinel', ['task.created']);
    await createTask(server, 'Sentinel');
    await receiver.until(() => receiver.on('/sentinel').length >= 2, 'the sentinel retry');
    assert.equal(receiver.on('/doomed').length, sentBeforeDelete);
  });

  it('when a receiver does not answer within the timeout, then the attempt is recorded as timed out and retried', async () => {
    // The 10 s default is an option of the queue; the workspace is driven directly to shorten it.
    receiver.answer = () => 'hang';
    const root = await makeTempDir();
    const ws = await Workspace.open({ root });
    const webhooks = await startWebhooks(ws, { timeoutMs: 150, backoffMs: 20, maxAttempts: 2 });
    try {
      const hook = await createWebhook(ws, { url: receiver.url('/silent'), events: ['task.created'] });
      await createTaskInWorkspace(ws, ws.defaultBoardId, { content: '# Too slow\n' });
      await receiver.until(() => receiver.received.length === 2, 'two attempts');
      const deadline = Date.now() + 3000;
      while ((await listDeliveries(ws, hook.id)).length < 2 && Date.now() < deadline) await pause(20);
      const list = await listDeliveries(ws, hook.id);
      assert.deepEqual(
        list.map((a) => [a.attempt, a.status]),
        [
          [2, 'failed'],
          [1, 'retrying'],
        ],
      );
      for (const attempt of list) {
        assert.match(attempt.error ?? '', /no answer within 0\.15 s/);
        assert.ok(attempt.durationMs >= 140 && attempt.durationMs < 2000, `attempt took ${attempt.durationMs} ms`);
      }
    } finally {
      await webhooks.stop();
      await ws.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
