import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { allRoutes } from '../../server/api/routes';
import { BoardCreateBody } from '../../server/core/shapes/requests/boards';
import { TaskUpdateBody } from '../../server/core/shapes/requests/tasks';
import { buildTools } from '../../server/mcp/tools';
import { withoutBounds } from '../../server/mcp/toolCatalog';
import type { TestServer } from '../helpers/testServer';
import { textOf, type McpSession, useMcpSession } from './helpers';

const EVERYDAY_ARGS: Record<string, { args: string[]; required: string[] }> = {
  list_boards: { args: [], required: [] },
  list_columns: { args: ['board'], required: [] },
  list_cards: {
    args: [
      'board',
      'q',
      'fuzzy',
      'status',
      'priority',
      'assignee',
      'label',
      'labelGroup',
      'meta',
      'includeDeleted',
      'includeArchived',
      'archived',
      'ready',
      'due',
      'dueBefore',
      'dueAfter',
      'claimed',
      'claimedBy',
      'parent',
      'topLevel',
      'view',
      'fields',
      'limit',
      'cursor',
      'sort',
    ],
    required: [],
  },
  get_card: { args: ['id', 'board'], required: ['id'] },
  create_card: {
    args: [
      'title',
      'body',
      'status',
      'priority',
      'assignee',
      'dueDate',
      'labels',
      'metadata',
      'blockedBy',
      'parent',
      'board',
    ],
    required: ['title'],
  },
  update_card: {
    args: [
      'id',
      'board',
      'title',
      'body',
      'status',
      'priority',
      'assignee',
      'dueDate',
      'labels',
      'metadata',
      'blockedBy',
      'parent',
      'relatesTo',
      'duplicateOf',
    ],
    required: ['id'],
  },
  move_card: {
    args: ['id', 'status', 'position', 'priority', 'assignee', 'labels', 'metadata', 'board'],
    required: ['id', 'status'],
  },
  delete_card: { args: ['id', 'permanent', 'board'], required: ['id'] },
  transfer_card: { args: ['id', 'toBoard', 'status'], required: ['id', 'toBoard'] },
  add_comment: { args: ['id', 'content', 'author', 'board'], required: ['id', 'content'] },
  list_comments: { args: ['id', 'board'], required: ['id'] },
  add_log: { args: ['id', 'text', 'board'], required: ['id', 'text'] },
  check_item: { args: ['id', 'index', 'done', 'text', 'board'], required: ['id', 'index'] },
  add_checklist_item: { args: ['id', 'text', 'board'], required: ['id', 'text'] },
  remove_checklist_item: { args: ['id', 'index', 'board'], required: ['id', 'index'] },
  archive_card: { args: ['id', 'board'], required: ['id'] },
  restore_card: { args: ['id', 'status', 'board'], required: ['id'] },
  archive_column: { args: ['column', 'board'], required: ['column'] },
  pick_card: {
    args: ['agent', 'board', 'status', 'labels', 'assignee', 'priority', 'moveTo', 'ttlSeconds'],
    required: [],
  },
  claim_card: { args: ['id', 'agent', 'ttlSeconds', 'board'], required: ['id'] },
  release_card: { args: ['id', 'agent', 'force', 'board'], required: ['id'] },
  report_progress: { args: ['id', 'state', 'note', 'url', 'agent', 'board'], required: ['id', 'state'] },
  get_board_context: { args: ['board'], required: [] },
};

const sorted = (list: string[]) => [...list].sort();

