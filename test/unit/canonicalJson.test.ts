import { strict as assert } from 'node:assert';
import { canonicalJson } from '../../server/core/canonicalJson';
import { generateCards, labelDefinitions } from '../../bench/dataset';

/** The text ETags were hashed from until now: every ETag a client or an older instance holds was made this way. */
function sortedByReplacer(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const record = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, record[k]]),
    );
  });
}

describe('canonical JSON (what ETags are hashed from)', () => {
  it('when cards of every kind the bench seeds are serialized, then the text is the one ETags were made from before', () => {
    for (const card of generateCards(300)) assert.equal(canonicalJson(card), sortedByReplacer(card));
    const labels = labelDefinitions();
    assert.equal(canonicalJson(labels), sortedByReplacer(labels));
  });

  it('when the same object is built in another key order, then the text is the same', () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [1, { z: 2, y: 3 }], c: 'x' } }),
      canonicalJson({ a: { c: 'x', d: [1, { y: 3, z: 2 }] }, b: 1 }),
    );
  });

  it('when keys look like numbers, are empty or not ASCII, then they come in the order they came before', () => {
    const value = {
      b: 1,
      10: 'ten',
      9: 'nine',
      '01': 'lead zero',
      '': 'empty',
      é: 2,
      Z: 3,
      '4294967295': 'too big to index',
      '-1': 'negative',
    };
    assert.equal(canonicalJson(value), sortedByReplacer(value));
  });

  it('when values are undefined, functions, dates or nested arrays, then they are written as JSON.stringify writes them', () => {
    const value = {
      gone: undefined,
      run: () => 1,
      when: new Date(0),
      list: [undefined, () => 1, [null, true, 1.5, 'q"uote']],
      nothing: null,
    };
    assert.equal(canonicalJson(value), sortedByReplacer(value));
    assert.equal(canonicalJson([undefined]), '[null]');
    assert.equal(canonicalJson(undefined), undefined);
  });
});
