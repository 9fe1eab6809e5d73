import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { mcpCommand, startMcp, textOf, type McpSession } from './helpers';

/** An agent through MCP: `kanban mcp --agent <name>` sends that name with every call. */
describe('MCP agent tools: pick_card, claim_card, release_card (over a running server with --url)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;

  before(async () => {
    server = await startTestServer();
    mcp = await startMcp(['--url', server.url, '--agent', 'mcp-agent']);
  });
  after(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('when nothing is ready, then pick_card answers picked null', async () => {
    assert.deepEqual(await mcp.call('pick_card'), { picked: null, reason: 'no ready, unclaimed card matches' });
  });

  it('when an agent picks, claims and releases through the tools, then REST shows each claim and other agents are held off', async () => {
    await mcp.call('create_card', { title: 'Low one', status: 'todo', priority: 'low' });
    const urgent = await mcp.call('create_card', {
      title: 'Urgent one',
      body: 'Do it now.',
      status: 'todo',
      priority: 'critical',
    });
    const { picked } = await mcp.call('pick_card', { moveTo: 'in-progress' });
    assert.deepEqual(
      [picked.id, picked.status, picked.claim.agent, picked.content],
      [urgent.id, 'in-progress', 'mcp-agent', '# Urgent one\n\nDo it now.\n'],
    );
    assert.equal((await server.api('GET', `/api/tasks/${urgent.id}`)).body?.data.claim.agent, 'mcp-agent');

    const other = await mcp.call('create_card', { title: "Someone else's", status: 'review' });
    const claimed = await mcp.call('claim_card', { id: other.id, agent: 'other-agent', ttlSeconds: 120 });
    assert.equal(claimed.claim.agent, 'other-agent');
    const refused = await mcp.callRaw('update_card', { id: other.id, priority: 'high' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /claimed by agent other-agent until/);
    const held = await mcp.callRaw('release_card', { id: other.id });
    assert.equal(held.isError, true);
    assert.match(textOf(held), /only that agent or a person may release it/);
    const released = await mcp.call('release_card', { id: other.id, force: true });
    assert.equal(released.claim, undefined, 'no claim left');
    assert.equal((await server.api('GET', `/api/tasks/${other.id}`)).body?.data.claim, null);

    const listed = await mcp.call('list_cards', {});
    assert.deepEqual(
      listed.cards.find((c: any) => c.id === urgent.id).claim.agent,
      'mcp-agent',
      'list_cards shows who holds a card',
    );
  });

  it('when an agent reports through report_progress, then it answers the card, claim and session as structured output; list_cards filters by claim', async () => {
    const card = await mcp.call('create_card', { title: 'Reported', status: 'todo' });
    const result = await mcp.callRaw('report_progress', { id: card.id, state: 'awaitingInput', note: 'which port?' });
    assert.equal(result.isError, undefined, textOf(result));
    const out = result.structuredContent as any;
    assert.deepEqual(
      [out.id, out.claim.agent, out.session.agent, out.session.state, out.session.note, out.session.stale],
      [card.id, 'mcp-agent', 'mcp-agent', 'awaitingInput', 'which port?', false],
    );
    assert.deepEqual(JSON.parse(textOf(result)), out);
    assert.equal((await server.api('GET', `/api/tasks/${card.id}`)).body?.data.session.state, 'awaitingInput');
    const mine = await mcp.call('list_cards', { claimedBy: 'mcp-agent' });
    assert.ok(mine.cards.some((c: any) => c.id === card.id));
    const free = await mcp.call('list_cards', { claimed: false });
    assert.ok(!free.cards.some((c: any) => c.id === card.id));
    const bad = await mcp.callRaw('report_progress', { id: card.id, state: 'napping' });
    assert.equal(bad.isError, true);
    const done = await mcp.call('report_progress', { id: card.id, state: 'complete' });
    assert.deepEqual([done.claim, done.session.state], [null, 'complete']);
  });

  it('when kanban mcp has no --agent, then each connection is an agent named after its client, on both protocol revisions', async () => {
    const card = await mcp.call('create_card', { title: 'Unnamed agents', status: 'backlog' });
    const first = await startMcp(['--url', server.url], {}, { name: 'Claude Code', revision: '2026-07-28' });
    const second = await startMcp(['--url', server.url], {}, { name: 'Claude Code' });
    try {
      const claimed = await first.call('claim_card', { id: card.id });
      assert.match(claimed.claim.agent, /^Claude-Code-[0-9a-z]{4}$/);
      const refused = await second.callRaw('update_card', { id: card.id, priority: 'high' });
      assert.equal(refused.isError, true, 'another connection of the same client is another agent');
      assert.match(textOf(refused), new RegExp(`claimed by agent ${claimed.claim.agent} until`));
      const own = await first.call('update_card', { id: card.id, priority: 'high' });
      assert.equal(own.priority, 'high', 'the holder changes its own card');
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('when kanban mcp is given an agent name that breaks the rule, then it does not start and says why', () => {
    const { command, args } = mcpCommand(['--url', server.url, '--agent', 'two words']);
    const run = spawnSync(command, args, { encoding: 'utf8', input: '' });
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--agent "two words" is not a valid agent name: use 1 to 64 characters/);
  });
});
