import { strict as assert } from 'node:assert';
import { staleAtMs, viewOfSession, type StoredSession } from '../../server/core/sessions';

const session: StoredSession = {
  boardId: 'default',
  cardId: 'c-1',
  agent: 'a1',
  state: 'active',
  note: null,
  url: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  leaseSeconds: 60,
};
const at = Date.parse(session.updatedAt);

describe('sessions: what an agent last reported, and when it goes stale', () => {
  it('when less than the lease has passed since the report, then the session is not stale', () => {
    assert.equal(viewOfSession(session, at + 59_999).stale, false);
  });

  it('when the lease has passed since the report, then the session is stale', () => {
    assert.equal(staleAtMs(session), at + 60_000);
    assert.equal(viewOfSession(session, at + 60_000).stale, true);
  });

  it('when a session is shown, then it has the read model fields in their order and nothing of the store', () => {
    assert.deepEqual(Object.keys(viewOfSession(session, at)), ['agent', 'state', 'note', 'url', 'updatedAt', 'stale']);
  });
});
