import { strict as assert } from 'node:assert';
import { CardIndex, compareCards } from '../../server/core/cardIndex';
import type { Card } from '../../server/core/model';
import { makeCard } from '../helpers/cards';

const STATUSES = ['backlog', 'todo', 'done'];

function cards(count: number): Card[] {
  return Array.from({ length: count }, (_, i) =>
    makeCard({
      id: `card-${i}-2026-01-01`,
      status: STATUSES[(i * 7) % STATUSES.length],
      order: `3${String.fromCharCode(97 + ((i * 11) % 26))}${i % 10}`,
    }),
  );
}

/** Each column as a fresh sort of the index's cards would give it. */
function expected(index: CardIndex, status: string): string[] {
  return [...index.cardsOf('default')]
    .filter((card) => card.status === status)
    .sort(compareCards)
    .map((card) => card.id);
}

describe('card index columns', () => {
  it('when every column is asked at once after a load, then each holds its own cards in board order', () => {
    const index = new CardIndex();
    for (const card of cards(300)) index.put(card);
    for (const status of STATUSES)
      assert.deepEqual(
        index.column('default', status).map((card) => card.id),
        expected(index, status),
      );
    assert.deepEqual(index.column('default', 'review'), []);
  });

  it('when one column was sorted and changed before the others are asked, then all of them stay in order', () => {
    const index = new CardIndex();
    const all = cards(300);
    for (const card of all) index.put(card);
    index.column('default', 'todo');
    index.put({ ...all[1], status: 'todo', order: '1' });
    index.remove(all[3]);
    index.put(makeCard({ id: 'late-2026-01-01', status: 'todo', order: '3zz' }));
    for (const status of STATUSES)
      assert.deepEqual(
        index.column('default', status).map((card) => card.id),
        expected(index, status),
      );
  });
});

describe('card index filled by a load', () => {
  /** What a reader sees of an index: each board's cards, each column in order, counts, links. */
  function seen(index: CardIndex) {
    return {
      size: index.size,
      boards: ['default', 'other'].map((board) => ({
        cards: [...index.cardsOf(board)].map((card) => card.id).sort(),
        columns: STATUSES.map((status) => index.column(board, status).map((card) => card.id)),
        statuses: [...index.statusesOf(board)].sort(),
      })),
      blocks: index.blocksOf('card-0-2026-01-01'),
    };
  }

  it('when an index is filled with a load, then it answers as one built card by card', () => {
    const load = [
      ...cards(120),
      ...cards(40).map((card) => ({ ...card, id: `o-${card.id}`, boardId: 'other', blockedBy: ['card-0-2026-01-01'] })),
    ];
    const filled = new CardIndex();
    filled.fill(load);
    const built = new CardIndex();
    for (const card of load) built.put(card);
    assert.deepEqual(seen(filled), seen(built));
    assert.equal(filled.size, 160);
    assert.equal(filled.blocksOf('card-0-2026-01-01').length, 40);
  });

  it('when a load names one id twice, then the later card is the one served, once', () => {
    const [first] = cards(1);
    const later = { ...first, status: 'done', content: '# Later\n' };
    const index = new CardIndex();
    index.fill([first, later]);
    assert.equal(index.size, 1);
    assert.equal(index.findById(first.id)?.content, '# Later\n');
    assert.deepEqual([...index.statusesOf('default')], ['done']);
  });

  it('when an index that holds cards is filled, then it refuses', () => {
    const index = new CardIndex();
    index.put(cards(1)[0]);
    assert.throws(() => index.fill(cards(2)), /empty index/);
  });
});
