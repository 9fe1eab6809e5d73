import { strict as assert } from 'node:assert';
import { branchNamesCard, cardIdsOfTrailer } from '../../server/core/gitLinkModel';

describe('git links: which branch and which trailer names which card', () => {
  const cards = new Set([
    'fix-login-2026-11-28',
    'fix-login-2026-11-28-k3f9',
    'login-2026-11-28',
    'add-tests-2026-11-28-2',
  ]);
  const isCardId = (id: string) => cards.has(id);
  const named = (branch: string, id: string) => branchNamesCard(branch, id, isCardId);

  it("when a branch name holds the card id after a prefix or a remote, then it is the card's branch", () => {
    assert.ok(named('kanban/fix-login-2026-11-28-k3f9', 'fix-login-2026-11-28-k3f9'));
    assert.ok(named('origin/feature/fix-login-2026-11-28-k3f9', 'fix-login-2026-11-28-k3f9'));
    assert.ok(named('Fix-Login-2026-11-28-K3F9', 'fix-login-2026-11-28-k3f9'), 'case does not matter');
    assert.ok(
      named('agent/fix-login-2026-11-28-wip', 'fix-login-2026-11-28'),
      'a suffix that is no card id of its own',
    );
  });

  it("when the id is glued to other letters or digits, then the branch is not the card's", () => {
    assert.ok(!named('kanban/xfix-login-2026-11-28', 'fix-login-2026-11-28'));
    assert.ok(!named('kanban/add-tests-2026-11-28-20', 'add-tests-2026-11-28-2'));
    assert.ok(!named('main', 'fix-login-2026-11-28'));
  });

  it('when the place is part of a longer id of another card, then only that card claims the branch', () => {
    assert.ok(!named('kanban/fix-login-2026-11-28-k3f9', 'fix-login-2026-11-28'), 'a longer id to the right');
    assert.ok(!named('kanban/fix-login-2026-11-28', 'login-2026-11-28'), 'a longer id to the left');
    assert.ok(named('kanban/fix-login-2026-11-28', 'fix-login-2026-11-28'));
    assert.ok(
      named('kanban/fix-login-2026-11-28-k3f9/login-2026-11-28', 'login-2026-11-28'),
      'a second, free place counts',
    );
  });

  it('when a trailer value names ids, then commas and spaces separate them and case is ignored', () => {
    assert.deepEqual(cardIdsOfTrailer('fix-login-2026-11-28'), ['fix-login-2026-11-28']);
    assert.deepEqual(cardIdsOfTrailer(' A-2026-11-28, b-2026-11-28 c-2026-11-28,,'), [
      'a-2026-11-28',
      'b-2026-11-28',
      'c-2026-11-28',
    ]);
    assert.deepEqual(cardIdsOfTrailer('#12, -x-, a_b, https://example.com/x'), [], 'only words that can be card ids');
  });
});
