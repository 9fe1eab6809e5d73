import { strict as assert } from 'node:assert';
import type { BoardContext, ContextCard } from '../../server/core/boardContext';
import { contextMarkdown, timeLeft } from '../../server/core/contextMarkdown';

const card = (id: string, extra: Partial<ContextCard> = {}): ContextCard => ({
  id,
  title: `Card ${id}`,
  status: 'todo',
  priority: 'medium',
  assignee: null,
  dueDate: null,
  ...extra,
});
const NOW = Date.parse('2026-11-28T12:00:00Z');

function contextOf(extra: Partial<BoardContext> = {}): BoardContext {
  const base: BoardContext = {
    board: { id: 'default', name: 'Default' },
    inProgress: [],
    awaitingInput: [],
    blocked: [],
    next: [],
    counts: { inProgress: 0, awaitingInput: 0, blocked: 0, pickable: 0 },
  };
  return { ...base, ...extra };
}

describe('Board context as Markdown', () => {
  it('when the board is empty, then every section says none', () => {
    assert.equal(
      contextMarkdown(contextOf()),
      [
        '## Board Default (`default`)',
        'In progress: none',
        'Awaiting input: none',
        'Blocked: none',
        'Next to pick: none',
      ].join('\n\n'),
    );
  });

  it('when a card is claimed and reported on, then its line names the holder, the time left only with a now, and the state with its note', () => {
    const claimed = card('a', {
      status: 'in-progress',
      priority: 'high',
      claim: { agent: 'claude-1', until: '2026-11-28T12:12:30Z' },
      session: { agent: 'claude-1', state: 'active', note: 'writing\nthe tests', stale: false },
    });
    const context = contextOf({
      inProgress: [claimed],
      counts: { inProgress: 1, awaitingInput: 0, blocked: 0, pickable: 0 },
    });
    assert.match(
      contextMarkdown(context, { now: NOW }),
      /^- `a` Card a \(in-progress, high\): claimed by claude-1, 12m left; active "writing the tests"$/m,
    );
    assert.match(
      contextMarkdown(context),
      /^- `a` Card a \(in-progress, high\): claimed by claude-1; active "writing the tests"$/m,
    );
  });

  it('when a section holds more than it lists, then its heading says how many of how many', () => {
    const asking = card('b', {
      dueDate: '2026-12-01T10:00:00Z',
      assignee: 'ada',
      session: { agent: 'claude-2', state: 'awaitingInput', note: 'which port?', stale: true },
    });
    const text = contextMarkdown(
      contextOf({
        awaitingInput: [asking],
        blocked: [card('c', { waitsFor: ['a', 'b'] })],
        next: [card('d')],
        counts: { inProgress: 0, awaitingInput: 1, blocked: 1, pickable: 7 },
      }),
    );
    assert.match(
      text,
      /^Awaiting input \(1\):\n- `b` Card b \(todo, medium, due 2026-12-01, @ada\): claude-2 awaitingInput \(stale\) "which port\?"$/m,
    );
    assert.match(text, /^Blocked \(1\):\n- `c` Card c \(todo, medium\): waits for `a`, `b`$/m);
    assert.match(text, /^Next to pick \(1 of 7\):\n- `d` Card d \(todo, medium\)$/m);
  });

  it('when time is left on a lease, then it reads in minutes, or hours and minutes', () => {
    assert.deepEqual(
      [timeLeft(30_000), timeLeft(12 * 60_000 + 59_000), timeLeft(125 * 60_000)],
      ['<1m', '12m', '2h05m'],
    );
  });
});
