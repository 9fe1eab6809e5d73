import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startWebhooks } from '../../server/live/webhooks';
import { createWebhook } from '../../server/live/webhooks/webhookRegistry';
import { createTask } from '../../server/service/tasks';
import { Workspace } from '../../server/service/workspace';
import { buildServerBundle, runBuiltServer, type BuiltServerRun } from '../storage/helpers/builtServer';
import { makeTempDir, startTestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';
import { Receiver } from '../helpers/webhookReceiver';

const KILLS = 10;
/** Creates acknowledged per run before the kill; the kill comes the moment the last one is read. */
const ACKS_PER_RUN = 8;
/** Requests in flight at once, so some are mid-way through the server when it dies. */
const WRITERS = 4;
/**
 * Long enough that the retry of a create's delivery is still waiting when the kill comes (even if
 * the fsync before the answer is slow), short enough that the last run catches up at once.
 */
const ENV = { KANBAN_WEBHOOK_BACKOFF_MS: '200' };

async function startBuilt(root: string): Promise<BuiltServerRun & { url: string }> {
  const run = await runBuiltServer(root, { env: ENV });
  if (run.url === null) throw new Error(`the server did not start: ${(await run.exited).stderr}`);
  return run as BuiltServerRun & { url: string };
}

/** POSTs creates, WRITERS at a time, until the server stops answering; `onAck` hears every 201. */
async function createUntilDeath(url: string, round: number, onAck: (taskId: string) => void): Promise<void> {
  let n = 0;
  const writer = async () => {
    for (;;) {
      let status: number;
      let body: { data?: { id: string } };
      try {
        const response = await fetch(`${url}/api/tasks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: `# crash ${round}.${n++}\n` }),
        });
        status = response.status;
        body = await response.json();
      } catch {
        // The server is gone: what it never fully answered was never acknowledged.
        return;
      }
      if (status !== 201) throw new Error(`create answered ${status}: ${JSON.stringify(body)}`);
      onAck(body.data!.id);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

describe('webhooks: at least once across crashes', function () {
  // Budget for the work, not for waiting: the kill test starts the built server eleven times, and
  // one start takes 0.4 s on an idle two-core machine but several seconds when both cores are busy.
  this.timeout(150_000);
  let receiver: Receiver;
  let root: string;

  before(() => buildServerBundle());

  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.listen();
    root = await makeTempDir('kanban-crash-');
  });

  afterEach(async () => {
    await receiver.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when a create is answered, then its pending delivery is already on disk', async () => {
    // A receiver that never answers keeps the delivery pending, so the file is still there to see.
    receiver.answer = () => 'hang';
    const ws = await Workspace.open({ root });
    const webhooks = await startWebhooks(ws, { backoffMs: 20 });
    try {
      await createWebhook(ws, { url: receiver.url('/hook'), events: ['task.created'] });
      const pendingDir = path.join(ws.stateDir, 'webhooks', 'pending');
      for (let i = 0; i < 5; i++) {
        const task = await createTask(ws, ws.defaultBoardId, { content: `# Durable ${i}\n` });
        const names = await fs.readdir(pendingDir);
        const texts = await Promise.all(names.map((name) => fs.readFile(path.join(pendingDir, name), 'utf8')));
        assert.ok(
          texts.some((text) => text.includes(task.id)),
          `no pending file names ${task.id} when the create returns`,
        );
      }
    } finally {
      await webhooks.stop();
      await ws.close();
    }
  });

  it('when a card file is edited by hand, then the delivery of its event is saved to disk though no request waits for it', async () => {
    receiver.answer = () => 'hang';
    const server = await startTestServer({ root });
    try {
      okData(await server.api('POST', '/api/webhooks', { url: receiver.url('/hook'), events: ['task.updated'] }), 201);
      const task = okData(await server.api('POST', '/api/tasks', { content: '# By hand\n' }), 201);
      const file = path.join(root, '.kanban', 'boards', 'default', task.status, `${task.id}.md`);
      await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('# By hand', '# Edited by hand'));
      const pendingDir = path.join(root, '.kanban', '.state', 'webhooks', 'pending');
      await waitUntil(
        async () => {
          const names = await fs.readdir(pendingDir).catch(() => [] as string[]);
          const texts = await Promise.all(
            names.map((name) => fs.readFile(path.join(pendingDir, name), 'utf8').catch(() => '')),
          );
          return texts.some((text) => text.includes('Edited by hand'));
        },
        5000,
        'a pending file holding the hand edit',
      );
    } finally {
      await server.running.close();
    }
  });

  it('when the built server is killed with -9 ten times during creates, then every acknowledged create is delivered', async () => {
    const seen = new Set<string>();
    const attempts = new Map<string, number>();
    // Each delivery's first attempt fails, so every create's delivery is still pending (waiting
    // for its retry) for a while after the answer: the kill lands in that window every round, and
    // the deliveries at risk can only come back from the pending files.
    receiver.answer = (request) => {
      const tries = (attempts.get(request.body.id) ?? 0) + 1;
      attempts.set(request.body.id, tries);
      if (tries === 1) return 503;
      if (request.body.event === 'task.created') seen.add(request.body.card.id);
      return 200;
    };
    const acked = new Set<string>();
    /** Acknowledged creates whose delivery had not arrived when the process died: the ones at risk. */
    let atRiskAtKill = 0;
    for (let round = 0; round < KILLS; round++) {
      const run = await startBuilt(root);
      if (round === 0) {
        const created = await fetch(`${run.url}/api/webhooks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: receiver.url('/hook'), events: ['*'] }),
        });
        assert.equal(created.status, 201, await created.text());
      }
      const ackedHere: string[] = [];
      await createUntilDeath(run.url, round, (taskId) => {
        acked.add(taskId);
        ackedHere.push(taskId);
        if (ackedHere.length !== ACKS_PER_RUN) return;
        void run.kill();
        atRiskAtKill += ackedHere.filter((id) => !seen.has(id)).length;
      });
      const { code } = await run.exited;
      assert.equal(code, null, 'the process was killed, it did not exit by itself');
    }
    const last = await startBuilt(root);
    try {
      await waitUntil(() => [...acked].every((id) => seen.has(id)), 20_000, 'a delivery for every acknowledged create');
    } catch {
      // Fall through to the assertion, which names what was lost.
    } finally {
      await last.stop();
    }
    const lost = [...acked].filter((id) => !seen.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.size} acknowledged creates never reached the receiver`);
    assert.ok(acked.size >= KILLS * ACKS_PER_RUN);
    // Without this the test could pass by luck: every delivery landing before its kill.
    assert.ok(
      atRiskAtKill > 0,
      'no acknowledged create was still undelivered at a kill; the crash window was not exercised',
    );
  });
});
