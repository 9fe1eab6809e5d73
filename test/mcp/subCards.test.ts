import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { type McpSession, useMcpSession } from './helpers';

describe('MCP sub-cards and relations (over a running server with --url)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  useMcpSession('url', (opened) => ({ server, mcp } = opened));

  it('when an agent creates a card with a partial parent id, then the summary names the whole parent and list_cards filters by it', async () => {
    const epic = await mcp.call('create_card', { title: 'Payments epic' });
    const child = await mcp.call('create_card', { title: 'Refunds', parent: 'payments' });
    assert.equal(child.parent, epic.id);
    assert.equal(epic.parent, undefined, 'a card without a parent says nothing of it');
    const { cards } = await mcp.call('list_cards', { parent: epic.id });
    assert.deepEqual(
      cards.map((c: any) => c.id),
      [child.id],
    );
    const top = await mcp.call('list_cards', { topLevel: true });
    assert.deepEqual(
      top.cards.map((c: any) => c.id),
      [epic.id],
    );
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${epic.id}`)).children, { total: 1, done: 0 });
  });

  it('when an agent sets relatesTo and clears the parent with update_card, then the REST read model shows both', async () => {
    const epic = await mcp.call('create_card', { title: 'Search epic' });
    const other = await mcp.call('create_card', { title: 'Index rebuild' });
    const child = await mcp.call('create_card', { title: 'Typo tolerance', parent: epic.id });
    await mcp.call('update_card', { id: child.id, parent: null, relatesTo: ['index-re'] });
    const card = okData(await server.api('GET', `/api/tasks/${child.id}`));
    assert.deepEqual([card.parent, card.relatesTo], [null, [other.id]]);
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${other.id}`)).related, [child.id]);
  });

  it('when an agent names a parent that makes a cycle, then the tool fails with the reason', async () => {
    const a = await mcp.call('create_card', { title: 'Loop A' });
    const b = await mcp.call('create_card', { title: 'Loop B', parent: a.id });
    await assert.rejects(mcp.call('update_card', { id: a.id, parent: b.id }), /would make a cycle/);
  });
});
