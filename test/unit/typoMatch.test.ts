import { strict as assert } from 'node:assert';
import { BoardVocabulary, typoDistance, typoScore, wordTypoBudget, wordsOf } from '../../server/core/typoMatch';
import { makeCard } from '../helpers/cards';

describe('search: the typo rule (optimal string alignment, per word)', () => {
  it('when two neighbouring letters are swapped, then that is one edit, not two', () => {
    assert.equal(typoDistance('lgoin', 'login', 2), 1);
    assert.equal(typoDistance('abcd', 'badc', 3), 2);
  });

  it('when letters are missing, doubled or wrong, then each is one edit', () => {
    assert.equal(typoDistance('logn', 'login', 2), 1);
    assert.equal(typoDistance('loggin', 'login', 2), 1);
    assert.equal(typoDistance('lagin', 'login', 2), 1);
  });

  it('when the distance passes the limit, then the answer is limit + 1, early', () => {
    assert.equal(typoDistance('kitten', 'sitting', 1), 2);
    assert.equal(typoDistance('a', 'abcdef', 2), 3);
  });

  it('when words are 3, 4, 7 and 8 letters long, then they may carry 0, 1, 1 and 2 typos', () => {
    assert.deepEqual(['bug', 'test', 'shorter', 'dashbord'].map(wordTypoBudget), [0, 1, 1, 2]);
  });

  it('when every query word is in a card as typed or within its budget, then the card scores the share of letters edited', () => {
    const card = makeCard({
      content: '# Fix login timeout\n',
      comments: [{ id: 'c_1', author: 'a', content: 'Seen on Safari', created: '2026-01-01T00:00:00Z' }],
    });
    const vocabulary = new BoardVocabulary();
    vocabulary.add(card);
    assert.equal(typoScore(card, vocabulary.optionsFor('lgoin')), 1 / 5);
    assert.equal(typoScore(card, vocabulary.optionsFor('safrai login')), 1 / 11);
    assert.equal(typoScore(card, vocabulary.optionsFor('lgoin printer')), null);
    assert.equal(typoScore(card, vocabulary.optionsFor('fxi')), null, 'a three-letter word takes no typo');
  });

  it('when a word is offered that the card no longer holds, then the card does not match', () => {
    const vocabulary = new BoardVocabulary();
    vocabulary.add(makeCard({ content: '# Fix login timeout\n' }));
    const edited = makeCard({ content: '# Fix logout timeout\n' });
    vocabulary.add(edited);
    assert.deepEqual(vocabulary.optionsFor('lgoin'), [{ word: 'lgoin', near: [['login', 1]] }]);
    assert.equal(typoScore(edited, vocabulary.optionsFor('lgoin')), null);
  });

  it('when text holds punctuation and other scripts, then words are runs of letters and digits', () => {
    assert.deepEqual(wordsOf('Fix log-in (v2): Größe'), ['fix', 'log', 'in', 'v2', 'größe']);
  });
});
