import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/testServer';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP checklists and dependencies (over a running server with --url)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession('url', (opened) => ({ server, mcp } = opened));

  it('when an agent lists cards, then checklist progress is "done/total" and blocked shows only while true', async () => {
    const blocker = await mcp.call('create_card', { title: 'Set up CI', body: '- [x] runner\n- [ ] cache' });
    const waiting = await mcp.call('create_card', { title: 'Ship the build', blockedBy: ['set-up-ci'] });
    const { cards } = await mcp.call('list_cards', {});
    const byId = new Map(cards.map((c: any) => [c.id, c]));
    assert.deepEqual(byId.get(blocker.id), {
      id: blocker.id,
      title: 'Set up CI',
      status: 'backlog',
      priority: 'medium',
      checklist: '1/2',
    });
    assert.deepEqual(byId.get(waiting.id), {
      id: waiting.id,
      title: 'Ship the build',
      status: 'backlog',
      priority: 'medium',
      blockedBy: [blocker.id],
      blocked: true,
    });
    const ready = await mcp.call('list_cards', { ready: true });
    assert.deepEqual(
      ready.cards.map((c: any) => c.id),
      [blocker.id],
    );
  });

  it('when an agent ticks, adds and removes items, then each answer lists the items with their index and the file text follows', async () => {
    const card = await mcp.call('create_card', { title: 'Write the docs', body: 'Plan:\n\n- [ ] intro\n- [ ] api' });
    const ticked = await mcp.call('check_item', { id: card.id.slice(0, 9), index: 1 });
    assert.deepEqual([ticked.checklist, ticked.items], ['1/2', ['0: [ ] intro', '1: [x] api']]);
    const added = await mcp.call('add_checklist_item', { id: card.id, text: 'examples' });
    assert.deepEqual(added.items, ['0: [ ] intro', '1: [x] api', '2: [ ] examples']);
    const reworded = await mcp.call('check_item', { id: card.id, index: 1, text: 'API reference' });
    assert.deepEqual(reworded.items[1], '1: [x] API reference', 'rewording alone keeps the tick');
    const unticked = await mcp.call('check_item', { id: card.id, index: 1, done: false, text: 'api' });
    assert.equal(unticked.checklist, '0/3');
    const removed = await mcp.call('remove_checklist_item', { id: card.id, index: 0 });
    assert.deepEqual(removed.items, ['0: [ ] api', '1: [ ] examples']);
    const read = await server.api('GET', `/api/tasks/${card.id}`);
    assert.equal(read.body?.data.content, '# Write the docs\n\nPlan:\n\n- [ ] api\n- [ ] examples\n');
    const missing = await mcp.callRaw('check_item', { id: card.id, index: 7 });
    assert.ok(missing.isError);
    assert.match(JSON.stringify(missing.content), /no checklist item 7: items are numbered 0 to 1/);
  });
});
