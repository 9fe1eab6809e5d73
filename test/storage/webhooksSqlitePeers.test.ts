import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { Receiver, type Received } from '../helpers/webhookReceiver';
import { configWith } from './helpers/cardProviders';
import { startServerProcess, type ServerProcess, call } from './helpers/child';

const taskIdOf = (r: Received) => r.body.card?.id ?? r.body.data?.taskId;

/**
 * Two real server processes over one SQLite file (one workspace). Each sees the other's cards as
 * peer changes; only the process that made a change delivers its webhook, so the receiver gets
 * every event once.
 */
describe('card.storage sqlite: webhooks with two server processes on one file', function () {
  this.timeout(120_000);
  let root: string;
  let servers: ServerProcess[] = [];
  const receiver = new Receiver();

  before(async () => {
    await receiver.listen();
    root = await makeTempDir();
    const plugins = { 'card.storage': { provider: 'sqlite', options: { pollIntervalMs: 200 } } };
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith(plugins), null, 2));
    servers = await Promise.all([0, 1].map(() => startServerProcess(root)));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when both create cards, then the receiver gets each task.created exactly once', async () => {
    const [a, b] = servers;
    const hook = await call(a.url, 'POST', '/api/webhooks', { url: receiver.url('/peers'), events: ['task.created'] });
    await eventually(
      async () => assert.ok((await call(b.url, 'GET', '/api/webhooks')).some((h: any) => h.id === hook.id)),
      10_000,
    );
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      for (const [s, server] of servers.entries())
        made.push((await call(server.url, 'POST', '/api/tasks', { content: `# From ${'ab'[s]} ${i}\n` })).id);
    }
    // Both have applied the other's cards, so any peer event has been raised by now...
    for (const server of servers) {
      await eventually(async () => {
        const listed = (await call(server.url, 'GET', '/api/tasks')).map((t: any) => t.id);
        for (const id of made) assert.ok(listed.includes(id), `${id} not yet on ${server.url}`);
      }, 10_000);
    }
    // ...and a delivery queued after it, on each process, has arrived.
    const last = await Promise.all(
      servers.map(
        async (server, s) => (await call(server.url, 'POST', '/api/tasks', { content: `# Last from ${'ab'[s]}\n` })).id,
      ),
    );
    await receiver.until(
      () => last.every((id) => receiver.on('/peers').some((r) => taskIdOf(r) === id)),
      'the last cards',
      20_000,
    );
    for (const id of [...made, ...last]) {
      const copies = receiver.on('/peers').filter((r) => r.body.event === 'task.created' && taskIdOf(r) === id).length;
      assert.equal(copies, 1, `task.created for ${id} delivered ${copies} times`);
    }
  });
});
