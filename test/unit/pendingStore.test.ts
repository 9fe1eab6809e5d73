import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PendingStore, rawBodyOf, type PendingDelivery } from '../../server/live/webhooks/pendingStore';
import type { SharedBody } from '../../server/live/webhooks/deliveryBody';

function delivery(n: number, attempts = 0, body: SharedBody = { afterId: `"n":${n}}` }): PendingDelivery {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return { id, webhookId: `wh_${n}`, event: 'task.updated', body, attempts, nextAttemptAt: 1_000 + attempts };
}

/** A delivery as earlier releases wrote it: its whole body in `rawBody`. */
function wholeBodyDelivery(n: number, rawBody = rawBodyOf(delivery(n))) {
  const { body: _body, ...fields } = delivery(n);
  return { ...fields, rawBody };
}

const bodies = (list: PendingDelivery[]) => Object.fromEntries(list.map((d) => [d.id, rawBodyOf(d)]));

const ids = (list: PendingDelivery[]) => list.map((d) => d.id).sort();

describe('webhook pending store', () => {
  let stateDir: string;
  let opened: PendingStore[];
  /** A store whose open segment is closed after the test, as the queue's stop closes it. */
  const newStore = () => {
    const store = new PendingStore(stateDir);
    opened.push(store);
    return store;
  };
  beforeEach(async () => {
    stateDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-pending-'));
    opened = [];
  });
  afterEach(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await fs.rm(stateDir, { recursive: true, force: true });
  });

  it('when deliveries are saved together, then they share one file and a new store reads them all back', async () => {
    const store = newStore();
    await Promise.all([1, 2, 3].map((n) => store.save(delivery(n))));
    assert.equal((await fs.readdir(store.dir)).length, 1);
    await store.close();
    assert.deepEqual(ids(await newStore().loadAll()), ids([1, 2, 3].map((n) => delivery(n))));
  });

  it('when deliveries are saved while a batch is being written, then they share the next batch, appended to the same file', async () => {
    const store = newStore();
    const first = store.save(delivery(1));
    // One microtask later the first batch has been taken and its write started.
    await Promise.resolve();
    const second = store.save(delivery(2));
    assert.equal(store.save(delivery(3)), second, 'saves made meanwhile share one promise');
    assert.notEqual(second, first);
    await second;
    const files = await fs.readdir(store.dir);
    assert.equal(files.length, 1, 'one segment file');
    const lines = (await fs.readFile(path.join(store.dir, files[0]), 'utf8')).trim().split('\n');
    assert.deepEqual(
      lines.map((line) => ids(JSON.parse(line).deliveries)),
      [[delivery(1).id], [delivery(2).id, delivery(3).id]],
    );
    await store.close();
  });

  it('when a crash tore the last line of a segment, then the lines before it are read and the torn one is skipped', async () => {
    const store = newStore();
    await store.save(delivery(1));
    await store.save(delivery(2));
    await store.close();
    const [name] = await fs.readdir(store.dir);
    await fs.appendFile(path.join(store.dir, name), JSON.stringify([delivery(3)]).slice(0, 40));
    assert.deepEqual(ids(await newStore().loadAll()), ids([delivery(1), delivery(2)]));
  });

  it('when a delivery settles while its segment holds others, then a restart does not bring it back', async () => {
    const store = newStore();
    await store.save(delivery(1));
    await store.save(delivery(2));
    await store.remove(delivery(1).id);
    await store.save(delivery(3));
    await store.close();
    assert.equal((await fs.readdir(store.dir)).length, 1, 'the segment stays for 2 and 3');
    assert.deepEqual(ids(await newStore().loadAll()), ids([delivery(2), delivery(3)]));
  });

  it('when every delivery of the open segment settles, then its file is deleted', async () => {
    const store = newStore();
    await store.save(delivery(1));
    await store.save(delivery(2));
    await store.remove(delivery(1).id);
    await store.remove(delivery(2).id);
    await store.flush();
    assert.deepEqual(await fs.readdir(store.dir), []);
    await store.save(delivery(3));
    assert.deepEqual(ids(await newStore().loadAll()), [delivery(3).id], 'later saves open a new segment');
    await store.close();
  });

  it('when some deliveries finish, then only the others come back, and a file with none left is deleted', async () => {
    const store = newStore();
    await Promise.all([1, 2].map((n) => store.save(delivery(n))));
    await store.save(delivery(3));
    await store.remove(delivery(1).id);
    await store.remove(delivery(2).id);
    await store.flush();
    assert.equal((await fs.readdir(store.dir)).length, 1, 'the file of 1 and 2 is gone');
    assert.deepEqual(ids(await newStore().loadAll()), [delivery(3).id]);
  });

  it('when a delivery finishes before its batch is written, then it is never written', async () => {
    const store = newStore();
    const saved = store.save(delivery(1));
    await store.remove(delivery(1).id);
    await saved;
    await store.flush();
    assert.deepEqual(await newStore().loadAll(), []);
  });

  it('when a retried delivery is saved again, then the newer attempt count is what a restart sees', async () => {
    const store = newStore();
    await store.save(delivery(1, 0));
    await store.save(delivery(2, 0));
    await store.save(delivery(1, 3));
    const loaded = await newStore().loadAll();
    assert.deepEqual(loaded.map((d) => [d.id, d.attempts]).sort(), [
      [delivery(1).id, 3],
      [delivery(2).id, 0],
    ]);
  });

  it('when a restart finds superseded files, then it deletes them and keeps the current ones', async () => {
    const first = newStore();
    await first.save(delivery(1, 0));
    await first.save(delivery(1, 1));
    await first.flush();
    // The second write supersedes the first file; simulate a crash before it was deleted.
    await fs.writeFile(path.join(first.dir, 'batch-old-1.json'), JSON.stringify([wholeBodyDelivery(1)]));
    const loaded = await newStore().loadAll();
    assert.deepEqual(
      loaded.map((d) => d.attempts),
      [1],
    );
    const left = await fs.readdir(first.dir);
    assert.ok(!left.includes('batch-old-1.json'), 'the superseded file is deleted');
    assert.equal(left.length, 1);
  });

  it('when the folder holds a one-delivery file of an earlier release and an unreadable file, then the first is read and the second left alone', async () => {
    const store = newStore();
    await fs.mkdir(store.dir, { recursive: true });
    await fs.writeFile(path.join(store.dir, `${delivery(7).id}.json`), JSON.stringify(wholeBodyDelivery(7)));
    await fs.writeFile(path.join(store.dir, 'batch-bad-1.json'), '{ torn');
    assert.deepEqual(ids(await store.loadAll()), [delivery(7).id]);
    assert.ok((await fs.readdir(store.dir)).includes('batch-bad-1.json'));
  });

  it('when the deliveries of one event are saved together, then their shared body is written once and each reads back with its own id', async () => {
    const store = newStore();
    const shared: SharedBody = { afterId: '"event":"task.updated","card":{"title":"say \\"hi\\""},"data":{}}' };
    const list = [1, 2, 3].map((n) => delivery(n, 0, shared));
    await Promise.all(list.map((d) => store.save(d)));
    await store.close();
    const [name] = await fs.readdir(store.dir);
    const line = JSON.parse(await fs.readFile(path.join(store.dir, name), 'utf8'));
    assert.deepEqual(line.bodies, [shared.afterId]);
    const loaded = await newStore().loadAll();
    assert.deepEqual(bodies(loaded), bodies(list));
    assert.deepEqual(JSON.parse(rawBodyOf(loaded[0])).card, { title: 'say "hi"' });
    assert.equal(new Set(loaded.map((d) => d.body)).size, 1, 'still one body in memory after a restart');
  });

  it('when a segment of an earlier release holds whole bodies, then a restart reads them with the same bytes', async () => {
    const store = newStore();
    await fs.mkdir(store.dir, { recursive: true });
    const odd = '{"event":"task.updated","id":"not first"}';
    const lines = [
      JSON.stringify([wholeBodyDelivery(1), wholeBodyDelivery(2)]),
      JSON.stringify({ settled: [delivery(2).id] }),
      JSON.stringify([wholeBodyDelivery(3, odd)]),
    ];
    await fs.writeFile(path.join(store.dir, 'segment-old-1.jsonl'), lines.join('\n') + '\n');
    const loaded = await store.loadAll();
    assert.deepEqual(bodies(loaded), { [delivery(1).id]: rawBodyOf(delivery(1)), [delivery(3).id]: odd });
    // Saved again (after a failed attempt), in today's format, with the same bytes.
    await Promise.all(loaded.map((d) => store.save({ ...d, attempts: 1 })));
    await store.close();
    assert.deepEqual(bodies(await newStore().loadAll()), bodies(loaded));
  });
});
