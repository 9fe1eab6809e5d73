import { strict as assert } from 'node:assert';
import { baseCardId, cardIdCandidates, slugify } from '../../server/core/ids';

describe('card ids', () => {
  it('when a title has accents and punctuation, then the slug is plain lowercase ascii with single dashes', () => {
    assert.equal(slugify('Crème Brûlée: the *BEST* recipe!!'), 'creme-brulee-the-best-recipe');
  });

  it('when a title has nothing usable, then the slug is "card"', () => {
    assert.equal(slugify('!!! ??? 日本'), 'card');
  });

  it('when a title is long, then the slug is cut to 48 characters without a trailing dash', () => {
    const slug = slugify('word '.repeat(40));
    assert.ok(slug.length <= 48, slug);
    assert.ok(!slug.endsWith('-'));
  });

  it('when a card is created, then its id is slug plus the UTC date', () => {
    assert.equal(baseCardId('Fix login', new Date('2026-03-04T23:30:00-05:00')), 'fix-login-2026-03-05');
  });

  it('when ids collide, then candidates continue with -2, -3', () => {
    const it = cardIdCandidates('a-2026-01-01');
    assert.deepEqual([it.next().value, it.next().value, it.next().value], ['a-2026-01-01', 'a-2026-01-01-2', 'a-2026-01-01-3']);
  });
});
