import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWebhooks } from '../../server/live/webhooks';
import { createWebhook } from '../../server/live/webhooks/webhookRegistry';
import { createTask } from '../../server/service/tasks';
import { Workspace } from '../../server/service/workspace';
import { makeTempDir } from '../helpers/testServer';
import { Receiver } from '../helpers/webhookReceiver';

const BACKOFF_MS = 150;
const BACKLOG = 20;
const TIMEOUT_MS = 1000;

describe('API webhooks: failing receivers cost little', () => {
  let receiver: Receiver;
  let root: string;
  let ws: Workspace;
  let webhooks: { stop(): Promise<void> } | undefined;

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.listen();
    root = await makeTempDir();
    ws = await Workspace.open({ root });
  });

  async function start(options: { timeoutMs?: number; maxConcurrentDeliveries?: number } = {}): Promise<void> {
    webhooks = await startWebhooks(ws, { backoffMs: BACKOFF_MS, ...options });
  }

  afterEach(async () => {
    await webhooks?.stop();
    await ws.close();
    await receiver.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when a receiver fails every attempt, then a backlog is probed one attempt at a time with growing pauses, and all of it arrives once the receiver recovers', async () => {
    await start();
    const arrivals: number[] = [];
    const accepted = new Set<string>();
    let down = true;
    receiver.answer = (request) => {
      arrivals.push(Date.now());
      if (down) return 500;
      accepted.add(request.body.id);
      return 204;
    };
    await createWebhook(ws, { url: receiver.url('/flaky'), events: ['task.created'] });
    for (let i = 0; i < BACKLOG; i++) await createTask(ws, ws.defaultBoardId, { content: `# Backlog ${i}\n` });

    await receiver.until(() => receiver.received.length >= 3, 'three attempts while the receiver is down');
    const gaps = arrivals.slice(1, 3).map((t, i) => t - arrivals[i]);
    // Without the pause every one of the 20 deliveries would have been tried at once.
    for (const gap of gaps) assert.ok(gap >= BACKOFF_MS * 0.9, `attempts ${gaps.join(', ')} ms apart`);
    assert.ok(receiver.received.length < BACKLOG / 2, `${receiver.received.length} attempts while down`);

    down = false;
    await receiver.until(() => accepted.size === BACKLOG, `all ${BACKLOG} deliveries after the recovery`, 10_000);
    const titles = new Set(receiver.received.map((r) => r.body.card.title));
    assert.equal(titles.size, BACKLOG);
  });

  it('when the receivers of several webhooks never answer, then no more deliveries are in flight at once than the cap', async () => {
    await start({ timeoutMs: TIMEOUT_MS, maxConcurrentDeliveries: 2 });
    const arrivals: number[] = [];
    // Accepts every delivery and never answers: each request ends when the sender gives up on it.
    const silent = http.createServer((request) => {
      arrivals.push(Date.now());
      request.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
      for (let i = 0; i < 3; i++) await createWebhook(ws, { url, events: ['task.created'] });
      for (let i = 0; i < 4; i++) await createTask(ws, ws.defaultBoardId, { content: `# Unheard ${i}\n` });
      // Twelve deliveries wait. Nothing frees a slot before the first attempts time out, so every
      // request that arrives well before that moment was sent at once with the first one.
      await receiver.until(() => arrivals.length >= 3, 'an attempt after the first ones timed out', 10_000);
      const atOnce = arrivals.filter((t) => t < arrivals[0] + TIMEOUT_MS / 2).length;
      assert.equal(atOnce, 2, `${atOnce} requests were sent at once`);
    } finally {
      await webhooks?.stop();
      webhooks = undefined;
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
