import assert from 'node:assert/strict';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { toolCatalog } from '../../server/mcp/mcpServer';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { startMcp, type McpRevision, type McpSession } from './helpers';

const textOfPrompt = (result: GetPromptResult) =>
  result.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');

/** Every backticked snake_case word: how a prompt writes a tool name (column and card ids use hyphens). */
const toolNamesIn = (text: string) => [...text.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]);

for (const revision of ['2025-11-25', '2026-07-28'] as McpRevision[]) {
  describe(`MCP prompts and completions (${revision})`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let mcp: McpSession;
    let login: string;
    let checkout: string;

    before(async () => {
      server = await startTestServer();
      const created = async (content: string, fields: Record<string, unknown>) =>
        (await server.api('POST', '/api/tasks', { content, ...fields })).body?.data.id as string;
      login = await created(
        '# Fix the login page\n\nUsers cannot sign in with SSO.\n\n- [ ] reproduce\n- [x] read the logs\n',
        { status: 'todo', priority: 'high', labels: ['bug'] },
      );
      checkout = await created('# Speed up checkout\n', { status: 'backlog', labels: ['perf'] });
      await created('# Write release notes\n', { status: 'backlog', assignee: 'ada', priority: 'low' });
      await server.api('POST', `/api/tasks/${login}/comments`, {
        author: 'ada',
        content: 'Only Okta users are affected.',
      });
      await server.api('POST', `/api/tasks/${login}/logs`, { text: 'bisected to the session middleware' });
      await server.api('POST', '/api/boards', { id: 'ops', name: 'Operations' });
      mcp = await startMcp(['--url', server.url], {}, { revision });
    });
    after(async () => {
      await mcp?.close();
      await server?.close();
    });

    const get = async (name: string, args: Record<string, string> = {}) =>
      textOfPrompt(await mcp.client.getPrompt({ name, arguments: args }));
    const completeFor = async (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value: string,
      context?: Record<string, string>,
    ) =>
      (
        await mcp.client.complete({
          ref,
          argument: { name, value },
          ...(context ? { context: { arguments: context } } : {}),
        })
      ).completion.values;

    it('when a client lists the prompts, then it sees the four with titles and described arguments', async () => {
      const { prompts } = await mcp.client.listPrompts();
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['work_on_next_card', 'write_handoff', 'triage_new_cards', 'split_card'],
      );
      assert.ok(prompts.every((p) => p.title && p.description && p.arguments?.every((a) => a.description)));
      const argsOf = (name: string) =>
        prompts.find((p) => p.name === name)?.arguments?.map((a) => `${a.name}${a.required ? '!' : ''}`);
      assert.deepEqual(argsOf('work_on_next_card'), ['board', 'column']);
      assert.deepEqual(argsOf('write_handoff'), ['id!', 'board']);
      assert.deepEqual(argsOf('triage_new_cards'), ['board', 'column']);
      assert.deepEqual(argsOf('split_card'), ['id!', 'board']);
    });

    it('when the server is read-only, then it offers no prompt (each asks for changes), and completions still answer', async () => {
      const readOnly = await startMcp(['--url', server.url, '--read-only'], {}, { revision });
      try {
        assert.deepEqual((await readOnly.client.listPrompts()).prompts, []);
        await assert.rejects(readOnly.client.getPrompt({ name: 'split_card', arguments: { id: login } }), /read-only/);
        const ids = (
          await readOnly.client.complete({
            ref: { type: 'ref/resource', uri: 'kanban://cards/{id}' },
            argument: { name: 'id', value: login.slice(0, 6) },
          })
        ).completion.values;
        assert.ok(ids.includes(login), ids.join(', '));
      } finally {
        await readOnly.close();
      }
    });

    it('when a person asks to work on the next card, then the prompt names the card pick would give, the columns and the loop', async () => {
      const text = await get('work_on_next_card');
      assert.match(text, new RegExp(`Next pick would be \`${login}\` "Fix the login page" \\(todo, high\\)`));
      assert.ok(text.includes('`backlog` → `todo` → `in-progress` → `review` → `done`'), text);
      assert.ok(text.includes('## Kanban: how to work the board'), 'carries the agent loop');
      assert.ok(text.includes('`pick_card` {"board":"default"}'), text);
    });

    it("when the next card is asked for from a column, then the prompt names that column's best card and picks from it", async () => {
      const text = await get('work_on_next_card', { column: 'backlog' });
      assert.match(text, new RegExp(`Next pick would be \`${checkout}\` "Speed up checkout" \\(backlog, medium\\)`));
      assert.ok(text.includes('{"board":"default","status":"backlog"}'), text);
      assert.match(await get('work_on_next_card', { board: 'ops' }), /Nothing is ready to pick now/);
    });

    it('when a person asks for a hand-off, then the prompt carries the card, its checklist, comments and log, and what to write', async () => {
      await server.api('POST', `/api/tasks/${login}/claim`, {}, { 'X-Kanban-Agent': 'bot-1' });
      const text = await get('write_handoff', { id: login.slice(0, 12) });
      for (const part of [
        '"Fix the login page"',
        'Users cannot sign in with SSO.',
        '0: [ ] reproduce',
        '1: [x] read the logs',
        'Only Okta users are affected.',
        'bisected to the session middleware',
        'held by bot-1',
        '**Next steps**',
        '**Open questions**',
        `\`add_comment\` {id: "${login}"}`,
      ]) {
        assert.ok(text.includes(part), `has ${part}:\n${text}`);
      }
      assert.ok(!text.includes('- [ ] reproduce'), 'checklist lines are shown once, with their index');
    });

    it("when a person triages, then the prompt lists the first column's cards with labels and priority, or the column named", async () => {
      const text = await get('triage_new_cards');
      assert.match(text, /column `backlog` of board "Default" \(`default`\): 2\./);
      assert.match(text, new RegExp(`- \`${checkout}\` Speed up checkout \\(backlog, medium, labels: perf\\)`));
      assert.match(text, /Write release notes \(backlog, low, @ada\)/);
      assert.ok(!text.includes('Fix the login page'));
      assert.match(await get('triage_new_cards', { column: 'todo' }), /Fix the login page \(todo, high, labels: bug\)/);
    });

    it('when a person splits a card, then the prompt shows the card and asks for checklist items', async () => {
      const text = await get('split_card', { id: checkout });
      assert.ok(text.includes('"Speed up checkout"') && text.includes('Checklist: none.'), text);
      assert.ok(text.includes(`\`add_checklist_item\` {id: "${checkout}", text}`), text);
    });

    it('when a prompt names a card on another board, then the card is read there and the tool call names that board', async () => {
      const runbook = (
        await server.api('POST', '/api/boards/ops/tasks', { content: '# Rotate the certificates\n', status: 'backlog' })
      ).body?.data.id as string;
      assert.ok(runbook);
      assert.ok(
        (await get('split_card', { id: runbook, board: 'ops' })).includes(`{id: "${runbook}", board: "ops", text}`),
      );
      await assert.rejects(
        mcp.client.getPrompt({ name: 'split_card', arguments: { id: runbook } }),
        /on board "default"/,
      );
      assert.deepEqual(await completeFor({ type: 'ref/prompt', name: 'split_card' }, 'id', 'rot', { board: 'ops' }), [
        runbook,
      ]);
      assert.deepEqual(await completeFor({ type: 'ref/prompt', name: 'split_card' }, 'id', 'rot'), []);
    });

    it('when a prompt names a card, column or board that is not there, then the error names it', async () => {
      await assert.rejects(
        mcp.client.getPrompt({ name: 'write_handoff', arguments: { id: 'no-such-card' } }),
        /no-such-card/,
      );
      await assert.rejects(
        mcp.client.getPrompt({ name: 'split_card', arguments: { id: 'no-such-card' } }),
        /no-such-card/,
      );
      await assert.rejects(
        mcp.client.getPrompt({ name: 'triage_new_cards', arguments: { column: 'nowhere' } }),
        /column "nowhere"/,
      );
      await assert.rejects(
        mcp.client.getPrompt({ name: 'work_on_next_card', arguments: { board: 'nope' } }),
        /board "nope"/,
      );
      await assert.rejects(mcp.client.getPrompt({ name: 'split_card', arguments: {} }), /needs the argument "id"/);
    });

    it('when the prompts name tools, then every one is a current tool of the catalog', async () => {
      const names = new Set<string>();
      for (const [name, args] of [
        ['work_on_next_card', {}],
        ['write_handoff', { id: login }],
        ['triage_new_cards', {}],
        ['split_card', { id: login }],
      ] as const) {
        for (const tool of toolNamesIn(await get(name, args))) names.add(tool);
      }
      assert.ok(names.size >= 10, `found ${[...names].join(', ')}`);
      for (const name of names) assert.equal(toolCatalog().find(name)?.name, name, `${name} is a tool under that name`);
    });

    it('when a person types a card id prefix or a title word, then the ids complete', async () => {
      const ref = { type: 'ref/prompt', name: 'write_handoff' } as const;
      assert.deepEqual(await completeFor(ref, 'id', login.slice(0, 5)), [login]);
      assert.deepEqual(await completeFor(ref, 'id', 'Check'), [checkout]);
      assert.deepEqual(await completeFor(ref, 'id', 'zzz'), []);
      assert.equal((await completeFor(ref, 'id', '')).length, 3);
      assert.deepEqual(await completeFor({ type: 'ref/resource', uri: 'kanban://cards/{id}' }, 'id', 'login'), [login]);
    });

    it('when a person types a column, then it completes from the board the other arguments name', async () => {
      const ref = { type: 'ref/prompt', name: 'triage_new_cards' } as const;
      assert.deepEqual(await completeFor(ref, 'column', 'in'), ['in-progress']);
      assert.deepEqual(await completeFor(ref, 'column', 'b'), ['backlog']);
      await server.api('POST', '/api/boards/ops/columns', { id: 'incidents', name: 'Incidents' });
      assert.deepEqual(await completeFor(ref, 'column', 'inc'), []);
      assert.deepEqual(await completeFor(ref, 'column', 'inc', { board: 'ops' }), ['incidents']);
      assert.deepEqual(
        await completeFor(ref, 'column', 'inc', { board: 'nope' }),
        [],
        'an unknown board offers nothing',
      );
    });

    it('when a person types a board, then board ids complete, in a prompt and in the board resource template', async () => {
      assert.deepEqual(await completeFor({ type: 'ref/prompt', name: 'work_on_next_card' }, 'board', 'op'), ['ops']);
      assert.deepEqual(await completeFor({ type: 'ref/resource', uri: 'kanban://boards/{board}' }, 'board', 'Oper'), [
        'ops',
      ]);
      assert.deepEqual(await completeFor({ type: 'ref/resource', uri: 'kanban://boards/{board}' }, 'board', ''), [
        'default',
        'ops',
      ]);
    });
  });
}
