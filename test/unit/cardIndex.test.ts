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

  it('when a column is asked first, then cards added to and moved between the others still show up in order', () => {
    const index = new CardIndex();
    const all = cards(300);
    index.fill(all);
    index.column('default', 'backlog');
    // todo and done are gathered but not sorted: change them in every way before they are asked.
    index.put(makeCard({ id: 'new-in-done-2026-01-01', status: 'done', order: '0' }));
    const inTodo = all.find((card) => card.status === 'todo')!;
    index.put({ ...inTodo, status: 'done', order: '3zzz' });
    index.put({ ...all.find((card) => card.status === 'done')!, order: '1' });
    for (const status of ['done', 'todo', 'backlog'])
      assert.deepEqual(
        index.column('default', status).map((card) => card.id),
        expected(index, status),
        status,
      );
    assert.equal(index.column('default', 'done')[0].id, 'new-in-done-2026-01-01');
  });

  it('when cards are put, moved, archived and removed, then each column’s count is its length', () => {
    const index = new CardIndex();
    const all = cards(90);
    index.fill(all.slice(0, 60));
    for (const card of all.slice(60)) index.put(card);
    index.put({ ...all[2], status: 'done' });
    index.put({ ...all[5], archivedAt: '2026-02-01T00:00:00.000Z' });
    index.remove(all[7]);
    index.remove(all[7]);
    for (const place of [...STATUSES, 'archived'])
      assert.equal(index.countIn('default', place), index.column('default', place).length, place);
    assert.equal(index.countIn('default', 'archived'), 1);
    assert.equal(index.countIn('missing-board', 'todo'), 0);
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
