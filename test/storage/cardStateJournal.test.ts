import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CardStateRecord } from '../../server/storage/cardStateStore';
import { FileCardStateStore } from '../../server/storage/state/fileCardStateStore';

/** Compaction only when a test asks for it. */
const NEVER = { compactMinBytes: Number.MAX_SAFE_INTEGER };
const ROUNDS = 150;

function record(card: number, actor: string, at: number): CardStateRecord {
  return {
    boardId: 'default',
    cardId: `card-${card}`,
    actor,
    readThrough: new Date(Date.UTC(2026, 0, 1, 0, 0, at)).toISOString(),
  };
}

/** The state a fresh store loads from the folder, as `cardId/actor -> readThrough`, sorted. */
async function loaded(stateDir: string): Promise<Record<string, string | undefined>> {
  const store = new FileCardStateStore(stateDir, NEVER);
  const records = await store.loadAll();
  await store.close();
  return Object.fromEntries(
    records.map((r) => [`${r.cardId}/${r.actor}`, r.readThrough] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

describe('card state file store: journal and compaction', () => {
  let stateDir: string;
  beforeEach(async () => {
    stateDir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-card-state-')), '.kanban', '.state');
  });
  afterEach(async () => {
    await fs.rm(path.dirname(path.dirname(stateDir)), { recursive: true, force: true });
  });

  it('when records are saved, changed and a card removed, then a restart loads exactly the last values', async () => {
    const store = new FileCardStateStore(stateDir, NEVER);
    await store.loadAll();
    await Promise.all([
      store.save(record(1, 'alice', 1)),
      store.save(record(2, 'alice', 2)),
      store.save(record(3, 'bob', 3)),
    ]);
    await store.save(record(1, 'alice', 9));
    await store.removeCard('default', 'card-2');
    await store.close();
    assert.equal(await exists(store.file), false, 'no snapshot yet: every save was an append');
    const lines = (await fs.readFile(store.journalFile, 'utf8')).trimEnd().split('\n');
    assert.equal(lines.length, 5, 'one line per change');
    assert.deepEqual(await loaded(stateDir), {
      'card-1/alice': record(1, 'alice', 9).readThrough,
      'card-3/bob': record(3, 'bob', 3).readThrough,
    });
  });

  it('when the last journal line was cut short by a crash, then it is ignored and later saves continue after the last whole line', async () => {
    const store = new FileCardStateStore(stateDir, NEVER);
    await store.loadAll();
    await store.save(record(1, 'alice', 1));
    await store.save(record(2, 'alice', 2));
    await store.close();
    const whole = await fs.readFile(store.journalFile, 'utf8');
    await fs.appendFile(store.journalFile, JSON.stringify({ save: record(3, 'alice', 3) }).slice(0, 40));
    const expected = {
      'card-1/alice': record(1, 'alice', 1).readThrough,
      'card-2/alice': record(2, 'alice', 2).readThrough,
    };
    assert.deepEqual(await loaded(stateDir), expected);

    const again = new FileCardStateStore(stateDir, NEVER);
    await again.loadAll();
    await again.save(record(4, 'bob', 4));
    await again.close();
    assert.equal(
      await fs.readFile(again.journalFile, 'utf8'),
      whole + JSON.stringify({ save: record(4, 'bob', 4) }) + '\n',
    );
    assert.deepEqual(await loaded(stateDir), { ...expected, 'card-4/bob': record(4, 'bob', 4).readThrough });
  });

  for (const moment of [
    'after the snapshot, before the old journal is deleted',
    'after the journal was set aside, before the snapshot',
  ]) {
    it(`when a compaction is cut short ${moment}, then the same values load and the next start finishes it`, async () => {
      const store = new FileCardStateStore(stateDir, NEVER);
      await store.loadAll();
      for (let i = 0; i < 20; i++) await store.save(record(i % 5, i % 2 ? 'alice' : 'bob', i));
      await store.removeCard('default', 'card-4');
      await store.close();
      const expected = await loaded(stateDir);
      const reader = new FileCardStateStore(stateDir, NEVER);
      const snapshot = (await reader.loadAll()).map((r) => JSON.stringify(r));
      await reader.close();
      // What compact() leaves on disk when the process dies at that moment; one save came after the rotation.
      await fs.rename(store.journalFile, store.oldJournalFile);
      if (moment.startsWith('after the snapshot')) await fs.writeFile(store.file, `[\n${snapshot.join(',\n')}\n]\n`);
      await fs.writeFile(store.journalFile, JSON.stringify({ save: record(0, 'carol', 99) }) + '\n');
      expected['card-0/carol'] = record(0, 'carol', 99).readThrough;
      const sorted = (values: Record<string, string | undefined>) =>
        Object.fromEntries(Object.entries(values).sort(([a], [b]) => a.localeCompare(b)));

      assert.deepEqual(await loaded(stateDir), sorted(expected));
      assert.equal(await exists(store.oldJournalFile), false, 'loading finished the compaction');
      assert.ok(await exists(store.file));
      assert.deepEqual(await loaded(stateDir), sorted(expected));
    });
  }

  it('when compactions happen while saves keep arriving, then every acknowledged save survives and the journal stays small', async () => {
    const store = new FileCardStateStore(stateDir, { compactMinBytes: 4096, compactRatio: 2 });
    await store.loadAll();
    const latest = new Map<string, string | undefined>();
    let journalPeak = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const saves = Array.from({ length: 10 }, (_, i) =>
        record((round * 7 + i) % 40, `actor-${i % 3}`, round * 10 + i),
      );
      await Promise.all(saves.map((r) => store.save(r)));
      for (const r of saves) latest.set(`${r.cardId}/${r.actor}`, r.readThrough);
      if (round % 50 === 49) {
        await store.removeCard('default', 'card-7');
        for (const key of [...latest.keys()]) if (key.startsWith('card-7/')) latest.delete(key);
      }
      journalPeak = Math.max(journalPeak, (await fs.stat(store.journalFile).catch(() => ({ size: 0 }))).size);
    }
    await store.close();
    assert.ok(await exists(store.file), 'a snapshot was written');
    // Compaction starts at twice the snapshot; saves made while it runs may add a little more.
    const snapshotBytes = (await fs.stat(store.file)).size;
    const written = ROUNDS * 10 * JSON.stringify({ save: record(0, 'actor-0', 0) }).length;
    assert.ok(
      journalPeak < 3 * snapshotBytes,
      `the journal peaked at ${journalPeak} bytes; the snapshot is ${snapshotBytes} bytes`,
    );
    assert.ok(written > 4 * journalPeak, `${written} bytes were appended in all, the journal peaked at ${journalPeak}`);
    assert.deepEqual(await loaded(stateDir), Object.fromEntries([...latest].sort(([a], [b]) => a.localeCompare(b))));
  });
});