describe('MCP tools (the server on stdio, over a running server with --url)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mcp: McpSession;
  let tools: Tool[];

  useMcpSession('url', async (opened) => {
    ({ server, mcp } = opened);
    tools = (await mcp.client.listTools()).tools;
  });

  it('when an agent lists the tools, then every route of the table has one, under a unique snake_case name', () => {
    const listed = new Set(tools.map((t) => t.name));
    assert.equal(listed.size, tools.length, 'tool names are unique');
    for (const name of listed) assert.match(name, /^[a-z][a-z0-9_]*$/);
    const byRoute = new Map(buildTools(allRoutes).flatMap((t) => t.routes.map((key) => [key, t.name] as const)));
    for (const route of allRoutes) {
      const name = byRoute.get(`${route.method} ${route.path}`);
      assert.ok(name && listed.has(name), `${route.method.toUpperCase()} ${route.path} has a tool`);
    }
  });

  it('when an agent lists the tools, then the everyday ones have exactly their arguments and the right annotations', () => {
    for (const [name, expected] of Object.entries(EVERYDAY_ARGS)) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      // Every tool takes `workspace` besides its own arguments (workspace.test.ts).
      assert.deepEqual(
        sorted(Object.keys(tool.inputSchema.properties ?? {})),
        sorted([...expected.args, 'workspace']),
        `${name} arguments`,
      );
      assert.deepEqual(
        sorted(tool.inputSchema.required ?? []),
        sorted(expected.required),
        `${name} required arguments`,
      );
      assert.ok(
        tool.description && !tool.description.includes('\n') && tool.description.length <= 100,
        `${name} has a one-line description`,
      );
    }
    const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
    // Only what differs from MCP's defaults (readOnly and idempotent false, destructive true).
    assert.deepEqual(hints('list_cards'), { readOnlyHint: true });
    assert.deepEqual(hints('create_card'), { destructiveHint: false });
    assert.deepEqual(hints('update_card'), { destructiveHint: false, idempotentHint: true });
    assert.deepEqual(hints('delete_card'), { destructiveHint: true, idempotentHint: true });
    // The card fields are the REST body's own schemas.
    const create = tools.find((t) => t.name === 'create_card')!;
    assert.deepEqual(
      create.inputSchema.properties?.priority,
      // As JSON: the tool list crosses the wire, which drops the schema library's own (symbol) keys.
      JSON.parse(JSON.stringify(TaskUpdateBody.properties.priority)),
    );
  });

  it('when a route has a body, then its generated tool takes the REST body schema, and the hints follow the method', () => {
    const createBoard = tools.find((t) => t.name === 'create_board')!;
    for (const [field, schema] of Object.entries(BoardCreateBody.properties as Record<string, unknown>)) {
      // As listed, without the bounds the server checks (the whole schema validates the call).
      assert.deepEqual(createBoard.inputSchema.properties?.[field], withoutBounds(schema), `create_board.${field}`);
    }
    assert.deepEqual(sorted(createBoard.inputSchema.required ?? []), ['id', 'name']);
    const generated = buildTools(allRoutes).filter((t) => !(t.name in EVERYDAY_ARGS));
    for (const def of generated) {
      const method = def.routes[0].split(' ')[0];
      const listed = tools.find((t) => t.name === def.name)!;
      const hints = listed.annotations ?? {};
      assert.equal(hints.readOnlyHint === true, method === 'get', `${def.name} readOnlyHint`);
      if (method === 'get') continue; // the other two hints mean nothing on a read-only tool
      assert.equal(hints.destructiveHint ?? true, method === 'delete', `${def.name} destructiveHint`);
      assert.equal(hints.idempotentHint ?? false, ['put', 'delete'].includes(method), `${def.name} idempotentHint`);
    }
  });

  it('when a route declares its response, then its tool has it as output schema and answers data that holds to it', async () => {
    const withOutput = tools.filter((t) => t.outputSchema);
    assert.ok(
      withOutput.some((t) => t.name === 'get_workspace'),
      'get_workspace has an output schema',
    );
    // The SDK's client validates structuredContent against the output schema itself.
    for (const tool of withOutput.filter(
      (t) => t.annotations?.readOnlyHint && !(t.inputSchema.required ?? []).length,
    )) {
      const result = await mcp.callRaw(tool.name);
      assert.ok(!result.isError, `${tool.name}: ${textOf(result)}`);
      assert.ok(result.structuredContent, `${tool.name} answers structured content`);
    }
    const workspace = await mcp.call('get_workspace');
    assert.equal(workspace.root, (await server.api('GET', '/api/workspace')).body?.data.root);
  });

  it('when an agent works a card through the everyday tools, then REST shows every change', async () => {
    const created = await mcp.call('create_card', {
      title: 'Fix login',
      body: 'The session expires.',
      priority: 'high',
      labels: ['bug'],
      assignee: 'ada',
      metadata: { sprint: 's12' },
    });
    assert.deepEqual(Object.keys(created).sort(), [
      'assignee',
      'boardId',
      'id',
      'labels',
      'priority',
      'status',
      'title',
    ]);
    const id: string = created.id;
    let rest = (await server.api('GET', `/api/tasks/${id}`)).body?.data;
    assert.equal(rest.content, '# Fix login\n\nThe session expires.\n');
    assert.deepEqual(
      [rest.priority, rest.assignee, rest.labels, rest.metadata],
      ['high', 'ada', ['bug'], { sprint: 's12' }],
    );

    const card = await mcp.call('get_card', { id: id.slice(0, 6) });
    assert.equal(card.content, rest.content);

    await mcp.call('update_card', { id, title: 'Fix login timeout' });
    assert.equal(
      (await server.api('GET', `/api/tasks/${id}`)).body?.data.content,
      '# Fix login timeout\n\nThe session expires.\n',
    );
    const updated = await mcp.call('update_card', { id, body: 'After 5 minutes.', priority: 'critical' });
    assert.equal(updated.title, 'Fix login timeout');
    rest = (await server.api('GET', `/api/tasks/${id}`)).body?.data;
    assert.deepEqual([rest.content, rest.priority], ['# Fix login timeout\n\nAfter 5 minutes.\n', 'critical']);

    const moved = await mcp.call('move_card', { id, status: 'in-progress' });
    assert.equal(moved.status, 'in-progress');
    assert.equal((await server.api('GET', `/api/tasks/${id}`)).body?.data.status, 'in-progress');
    // A move that also hands the card over: one write, as a drop into another swimlane is.
    const handedOver = await mcp.call('move_card', { id, status: 'review', assignee: 'lena' });
    assert.deepEqual([handedOver.status, handedOver.assignee], ['review', 'lena']);
    await mcp.call('move_card', { id, status: 'in-progress', assignee: 'ada' });

    assert.deepEqual(
      (await mcp.call('list_cards', { meta: { sprint: 's12' }, label: 'bug' })).cards.map((c: { id: string }) => c.id),
      [id],
    );
    assert.deepEqual((await mcp.call('list_cards', { meta: { sprint: 's13' } })).cards, []);
    const listed = await mcp.call('list_cards', { status: 'in-progress' });
    assert.deepEqual(
      listed.cards.map((c: { id: string }) => c.id),
      [id],
    );
    assert.deepEqual(listed.cards[0], {
      id,
      title: 'Fix login timeout',
      status: 'in-progress',
      priority: 'critical',
      assignee: 'ada',
      labels: ['bug'],
    });
    assert.deepEqual(
      (await mcp.call('list_cards', { status: 'in-progress', due: 'none' })).cards.map((c: { id: string }) => c.id),
      [id],
    );
    assert.deepEqual((await mcp.call('list_cards', { status: 'in-progress', due: 'overdue' })).cards, []);

    const comment = await mcp.call('add_comment', { id, content: 'On it.' });
    assert.equal(comment.author, 'mcp-test', "the author defaults to the MCP client's name");
    const restComments = (await server.api('GET', `/api/tasks/${id}/comments`)).body?.data;
    assert.deepEqual(
      restComments.map((c: { content: string }) => c.content),
      ['On it.'],
    );
    assert.deepEqual(await mcp.call('list_comments', { id }), restComments);

    await mcp.call('add_log', { id, text: 'ran the login tests' });
    const logs = (await server.api('GET', `/api/tasks/${id}/logs`)).body?.data;
    assert.deepEqual(
      logs.map((l: { text: string }) => l.text),
      ['ran the login tests'],
    );

    assert.deepEqual(
      (await mcp.call('list_boards')).map((b: { id: string }) => b.id),
      ['default'],
    );
    const columns = await mcp.call('list_columns');
    assert.deepEqual(columns, (await server.api('GET', '/api/columns')).body?.data);

    assert.equal((await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' })).status, 201);
    const transferred = await mcp.call('transfer_card', { id, toBoard: 'ops', status: 'todo' });
    assert.deepEqual([transferred.boardId, transferred.status], ['ops', 'todo']);
    assert.equal((await server.api('GET', `/api/boards/ops/tasks/${id}`)).body?.data.status, 'todo');

    const deleted = await mcp.call('delete_card', { id, board: 'ops' });
    assert.equal(deleted.status, 'deleted');
    assert.equal((await server.api('GET', `/api/boards/ops/tasks/${id}`)).body?.data.status, 'deleted');
    await mcp.call('delete_card', { id, board: 'ops', permanent: true });
    assert.equal((await server.api('GET', `/api/boards/ops/tasks/${id}`)).status, 404);
  });

  it("when an agent names a card that does not exist, then the tool answers isError with the API's message", async () => {
    const result = await mcp.callRaw('get_card', { id: 'no-such-card' });
    assert.equal(result.isError, true);
    assert.equal(textOf(result), (await server.api('GET', '/api/tasks/no-such-card')).body?.error);
    const moved = await mcp.callRaw('move_card', { id: 'no-such-card', status: 'done' });
    assert.equal(moved.isError, true);
    assert.match(textOf(moved), /no-such-card/);
  });

  it('when an agent downloads an attachment through the server, then the tool answers its name, type and bytes', async () => {
    const card = (await server.api('POST', '/api/tasks', { content: '# With a file\n' })).body?.data;
    const bytes = Buffer.from('id,title\n1,first\n');
    const upload = await server.api('POST', `/api/tasks/${card.id}/attachments`, {
      files: [{ name: 'rows.csv', data: bytes.toString('base64') }],
    });
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    const tool = tools.find(
      (t) =>
        /attachment/.test(t.name) &&
        t.annotations?.readOnlyHint &&
        'filename' in ((t.inputSchema.properties ?? {}) as object),
    );
    assert.ok(tool, 'a read-only tool takes the attachment filename');
    const result = await mcp.callRaw(tool.name, { id: card.id, filename: 'rows.csv' });
    assert.notEqual(result.isError, true, textOf(result));
    const file = JSON.parse(textOf(result));
    assert.equal(file.name, 'rows.csv');
    assert.match(file.contentType, /csv/);
    assert.equal(Buffer.from(file.base64, 'base64').toString(), bytes.toString());
  });

  it('when an agent leaves out a required argument or adds an unknown one, then the error names it', async () => {
    const missing = await mcp.callRaw('get_card', {});
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /id/);
    const unknown = await mcp.callRaw('create_card', { title: 'x', colour: 'red' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /unknown field "colour"/);
  });

  it('when a tool was renamed, then only the new name is listed and the old one still works', async () => {
    const names = new Set(tools.map((t) => t.name));
    const renames = {
      update_import: 'import_cards',
      patch_label: 'rename_label',
      get_resolve_path: 'resolve_path',
      create_board_action: 'set_board_actions',
      get_tasks_active: 'get_active_card',
    };
    for (const [old, now] of Object.entries(renames)) {
      assert.ok(names.has(now), `${now} is listed`);
      assert.ok(!names.has(old), `${old} is not listed`);
    }
    const viaOld = await mcp.callRaw('get_resolve_path', { path: '.' });
    assert.notEqual(viaOld.isError, true, textOf(viaOld));
    assert.deepEqual(viaOld.structuredContent, (await mcp.callRaw('resolve_path', { path: '.' })).structuredContent);
    const dryRun = await mcp.call('update_import', { format: 'csv', data: 'title\nFrom the old name\n' });
    assert.ok(dryRun, 'update_import still imports (a dry run)');
  });

  it('when an argument is not one of its allowed values, then the error lists them, as REST does', async () => {
    const refused = await mcp.callRaw('create_card', { title: 'x', priority: 'urgent' });
    assert.equal(refused.isError, true);
    assert.equal(textOf(refused), 'arguments.priority must be one of critical, high, medium, low');
    const rest = await server.api('POST', '/api/tasks', { content: '# x\n', priority: 'urgent' });
    assert.match(String(rest.body?.error), /must be one of critical, high, medium, low/);
  });
});
