import { strict as assert } from 'node:assert';
import { baseCardId, cardIdCandidates, isFullCardId, isSafeCardId, slugify } from '../../server/core/ids';

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

  it('when a card is created, then its id starts with the slug plus the UTC date', () => {
    assert.equal(baseCardId('Fix login', new Date('2026-03-04T23:30:00-05:00')), 'fix-login-2026-03-05');
  });

  it('when ids are drawn for one title and day, then each is the base plus four random letters, and they differ', () => {
    const drawn = cardIdCandidates('add-tests-2026-01-01');
    const ids = Array.from({ length: 100 }, () => drawn.next().value as string);
    for (const id of ids) {
      assert.match(id, /^add-tests-2026-01-01-[a-z0-9]{4}$/);
      assert.ok(isFullCardId(id) && isSafeCardId(id), id);
    }
    // 1.7 million values: two equal draws among 100 happen about once in 340 runs, five never.
    assert.ok(new Set(ids).size > 95, `${new Set(ids).size} distinct`);
  });

  it('when an id made before the random suffix is checked, then it is still a whole id', () => {
    for (const id of ['fix-login-2026-03-05', 'fix-login-2026-03-05-2', 'fix-login-2026-03-05-k3f9-x7q2'])
      assert.ok(isFullCardId(id), id);
    assert.equal(isFullCardId('fix-login'), false);
  });
});
