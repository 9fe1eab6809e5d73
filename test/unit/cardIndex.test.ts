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
