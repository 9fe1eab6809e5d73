import { strict as assert } from 'node:assert';
import type { Notification } from '@modelcontextprotocol/server';
import { progressNotifier } from '../../server/mcp/progress';

/** The params of every notification a notifier sends, fed the given steps. */
function notified(steps: [phase: string, done: number, total: number][]): Record<string, unknown>[] {
  const sent: Record<string, unknown>[] = [];
  const listener = progressNotifier(
    'token-1',
    async (notification: Notification) => void sent.push(notification.params as Record<string, unknown>),
  );
  for (const [phase, done, total] of steps) listener({ operation: 'storage.migrate-to-sqlite', phase, done, total });
  return sent;
}

describe('MCP progress notifications from the service steps', () => {
  it('when a step restarts its count at zero, then progress still grows: the steps lie end to end', () => {
    const sent = notified([
      ['reading the cards', 0, 1],
      ['copying cards', 1, 2],
      ['copying cards', 2, 2],
      ['checking the copy', 0, 1],
      ['checking the copy', 1, 1],
    ]);
    assert.deepEqual(
      sent.map((p) => [p.progress, p.total, p.message]),
      [
        [0, 1, 'reading the cards'],
        [2, 3, 'copying cards'],
        [3, 3, 'copying cards'],
        [4, 4, 'checking the copy'],
      ],
    );
    assert.ok(sent.every((p) => p.progressToken === 'token-1'));
  });

  it('when a step counts 1,000 cards one by one, then about 50 notifications go out, the last at the total', () => {
    const steps: [string, number, number][] = Array.from({ length: 1001 }, (_, done) => ['creating cards', done, 1000]);
    const sent = notified(steps);
    assert.ok(sent.length >= 40 && sent.length <= 52, `${sent.length} notifications`);
    assert.deepEqual(sent.at(-1), { progressToken: 'token-1', progress: 1000, total: 1000, message: 'creating cards' });
  });
});
