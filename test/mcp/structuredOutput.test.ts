import assert from 'node:assert/strict';
import Ajv from 'ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { TestServer } from '../helpers/testServer';
import { textOf, type McpSession, useMcpSession } from './helpers';

type Args = Record<string, unknown>;
/** What earlier calls made: the next calls name it. */
interface Made {
  card?: string;
  comment?: string;
  view?: string;
  webhook?: string;
  columns?: string[];
}

/**
 * Every tool, called for real in an order where each finds what it needs (a card, a second board,
 * a comment...). Destructive ones come late; the storage migrations last. A call that needs setup
 * this walk does not make (a form, a card action) may answer isError.
 */
const WALK: [string, (made: Made) => Args][] = [
  ['list_boards', () => ({})],
  ['list_columns', () => ({})],
  ['create_card', () => ({ title: 'Walk the tools', body: '- [ ] first', priority: 'high', labels: ['bug'] })],
  ['get_card', (m) => ({ id: m.card })],
  ['update_card', (m) => ({ id: m.card, title: 'Walked the tools' })],
  ['list_cards', () => ({})],
  ['move_card', (m) => ({ id: m.card, status: 'in-progress' })],
  ['add_comment', (m) => ({ id: m.card, content: 'On it.' })],
  ['list_comments', (m) => ({ id: m.card })],
  ['update_task_comment', (m) => ({ id: m.card, commentId: m.comment, content: 'Still on it.' })],
  ['delete_task_comment', (m) => ({ id: m.card, commentId: m.comment })],
  ['add_log', (m) => ({ id: m.card, text: 'ran the tests' })],
  ['list_task_logs', (m) => ({ id: m.card })],
  ['clear_task_logs', (m) => ({ id: m.card })],
  ['check_item', (m) => ({ id: m.card, index: 0 })],
  ['add_checklist_item', (m) => ({ id: m.card, text: 'second' })],
  ['remove_checklist_item', (m) => ({ id: m.card, index: 1 })],
  ['claim_card', (m) => ({ id: m.card })],
  ['report_progress', (m) => ({ id: m.card, state: 'active' })],
  // The card now has a claim, a session and a checklist: the answers that carry them must still hold.
  ['get_card', (m) => ({ id: m.card })],
  [
    'list_cards',
    () => ({
      fields: 'id,title,content,checklist,blocked,blockedBy,claim,session,cardState,metadata,modified,dueDate,assignee',
    }),
  ],
  ['delete_task_session', (m) => ({ id: m.card })],
  ['release_card', (m) => ({ id: m.card })],
  ['pick_card', () => ({})],
  ['create_card', () => ({ title: 'Ready to pick', body: '- [x] done already' })],
  ['pick_card', () => ({ agent: 'picker' })],
  ['get_board_context', () => ({})],
  ['get_metrics', () => ({ from: '2026-01-01' })],
  ['open_task', (m) => ({ id: m.card })],
  ['read_task', (m) => ({ id: m.card })],
  ['get_active_card', () => ({})],
  [
    'create_task_attachment',
    (m) => ({ id: m.card, files: [{ name: 'notes.txt', data: Buffer.from('hello').toString('base64') }] }),
  ],
  ['get_task_attachment', (m) => ({ id: m.card, filename: 'notes.txt' })],
  ['delete_task_attachment', (m) => ({ id: m.card, filename: 'notes.txt' })],
  ['submit_task_form', (m) => ({ id: m.card, formId: 'none', data: {} })],
  ['run_task_action', (m) => ({ id: m.card, action: 'none' })],
  ['bulk_tasks', (m) => ({ ids: [m.card], change: { priority: 'low' } })],
  ['create_board', () => ({ id: 'ops', name: 'Ops' })],
  ['get_board', () => ({ board: 'ops' })],
  ['update_board', () => ({ board: 'ops', name: 'Operations' })],
  ['set_board_actions', () => ({ board: 'ops', actions: { deploy: 'Deploy' } })],
  ['update_board_action', () => ({ board: 'ops', key: 'ship', title: 'Ship' })],
  ['list_board_actions', () => ({ board: 'ops' })],
  ['trigger_board_action', () => ({ board: 'ops', key: 'deploy' })],
  ['delete_board_action', () => ({ board: 'ops', key: 'ship' })],
  ['create_board_log', () => ({ board: 'ops', text: 'deployed' })],
  ['list_board_logs', () => ({ board: 'ops' })],
  ['clear_board_logs', () => ({ board: 'ops' })],
  ['transfer_card', (m) => ({ id: m.card, toBoard: 'ops' })],
  ['create_column', () => ({ id: 'qa', name: 'QA' })],
  ['update_column', () => ({ columnId: 'qa', name: 'Quality' })],
  ['set_minimized_columns', () => ({ columnIds: ['qa'] })],
  ['reorder_columns', (m) => ({ columnIds: [...(m.columns ?? []), 'qa'].reverse() })],
  ['delete_column', () => ({ columnId: 'qa' })],
  ['get_settings', () => ({})],
  ['update_settings', () => ({ compactMode: true })],
  ['list_labels', () => ({})],
  ['get_labels_usage', () => ({})],
  ['update_label', () => ({ name: 'bug', color: '#ff0000' })],
  ['rename_label', () => ({ name: 'bug', newName: 'defect' })],
  ['delete_label', () => ({ name: 'defect' })],
  ['resolve_path', () => ({ path: '.' })],
  ['get_workspace_doctor', () => ({})],
  ['fix_workspace_doctor', () => ({})],
  ['get_workspace', () => ({})],
  ['get_storage', () => ({})],
  ['get_card_state_status', () => ({})],
  ['get_auth', () => ({})],
  ['list_forms', () => ({})],
  ['import_cards', () => ({ format: 'csv', data: 'title\nImported\n' })],
  ['get_export', () => ({ format: 'json' })],
  ['list_views', () => ({})],
  ['create_view', () => ({ name: 'Mine', board: 'default' })],
  ['get_view', (m) => ({ id: m.view })],
  ['update_view', (m) => ({ id: m.view, name: 'Ours' })],
  ['delete_view', (m) => ({ id: m.view })],
  ['list_webhooks', () => ({})],
  ['create_webhook', () => ({ url: 'http://127.0.0.1:9/hook', events: ['task.created'] })],
  ['update_webhook', (m) => ({ id: m.webhook, active: false })],
  ['list_webhook_deliveries', (m) => ({ id: m.webhook })],
  ['delete_webhook', (m) => ({ id: m.webhook })],
  ['archive_card', (m) => ({ id: m.card, board: 'ops' })],
  ['restore_card', (m) => ({ id: m.card, board: 'ops' })],
  ['archive_column', () => ({ column: 'done' })],
  ['delete_card', (m) => ({ id: m.card, board: 'ops' })],
  ['delete_card', (m) => ({ id: m.card, board: 'ops', permanent: true })],
  ['delete_board', () => ({ board: 'ops' })],
  ['migrate_to_sqlite_storage', () => ({})],
  // No database listens there: refused, the walk only checks they are tools (test/storage/databaseMigration.test.ts moves cards).
  ['migrate_to_postgres_storage', () => ({ options: { database: 'kanban_walk', host: '127.0.0.1', port: 1 } })],
  ['migrate_to_mysql_storage', () => ({ options: { database: 'kanban_walk', host: '127.0.0.1', port: 1 } })],
  ['migrate_to_markdown_storage', () => ({})],
];

