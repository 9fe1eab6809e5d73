import { strict as assert } from 'node:assert';
import { mergeBoard } from '../../server/service/boardMerge';
import type { BoardConfig } from '../../server/core/model';

const column = (id: string, name = id) => ({ id, name, color: '#888888' });

function board(columns: string[], extra: Partial<BoardConfig> = {}): BoardConfig {
  return {
    id: 'b',
    name: 'Board',
    columns: columns.map((id) => column(id)),
    actions: {},
    minimizedColumnIds: [],
    ...extra,
  };
}

/** Another instance wrote `theirs` after this one made `mine` from `before` (a shared database). */
describe("mergeBoard: a board change applied again on top of another instance's newer board", () => {
  it('when both added a column, then the merged board has both', () => {
    const merged = mergeBoard(board(['todo']), board(['todo', 'mine']), board(['todo', 'theirs']));
    assert.deepEqual(
      merged.columns.map((c) => c.id),
      ['todo', 'theirs', 'mine'],
    );
  });

  it('when this one renamed a column and the other added one, then both changes stay', () => {
    const mine = board(['todo', 'done']);
    mine.columns[1] = column('done', 'Finished');
    const merged = mergeBoard(board(['todo', 'done']), mine, board(['todo', 'done', 'later']));
    assert.deepEqual(merged.columns, [column('todo'), column('done', 'Finished'), column('later')]);
  });

  it("when this one removed a column the other kept, then it is gone and the other's new column stays", () => {
    const merged = mergeBoard(board(['a', 'b']), board(['a']), board(['a', 'b', 'c']));
    assert.deepEqual(
      merged.columns.map((c) => c.id),
      ['a', 'c'],
    );
  });

  it('when this one reordered the columns, then its order wins and a column it did not know goes last', () => {
    const merged = mergeBoard(board(['a', 'b', 'c']), board(['c', 'a', 'b']), board(['a', 'b', 'c', 'd']));
    assert.deepEqual(
      merged.columns.map((c) => c.id),
      ['c', 'a', 'b', 'd'],
    );
  });

  it('when this one changed the name and the other an action and a minimized column, then all three stay', () => {
    const before = board(['a']);
    const merged = mergeBoard(
      before,
      { ...before, name: 'Renamed' },
      { ...before, actions: { deploy: 'Deploy' }, minimizedColumnIds: ['a'] },
    );
    assert.equal(merged.name, 'Renamed');
    assert.deepEqual(merged.actions, { deploy: 'Deploy' });
    assert.deepEqual(merged.minimizedColumnIds, ['a']);
  });

  it('when both added board actions, then the merged board has both', () => {
    const before = board(['a']);
    const merged = mergeBoard(
      before,
      { ...before, actions: { mine: 'Mine' } },
      { ...before, actions: { theirs: 'Theirs' } },
    );
    assert.deepEqual(merged.actions, { theirs: 'Theirs', mine: 'Mine' });
  });
});
