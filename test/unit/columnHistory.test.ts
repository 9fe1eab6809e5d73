import { strict as assert } from 'node:assert';
import { columnHistoryLine, stepsOfHistory, withColumnStep } from '../../server/core/columnHistory';
import { parseCard, serializeCard } from '../../server/storage/cardFile';
import { makeCard } from '../helpers/cards';

const at = (day: number) => `2026-03-0${day}T00:00:00.000Z`;

describe('Column history: the moves a card carries in its own file', () => {
  it('when a card is created, moved and deleted, then each change is one readable line', () => {
    let card = withColumnStep(makeCard({ status: 'todo' }), null, at(1));
    card = withColumnStep({ ...card, status: 'in-progress' }, 'todo', at(2));
    card = withColumnStep({ ...card, status: 'deleted' }, 'in-progress', at(3));
    assert.deepEqual(card.columnHistory, [
      '2026-03-01T00:00:00.000Z -> todo',
      '2026-03-02T00:00:00.000Z todo -> in-progress',
      '2026-03-03T00:00:00.000Z in-progress -> deleted',
    ]);
    assert.deepEqual(
      stepsOfHistory(card.columnHistory).map((s) => [s.kind, s.from, s.to]),
      [
        ['created', null, 'todo'],
        ['moved', 'todo', 'in-progress'],
        ['deleted', 'in-progress', 'deleted'],
      ],
    );
  });

  it('when the column does not change, then no line is added', () => {
    const card = makeCard({ status: 'todo', columnHistory: [columnHistoryLine(at(1), null, 'todo')] });
    assert.equal(withColumnStep(card, 'todo', at(2)), card);
  });

  it('when a card came from another board, then only the lines since its arrival count', () => {
    const steps = stepsOfHistory([
      columnHistoryLine(at(1), null, 'todo'),
      columnHistoryLine(at(2), 'todo', 'doing'),
      columnHistoryLine(at(3), null, 'inbox'),
      columnHistoryLine(at(4), 'inbox', 'done'),
    ]);
    assert.deepEqual(
      steps.map((s) => [s.kind, s.from, s.to, s.at]),
      [
        ['entered', null, 'inbox', Date.parse(at(3))],
        ['moved', 'inbox', 'done', Date.parse(at(4))],
      ],
    );
  });

  it('when a line was damaged by hand, then it is skipped and the others still count', () => {
    const steps = stepsOfHistory(['yesterday todo -> done', 'no arrow here', columnHistoryLine(at(5), 'todo', 'done')]);
    assert.deepEqual(
      steps.map((s) => [s.kind, s.from, s.to]),
      [['moved', 'todo', 'done']],
    );
  });

  it('when a card with a history is written and read back, then the history is the same', () => {
    const card = makeCard({
      columnHistory: [columnHistoryLine(at(1), null, 'todo'), columnHistoryLine(at(2), 'todo', 'done')],
    });
    const text = serializeCard(card);
    assert.match(
      text,
      /columnHistory:\n {2}- 2026-03-01T00:00:00.000Z -> todo\n {2}- 2026-03-02T00:00:00.000Z todo -> done\n/,
    );
    const where = { id: card.id, boardId: card.boardId, status: card.status, fileTime: card.created };
    assert.deepEqual(parseCard(text, where).columnHistory, card.columnHistory);
  });
});