/** The tools agents use all day: each must answer for real, not as isError. */
const EVERYDAY = [
  'list_boards',
  'list_columns',
  'list_cards',
  'get_card',
  'create_card',
  'update_card',
  'move_card',
  'delete_card',
  'transfer_card',
  'add_comment',
  'list_comments',
  'add_log',
  'check_item',
  'add_checklist_item',
  'remove_checklist_item',
  'archive_card',
  'restore_card',
  'archive_column',
  'pick_card',
  'claim_card',
  'release_card',
  'report_progress',
  'get_board_context',
];

/** How many tools must answer structured content that holds to their schema: all but the two the walk cannot set up (a form, a card action). */
const AT_LEAST_VALIDATED = 80;

function remember(made: Made, name: string, data: Args): void {
  if (name === 'create_card') made.card ??= data.id as string;
  if (name === 'add_comment') made.comment = data.id as string;
  if (name === 'create_view') made.view = data.id as string;
  if (name === 'create_webhook') made.webhook = data.id as string;
  if (name === 'list_columns') made.columns = (data.columns as { id: string }[]).map((c) => c.id);
}

describe('MCP structured output: every tool, called for real', function () {
  this.timeout(120_000);
  let mcp: McpSession;
  let tools: Tool[];
  useMcpSession('url', async (opened: { server: TestServer; mcp: McpSession }) => {
    mcp = opened.mcp;
    tools = (await mcp.client.listTools()).tools;
  });

  it('when every tool is listed, then each has a title, an output schema for an object, and the walk below calls it', () => {
    for (const tool of tools) {
      assert.ok(tool.title, `${tool.name} has a title`);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema for an object`);
    }
    const walked = new Set(WALK.map(([name]) => name));
    assert.deepEqual(
      tools.map((t) => t.name).filter((name) => !walked.has(name)),
      [],
      'tools the walk leaves out',
    );
  });

  it('when each tool is called, then every success answers structured content that validates against its output schema', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const byName = new Map(tools.map((t) => [t.name, t]));
    const made: Made = {};
    const validated = new Set<string>();
    const refused = new Map<string, string>();
    const picked: unknown[] = [];
    for (const [name, argsOf] of WALK) {
      const tool = byName.get(name);
      assert.ok(tool, `${name} is listed`);
      let result: CallToolResult;
      try {
        result = (await mcp.client.callTool({ name, arguments: argsOf(made) })) as CallToolResult;
      } catch (error) {
        // The SDK's client refuses structured content that breaks the schema: that is a failure here too.
        assert.fail(`${name} threw: ${(error as Error).message}`);
      }
      if (result.isError) {
        refused.set(name, textOf(result));
        continue;
      }
      assert.ok(result.structuredContent, `${name} answers structured content`);
      assert.ok(textOf(result).length > 0, `${name} answers a text rendering too`);
      const validate = ajv.compile(tool.outputSchema as object);
      assert.ok(
        validate(result.structuredContent),
        `${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(result.structuredContent).slice(0, 500)}`,
      );
      validated.add(name);
      remember(made, name, result.structuredContent as Args);
      if (name === 'pick_card') picked.push((result.structuredContent as { picked: unknown }).picked);
    }
    assert.ok(
      picked.some((card) => card !== null),
      'a pick_card call picked a card',
    );
    assert.doesNotMatch(mcp.stderr(), /outside its output schema/, 'the server checks its answers too');
    const failedEveryday = EVERYDAY.filter((name) => !validated.has(name)).map(
      (name) => `${name}: ${refused.get(name)}`,
    );
    assert.deepEqual(failedEveryday, [], 'everyday tools that did not answer');
    assert.ok(
      validated.size >= AT_LEAST_VALIDATED,
      `${validated.size} tools validated; refused: ${JSON.stringify(Object.fromEntries(refused), null, 1)}`,
    );
  });
});
