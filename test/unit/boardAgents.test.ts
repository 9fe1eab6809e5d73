import { strict as assert } from 'node:assert';
import {
  agentOf,
  agentSummary,
  msLeft,
  msUntilNextChange,
  safeLink,
  sessionBadge,
  timeLeftText,
} from '../../webview/agents';
import { placeTask, taskSetFrom } from '../../webview/state/placement';
import { facetsOf } from '../../webview/state/taskFacets';
import { filterFromQuery, filterToQuery } from '../../webview/state/views';
import { EMPTY_FILTER, type CardSession, type TaskView } from '../../webview/types';

const MINUTE = 60_000;
const NOW = Date.parse('2030-01-01T12:00:00Z');
const claimFor = (agent: string, minutes: number) => ({
  agent,
  since: new Date(NOW - MINUTE).toISOString(),
  until: new Date(NOW + minutes * MINUTE).toISOString(),
});
const session = (fields: Partial<CardSession>): CardSession => ({
  agent: 'a1',
  state: 'active',
  note: null,
  url: null,
  updatedAt: new Date(NOW).toISOString(),
  stale: false,
  ...fields,
});

describe('Board UI: what a card says of its agent', () => {
  it('when a claim has time left, then it reads in whole minutes rounded up, and never below zero', () => {
    assert.equal(timeLeftText(15 * MINUTE), '15m left');
    assert.equal(timeLeftText(14 * MINUTE + 1), '15m left');
    assert.equal(timeLeftText(1), '1m left');
    assert.equal(timeLeftText(90 * MINUTE), '1h 30m left');
    assert.equal(timeLeftText(24 * 60 * MINUTE), '24h 00m left');
    assert.equal(msLeft(claimFor('a1', -5), NOW), 0);
    assert.equal(msLeft({ ...claimFor('a1', 5), until: 'not a date' }, NOW), 0);
  });

  it('when the text will change, then the next redraw is due exactly then; a claim that ran out needs none', () => {
    assert.equal(msUntilNextChange(15 * MINUTE), MINUTE);
    assert.equal(msUntilNextChange(14 * MINUTE + 2500), 2500);
    assert.equal(msUntilNextChange(400), 400, 'the last minute ends with the claim');
    assert.equal(msUntilNextChange(0), Infinity);
  });

  it('when a claim ran out on the page but a session stays, then the card names the agent of the session', () => {
    const task = { claim: claimFor('holder', 5), session: session({ agent: 'reporter' }) };
    assert.equal(agentOf(task, 5 * MINUTE), 'holder');
    assert.equal(agentOf(task, 0), 'reporter');
    assert.equal(agentOf({ claim: null, session: null }, 0), null);
  });

  it('when a session waits for a person or failed, then it has a badge in words; other states have none', () => {
    assert.deepEqual(sessionBadge(session({ state: 'awaitingInput' })), { kind: 'awaiting', text: 'Needs input' });
    assert.deepEqual(sessionBadge(session({ state: 'error' })), { kind: 'error', text: 'Agent error' });
    assert.equal(sessionBadge(session({ state: 'active' })), null);
    assert.equal(sessionBadge(null), null);
  });

  it('when a card is read out, then its name says who holds it, how long, what the agent needs and whether it went silent', () => {
    const task = { claim: claimFor('a1', 12), session: session({ state: 'awaitingInput', stale: true }) };
    assert.equal(
      agentSummary(task, 12 * MINUTE),
      'claimed by agent a1, 12 minutes left, needs input, agent session stale',
    );
    assert.equal(agentSummary({ claim: null, session: session({ state: 'complete' }) }, 0), 'agent a1 done');
    assert.equal(
      agentSummary({ claim: claimFor('a1', 1), session: null }, 30_000),
      'claimed by agent a1, 1 minute left',
    );
  });

  it('when an agent sends a link, then only http and https links may be opened', () => {
    assert.equal(safeLink('https://ci.example/run/7'), 'https://ci.example/run/7');
    assert.equal(safeLink('http://localhost:8080/x'), 'http://localhost:8080/x');
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'not a url',
      '',
    ])
      assert.equal(safeLink(url), null, url);
    assert.equal(safeLink(null), null);
  });
});

describe('Board UI: the agent filters in views and the URL', () => {
  it('when claimed is set either way, then it goes out as a boolean and comes back from a view or a URL', () => {
    for (const claimed of ['true', 'false'] as const) {
      const query = filterToQuery({ ...EMPTY_FILTER, claimed });
      assert.deepEqual(query, { claimed: claimed === 'true' });
      assert.equal(filterFromQuery(query).claimed, claimed);
      assert.equal(filterFromQuery({ claimed }).claimed, claimed, 'as the URL spells it');
    }
    assert.deepEqual(filterToQuery(EMPTY_FILTER), {});
  });

  it('when one agent is chosen, then byAgent goes out and comes back', () => {
    const query = filterToQuery({ ...EMPTY_FILTER, byAgent: 'agent-1' });
    assert.deepEqual(query, { byAgent: 'agent-1' });
    assert.equal(filterFromQuery(query).byAgent, 'agent-1');
  });

  it("when only a card's claim changes (a live event), then the agents the menu offers follow it", () => {
    const base = {
      id: 'c1',
      title: 'C',
      status: 'todo',
      position: 0,
      priority: 'medium',
      assignee: null,
      labels: [],
      metadata: {},
      claim: null,
      session: null,
    } as unknown as TaskView;
    const before = taskSetFrom([base]);
    assert.deepEqual(facetsOf(before.tasks).agents, []);
    // The event's card replaces the old one; facets of an unchanged assignee, labels and metadata are kept, so agents must count as a change.
    const after = placeTask(before, { ...base, claim: claimFor('zed', 5), session: session({ agent: 'amy' }) });
    assert.deepEqual(facetsOf(after.tasks).agents, ['amy', 'zed']);
  });
});
