import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LaterIndexCacheWrite, readIndexCache } from '../../server/storage/markdown/indexCache';
import type { CachedFile } from '../../server/storage/markdown/indexCacheRows';
import { makeCard } from '../helpers/cards';

/** One cached file whose card has `id`. */
function entry(id: string): [string, CachedFile][] {
  return [[`.kanban/boards/default/todo/${id}.md`, { size: 1, mtimeMs: 1, hash: 'h', card: makeCard({ id }) }]];
}

const cachedIds = (stateDir: string) => [...readIndexCache(stateDir).values()].map((cached) => cached.card.id);

describe('the card index cache written after a load', () => {
  let stateDir: string;

  beforeEach(async () => {
    stateDir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'kanban-later-write-')), '.state');
  });

  afterEach(() => fs.rm(path.dirname(stateDir), { recursive: true, force: true }));

  it('when two loads schedule a write and the store closes, then the later load’s cache is the one written', async () => {
    const writes = new LaterIndexCacheWrite();
    writes.schedule(stateDir, entry('first-load'));
    writes.schedule(stateDir, entry('second-load'));
    await writes.close();
    assert.deepEqual(cachedIds(stateDir), ['second-load']);
  });

  it('when a load ends after the store closed, then its cache is not written', async () => {
    const writes = new LaterIndexCacheWrite();
    writes.schedule(stateDir, entry('before-close'));
    await writes.close();
    writes.schedule(stateDir, entry('after-close'));
    await writes.close();
    assert.deepEqual(cachedIds(stateDir), ['before-close']);
  });
});
