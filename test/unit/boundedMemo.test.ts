import { strict as assert } from 'node:assert';
import { BoundedMemo } from '../../server/core/boundedMemo';

const keys = (count: number) => Array.from({ length: count }, (_, i) => ({ i }));

describe('BoundedMemo', () => {
  it('when no more keys than a generation are read again and again, then every value stays kept', () => {
    const memo = new BoundedMemo<object, number>(100);
    const all = keys(100);
    all.forEach((key, i) => memo.set(key, i));
    for (let round = 0; round < 3; round++) all.forEach((key, i) => assert.equal(memo.get(key), i));
  });

  it('when more keys than two generations are set, then the oldest are let go and the newest kept', () => {
    const memo = new BoundedMemo<object, number>(10);
    const all = keys(35);
    all.forEach((key, i) => memo.set(key, i));
    // Misses change nothing, so the oldest twenty can be asked first.
    assert.deepEqual(
      all.slice(0, 20).filter((key) => memo.get(key) !== undefined),
      [],
    );
    // The current generation holds 30-34, the previous one 20-29; reading carries those over until
    // the current one is full again, so ten reads see the newest ten.
    for (let i = 34; i >= 25; i--) assert.equal(memo.get(all[i]), i);
  });

  it('when a value of the previous generation is read, then it is carried over and outlives the next turn', () => {
    const memo = new BoundedMemo<object, string>(2);
    const [a, b, c, d] = keys(4);
    memo.set(a, 'a');
    memo.set(b, 'b');
    memo.set(c, 'c'); // a and b are now the previous generation
    assert.equal(memo.get(a), 'a'); // carried into the current one beside c
    memo.set(d, 'd'); // the current one (c, a) becomes the previous one; b is let go
    assert.equal(memo.get(a), 'a');
    assert.equal(memo.get(b), undefined);
  });

  it('when a key is set again, then its value is replaced without taking a second place', () => {
    const memo = new BoundedMemo<object, number>(2);
    const [a, b] = keys(2);
    memo.set(a, 1);
    memo.set(a, 2);
    memo.set(b, 3);
    assert.equal(memo.get(a), 2);
    assert.equal(memo.get(b), 3);
  });
});
