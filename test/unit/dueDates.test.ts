import { strict as assert } from 'node:assert';
import { addDays, dueDayOf, dueFilterOf, dueMatches, parseDay } from '../../server/core/dueDates';
import { ValidationError } from '../../server/core/errors';

const TODAY = '2026-03-10';
const filter = (due: string) => dueFilterOf({ due }, TODAY)!;

describe('due dates: the windows at their edges (UTC days)', () => {
  it('when a card is due yesterday and is not done, then it is overdue; done, it is not', () => {
    assert.equal(dueMatches(filter('overdue'), '2026-03-09', false), true);
    assert.equal(dueMatches(filter('overdue'), '2026-03-09', true), false);
  });

  it('when a card is due today, then it is in today and week but not overdue', () => {
    assert.equal(dueMatches(filter('today'), TODAY, false), true);
    assert.equal(dueMatches(filter('week'), TODAY, false), true);
    assert.equal(dueMatches(filter('overdue'), TODAY, false), false);
  });

  it('when a card is due on the sixth day after today, then it is in the week; on the seventh, it is not', () => {
    assert.equal(dueMatches(filter('week'), '2026-03-16', false), true);
    assert.equal(dueMatches(filter('week'), '2026-03-17', false), false);
    assert.equal(dueMatches(filter('week'), '2026-03-09', false), false, 'yesterday is overdue, not this week');
  });

  it('when a due date carries a time and an offset, then its UTC day counts', () => {
    assert.equal(dueDayOf('2026-03-10T23:30:00-02:00'), '2026-03-11');
    assert.equal(dueDayOf('2026-03-10T01:00:00+03:00'), '2026-03-09');
    assert.equal(dueDayOf('2026-03-10T12:00:00'), '2026-03-10');
    assert.equal(dueMatches(filter('today'), '2026-03-10T01:00:00+03:00', false), false);
  });

  it('when none is asked, then only cards without a due date match, and no other filter matches them', () => {
    assert.equal(dueMatches(filter('none'), undefined, false), true);
    assert.equal(dueMatches(filter('none'), TODAY, false), false);
    for (const window of ['overdue', 'today', 'week'])
      assert.equal(dueMatches(filter(window), undefined, false), false);
    assert.equal(dueMatches(dueFilterOf({ dueBefore: '2030-01-01' }, TODAY)!, undefined, false), false);
  });

  it('when dueBefore and dueAfter are given, then both bounds are strict', () => {
    const range = dueFilterOf({ dueAfter: '2026-03-01', dueBefore: '2026-03-05' }, TODAY)!;
    assert.deepEqual(
      ['2026-03-01', '2026-03-02', '2026-03-04', '2026-03-05'].map((d) => dueMatches(range, d, false)),
      [false, true, true, false],
    );
  });

  it('when days are added across a month or leap day, then the calendar is followed', () => {
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
  });

  it('when a date is malformed or does not exist, then the error names the parameter', () => {
    for (const bad of ['2026-02-30', '2026-3-1', 'tomorrow', '2026-03-10T00:00:00Z']) {
      assert.throws(
        () => parseDay('dueBefore', bad),
        (e: Error) => e instanceof ValidationError && /"dueBefore"/.test(e.message) && e.message.includes(bad),
      );
    }
    assert.throws(() => dueFilterOf({ due: 'later' }, TODAY), /"due" must be one of overdue, today, week, none/);
  });
});
