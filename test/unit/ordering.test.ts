import { strict as assert } from 'node:assert';
import { isValidKey, keyBetween, spreadKeys } from '../../server/core/ordering';

describe('ordering keys', () => {
  it('when keys are generated between neighbours, then they sort strictly between them', () => {
    let low = keyBetween(null, null);
    const high = keyBetween(low, null);
    for (let i = 0; i < 200; i++) {
      const mid = keyBetween(low, high);
      assert.ok(low < mid && mid < high, `${low} < ${mid} < ${high}`);
      assert.ok(isValidKey(mid), mid);
      low = mid;
    }
  });

  it('when cards are always inserted at the top, then keys keep sorting before the first', () => {
    let first = keyBetween(null, null);
    for (let i = 0; i < 500; i++) {
      const next = keyBetween(null, first);
      assert.ok(next < first && isValidKey(next));
      first = next;
    }
  });

  it('when 10,000 cards are appended, then keys stay short', () => {
    const keys = spreadKeys(10_000);
    assert.deepEqual([...keys].sort(), keys);
    assert.ok(keys[keys.length - 1].length <= 5, keys[keys.length - 1]);
  });

  it('when random inserts happen, then the order is always kept', () => {
    const keys = spreadKeys(3);
    for (let i = 0; i < 2000; i++) {
      const at = Math.floor(Math.random() * (keys.length + 1));
      const key = keyBetween(keys[at - 1] ?? null, keys[at] ?? null);
      keys.splice(at, 0, key);
    }
    assert.deepEqual([...keys].sort(), keys);
    assert.equal(new Set(keys).size, keys.length);
  });

  it('when keys are out of order, then keyBetween refuses', () => {
    assert.throws(() => keyBetween('3i01', '3i00'));
  });
});
