import { strict as assert } from 'node:assert';
import { ValidationError } from '../../server/core/errors';
import {
  columnRanker,
  compareKeys,
  decodeCursor,
  encodeCursor,
  parseFields,
  parseSort,
  sortKeyOf,
  type SortKey,
} from '../../server/core/listPaging';
import { makeCard } from '../helpers/cards';

const rank = columnRanker(['backlog', 'todo', 'done']);

function sorted(keys: SortKey[], sort: string): SortKey[] {
  const spec = parseSort(sort);
  return [...keys].sort((a, b) => compareKeys(a, b, spec, rank));
}

describe('list paging: sort keys and cursors', () => {
  it('when sorting by position, then board columns come in board order, then other folders by name, then deleted; keyless cards last in a column', () => {
    const keys: SortKey[] = [
      ['deleted', '3i00', 't', 'a'],
      ['zzz-folder', '3i00', 't', 'b'],
      ['done', '3i00', 't', 'c'],
      ['backlog', '', 't', 'd'],
      ['backlog', '3i01', 't', 'e'],
      ['backlog', '3i00', 't', 'f'],
      ['aaa-folder', '3i00', 't', 'g'],
    ];
    assert.deepEqual(
      sorted(keys, 'position').map((k) => k[3]),
      ['f', 'e', 'd', 'c', 'g', 'b', 'a'],
    );
    assert.deepEqual(
      sorted(keys, '-position').map((k) => k[3]),
      ['a', 'b', 'g', 'c', 'e', 'f', 'd'],
    );
  });

  it('when sorting by due date either way, then cards without one come last and ties go by id', () => {
    const cards = [
      makeCard({ id: 'b', dueDate: '2026-02-01' }),
      makeCard({ id: 'a' }),
      makeCard({ id: 'c', dueDate: '2026-01-01' }),
      makeCard({ id: 'd', dueDate: '2026-01-01' }),
    ];
    const ids = (sort: string) =>
      sorted(
        cards.map((c) => sortKeyOf(c, parseSort(sort))),
        sort,
      ).map((k) => k[1]);
    assert.deepEqual(ids('due'), ['c', 'd', 'b', 'a']);
    assert.deepEqual(ids('-due'), ['b', 'd', 'c', 'a']);
  });

  it('when a cursor is decoded with the sort and digest it was made for, then it gives back the key; otherwise a ValidationError', () => {
    const key: SortKey = ['todo', '3i0g', '2026-01-01T00:00:00.000Z', 'some-card-2026-01-01'];
    const cursor = encodeCursor(parseSort('position'), 'digest', key);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/, 'URL-safe as it is');
    assert.deepEqual(decodeCursor(cursor, parseSort('position'), 'digest'), key);
    assert.throws(() => decodeCursor(cursor, parseSort('created'), 'digest'), ValidationError);
    assert.throws(() => decodeCursor(cursor, parseSort('position'), 'other'), ValidationError);
    for (const garbage of [
      '',
      '%%%',
      Buffer.from('{"s":"position","f":"digest","k":[1]}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
    ]) {
      assert.throws(() => decodeCursor(garbage, parseSort('position'), 'digest'), ValidationError, garbage);
    }
  });

  it('when fields are parsed, then they come in read-model order with id, and an unknown one is refused', () => {
    assert.deepEqual(parseFields('status, title'), ['id', 'title', 'status']);
    assert.equal(parseFields(undefined), undefined);
    assert.throws(() => parseFields('id,comments'), /unknown field "comments"/);
  });
});
