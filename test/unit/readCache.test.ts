import { strict as assert } from 'node:assert';
import { MAX_KEPT_BYTES, ReadCache } from '../../server/service/readCache';
import type { WorkspaceState } from '../../server/service/workspaceState';

/** What the cache reads of a workspace: versions that stay put here, so every answer stays current. */
const ws = {
  index: { version: 1 },
  cardStates: { version: 1 },
  claims: { version: 1 },
  config: {},
  store: {},
} as unknown as WorkspaceState;

function countingBuild(bytes: number) {
  const built = { count: 0 };
  const build = () => {
    built.count++;
    return { body: Buffer.alloc(bytes) };
  };
  return { built, build };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ReadCache', () => {
  it('when an answer within the budget is asked again, then it is the kept one', () => {
    const cache = new ReadCache();
    const { built, build } = countingBuild(1024);
    const first = cache.answer(ws, 'list', build);
    assert.equal(cache.answer(ws, 'list', build), first);
    assert.equal(built.count, 1);
  });

  it('when an answer over the budget is asked again soon, then it is built once; when not asked for a while, then it is let go', async () => {
    const cache = new ReadCache({ largeIdleMs: 20 });
    const { built, build } = countingBuild(MAX_KEPT_BYTES + 1);
    const first = cache.answer(ws, 'whole', build);
    assert.equal(cache.answer(ws, 'whole', build), first);
    assert.equal(built.count, 1);
    // A timer of 200 ms runs after one of 20 ms set before it, however busy the machine is.
    await later(200);
    assert.notEqual(cache.answer(ws, 'whole', build), first);
    assert.equal(built.count, 2);
  });

  it('when an answer over the budget is kept, then the smaller kept answers stay kept beside it', () => {
    const cache = new ReadCache({ largeIdleMs: 60_000 });
    const small = countingBuild(1024);
    const large = countingBuild(MAX_KEPT_BYTES + 1);
    const page = cache.answer(ws, 'page', small.build);
    cache.answer(ws, 'whole', large.build);
    assert.equal(cache.answer(ws, 'page', small.build), page);
    assert.equal(small.built.count, 1);
  });
});
