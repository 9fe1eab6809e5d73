import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startWebhooks } from '../../server/live/webhooks';
import { createWebhook } from '../../server/live/webhooks/webhookRegistry';
import { createTask } from '../../server/service/tasks';
import { Workspace } from '../../server/service/workspace';
import { makeTempDir } from '../helpers/testServer';
import { Receiver } from '../helpers/webhookReceiver';

const BACKOFF_MS = 150;
const BACKLOG = 20;

describe('API webhooks: a failing receiver costs a probe at a time', () => {
  let receiver: Receiver;
  let root: string;
  let ws: Workspace;
  let webhooks: { stop(): Promise<void> };

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.listen();
    root = await makeTempDir();
    ws = await Workspace.open({ root });
    webhooks = await startWebhooks(ws, { backoffMs: BACKOFF_MS });
  });

  afterEach(async () => {
    await webhooks.stop();
    await ws.close();
    await receiver.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when a receiver fails every attempt, then a backlog is probed one attempt at a time with growing pauses, and all of it arrives once the receiver recovers', async () => {
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
});
