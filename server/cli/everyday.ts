import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allRoutes } from '../api/routes';
import { titleOf } from '../core/model';
import { flag, helpFor, list, str, type Command, type OptionSpec, type Parsed } from './command';
import type { Answer, Context } from './context';
import { bold, dim, keyValues, labelText, plain, priorityText, table, type Column } from './output';
import { runMigration } from './progress';
import { CliError, UsageError } from './usage';
import { archiveCommand, restoreCommand } from './archiveCommands';
import { bulkCommand } from './bulkCommand';

/** The hand-written commands: positional arguments, friendly flags and tables over the same routes. */

const cardFlags: Record<string, OptionSpec> = {
  body: { type: 'string', value: '<markdown>', description: 'the card text under its title' },
  status: { type: 'string', value: '<column>', description: 'column id' },
  priority: { type: 'string', value: '<p>', description: 'critical, high, medium or low' },
  assignee: { type: 'string', value: '<name>', description: 'who does it ("" for nobody)' },
  due: { type: 'string', value: '<date>', description: 'due date, ISO 8601 ("" for none)' },
  label: { type: 'string', multiple: true, value: '<a,b>', description: 'labels, comma-separated (replaces the card\'s labels)' },
  meta: { type: 'string', multiple: true, value: '<key=value>', description: 'metadata; a dotted key (links.jira=X) sets a nested value' },
  'blocked-by': { type: 'string', multiple: true, value: '<id,id>', description: 'cards (any board, partial ids work) this one waits for; replaces the list ("" for none)' },
};

const ID = '<id>';

function usage(command: Command, message: string): never {
  throw new UsageError(message, helpFor(command));
}

const enc = encodeURIComponent;

/** `key=value` pairs into a metadata object; dotted keys nest. */
function metaPairs(command: Command, pairs: string[], into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) usage(command, `--meta takes key=value, not "${pair}"`);
    const keys = pair.slice(0, at).split('.');
    let target = into;
    for (const key of keys.slice(0, -1)) {
      const next = target[key];
      target = target[key] = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
    }
    target[keys[keys.length - 1]] = pair.slice(at + 1);
  }
  return into;
}

function labels(parsed: Parsed): string[] {
  return list(parsed, 'label').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/** The card fields the add/edit flags set (title and body aside). */
function cardFields(command: Command, parsed: Parsed, metadata?: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const status = str(parsed, 'status');
  const priority = str(parsed, 'priority');
  const assignee = str(parsed, 'assignee');
  const due = str(parsed, 'due');
  if (status !== undefined) fields.status = status;
  if (priority !== undefined) fields.priority = priority;
  if (assignee !== undefined) fields.assignee = assignee === '' ? null : assignee;
  if (due !== undefined) fields.dueDate = due === '' ? null : due;
  if (parsed.values.label !== undefined) fields.labels = labels(parsed);
  if (parsed.values.meta !== undefined) fields.metadata = metaPairs(command, list(parsed, 'meta'), metadata ? { ...metadata } : {});
  if (parsed.values['blocked-by'] !== undefined) fields.blockedBy = list(parsed, 'blocked-by').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return fields;
}

function contentOf(title: string, body: string | undefined): string {
  return body ? `# ${title}\n\n${body.replace(/\n*$/, '')}\n` : `# ${title}\n`;
}

/** The card text without its first `#` heading (what --body sets). */
function bodyOf(content: string): string {
  return content.replace(/^#[ \t]+.*(\r?\n)?/m, '').replace(/^\s*\n/, '').replace(/\s+$/, '');
}

function withTitle(content: string, title: string): string {
  return /^#[ \t]+.*$/m.test(content) ? content.replace(/^#[ \t]+.*$/m, `# ${title}`) : `# ${title}\n\n${content}`;
}

async function labelColors(ctx: Context): Promise<Record<string, { color?: string }>> {
  if (!ctx.output.color) return {};
  return (await ctx.get<Record<string, { color?: string }>>('/labels').catch(() => ({ data: {} }))).data ?? {};
}

function due(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 10) : '';
}

/** Print `data` as JSON under --json, else as the human form. */
function show(ctx: Context, answer: Answer, human: () => string | Promise<string>): Promise<void> | void {
  if (ctx.json) return ctx.printJson(answer);
  return Promise.resolve(human()).then((text) => ctx.output.out(text));
}

const listRoute = allRoutes.find((r) => r.method === 'get' && r.path === '/tasks');
const listQueryNames = new Set((listRoute?.query ?? []).map((q) => q.name));

/** The list route's own filters as flags (so new ones appear by themselves), with -q for the search text. */
function listFlags(): Record<string, OptionSpec> {
  const flags: Record<string, OptionSpec> = {};
  for (const param of listRoute?.query ?? []) {
    const name = param.name === 'q' ? 'search' : param.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    flags[name] = param.type === 'boolean'
      ? { type: 'boolean', description: param.description }
      : { type: 'string', ...(param.name === 'q' ? { short: 'q' } : {}), value: param.enum ? `<${param.enum.join('|')}>` : param.type === 'integer' ? '<n>' : '<value>', description: param.description };
  }
  // `archived=only` reads best as a plain flag.
  flags.archived = { type: 'boolean', description: 'only archived cards' };
  flags.meta = { type: 'string', multiple: true, value: '<key=value>', description: 'metadata filter' };
  // Paging, projection and order: passed through to the list route.
  flags.limit ??= { type: 'string', value: '<n>', description: 'at most n cards (a page); the rest through --cursor' };
  flags.cursor ??= { type: 'string', value: '<cursor>', description: 'the next page, as the previous page named it' };
  flags.fields ??= { type: 'string', value: '<a,b>', description: 'only these fields of each card, comma-separated' };
  flags.sort ??= { type: 'string', value: '<key>', description: 'position (default), created, modified, due, priority or title; -key for descending' };
  return flags;
}

function listQuery(command: Command, parsed: Parsed): Record<string, string | string[] | undefined> {
  const query: Record<string, string | string[] | undefined> = {};
  for (const param of listRoute?.query ?? []) {
    const name = param.name === 'q' ? 'search' : param.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    const value = parsed.values[name];
    if (value !== undefined) query[param.name] = value === true ? (param.name === 'archived' ? 'only' : 'true') : String(value);
  }
  for (const name of ['limit', 'cursor', 'fields', 'sort']) {
    if (listQueryNames.has(name)) continue;
    const value = str(parsed, name);
    if (value !== undefined) query[name] = value;
  }
  for (const pair of list(parsed, 'meta')) {
    const at = pair.indexOf('=');
    if (at <= 0) usage(command, `--meta takes key=value, not "${pair}"`);
    query[`meta.${pair.slice(0, at)}`] = pair.slice(at + 1);
  }
  return query;
}

type Card = Record<string, unknown>;

function cardColumns(ctx: Context, colors: Record<string, { color?: string }>, fields: string[] | null): Column<Card>[] {
  const o = ctx.output;
  const standard: Record<string, Column<Card>> = {
    id: { header: 'ID', cell: (c) => plain(c.id) },
    status: { header: 'STATUS', cell: (c) => plain(c.status) },
    priority: { header: 'PRIORITY', cell: (c) => priorityText(o, c.priority) },
    title: { header: 'TITLE', cell: (c) => plain(c.title), shrink: true },
    assignee: { header: 'ASSIGNEE', cell: (c) => plain(c.assignee) },
    labels: { header: 'LABELS', cell: (c) => (Array.isArray(c.labels) ? c.labels.map((l) => labelText(o, String(l), colors[String(l)]?.color)).join(', ') : '') },
    dueDate: { header: 'DUE', cell: (c) => due(c.dueDate) },
  };
  // Shown when --fields asks for them: compact forms of the checklist and dependency fields.
  const extra: Record<string, Column<Card>> = {
    checklist: { header: 'CHECKLIST', cell: (c) => (c.checklist ? `${(c.checklist as Card).done}/${(c.checklist as Card).total}` : '') },
    blocked: { header: 'BLOCKED', cell: (c) => (c.blocked ? 'yes' : '') },
    blockedBy: { header: 'BLOCKED BY', cell: (c) => (Array.isArray(c.blockedBy) ? c.blockedBy.join(', ') : '') },
    blocks: { header: 'BLOCKS', cell: (c) => (Array.isArray(c.blocks) ? c.blocks.join(', ') : '') },
  };
  if (!fields) return Object.values(standard);
  return fields.map((field) => standard[field] ?? extra[field] ?? { header: field.toUpperCase(), cell: (c: Card) => plain(c[field]) });
}

const listCommand: Command = {
  name: 'list',
  summary: 'List cards of a board, filtered, searched and paged',
  options: listFlags(),
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<Card[]>(ctx.boardPath('/tasks'), listQuery(listCommand, parsed));
    await show(ctx, answer, async () => {
      const cards = answer.data ?? [];
      const fields = str(parsed, 'fields')?.split(',').map((f) => f.trim()).filter(Boolean) ?? null;
      const lines: string[] = [];
      if (cards.length) lines.push(table(ctx.output, cards, cardColumns(ctx, await labelColors(ctx), fields)));
      const page = answer.page;
      // "N of TOTAL" only when the list is cut: a whole list just says how many.
      if (page && (page.nextCursor || page.total !== cards.length)) {
        lines.push(dim(ctx.output, `${cards.length} of ${page.total} card(s)${page.nextCursor ? `; next page: --cursor ${page.nextCursor}` : ''}`));
      } else lines.push(dim(ctx.output, cards.length ? `${cards.length} card(s)` : 'no cards'));
      return lines.join('\n');
    });
  },
};

const showCommand: Command = {
  name: 'show',
  summary: 'Show one card: fields, text and comments (partial ids work)',
  args: ID,
  positionals: [1, 1],
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<Card>(ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}`));
    await show(ctx, answer, async () => {
      const o = ctx.output;
      const card = answer.data;
      const colors = await labelColors(ctx);
      const pairs: [string, string][] = [
        ['id', plain(card.id)],
        ['board', plain(card.boardId)],
        ['status', plain(card.status)],
        ['priority', priorityText(o, card.priority)],
      ];
      if (card.assignee) pairs.push(['assignee', plain(card.assignee)]);
      if (card.dueDate) pairs.push(['due', plain(card.dueDate)]);
      if (Array.isArray(card.labels) && card.labels.length) pairs.push(['labels', card.labels.map((l) => labelText(o, String(l), colors[String(l)]?.color)).join(', ')]);
      if (card.metadata && Object.keys(card.metadata).length) pairs.push(['metadata', JSON.stringify(card.metadata)]);
      if (Array.isArray(card.attachments) && card.attachments.length) pairs.push(['attachments', card.attachments.join(', ')]);
      const checklist = card.checklist as { done: number; total: number } | null;
      if (checklist) pairs.push(['checklist', `${checklist.done}/${checklist.total} done (kanban checklist ${plain(card.id)})`]);
      if (Array.isArray(card.blockedBy) && card.blockedBy.length) pairs.push(['blocked by', `${card.blockedBy.join(', ')}${card.blocked ? ' (waiting)' : ' (all done)'}`]);
      if (Array.isArray(card.blocks) && card.blocks.length) pairs.push(['blocks', card.blocks.join(', ')]);
      pairs.push(['created', plain(card.created)], ['modified', plain(card.modified)]);
      const lines = [bold(o, plain(card.title)), '', keyValues(o, pairs)];
      const text = bodyOf(plain(card.content));
      if (text) lines.push('', text);
      const comments = Array.isArray(card.comments) ? (card.comments as Card[]) : [];
      if (comments.length) {
        lines.push('', bold(o, `comments (${comments.length})`));
        for (const c of comments) lines.push(`${dim(o, `${plain(c.created)} ${plain(c.author)} [${plain(c.id)}]`)}`, plain(c.content).replace(/\s+$/, ''), '');
      }
      return lines.join('\n').replace(/\n+$/, '');
    });
  },
};

const addCommand: Command = {
  name: 'add',
  summary: 'Create a card',
  args: '<title>',
  options: cardFlags,
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const title = parsed.positionals[0].trim();
    if (!title) usage(addCommand, 'the title must not be empty');
    const body = { content: contentOf(title, str(parsed, 'body')), ...cardFields(addCommand, parsed) };
    const answer = await ctx.call<Card>('POST', ctx.boardPath('/tasks'), { body });
    await show(ctx, answer, () => `created ${bold(ctx.output, plain(answer.data.id))} in ${plain(answer.data.status)}`);
  },
};

const editCommand: Command = {
  name: 'edit',
  summary: 'Change a card; omitted fields keep their values',
  args: ID,
  options: { title: { type: 'string', value: '<title>', description: 'new title (the first # heading)' }, ...cardFlags, meta: { ...cardFlags.meta, description: 'metadata to set; other keys are kept' } },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const changes = ['title', 'body', 'status', 'priority', 'assignee', 'due', 'label', 'meta', 'blocked-by'].filter((name) => parsed.values[name] !== undefined);
    if (!changes.length) usage(editCommand, 'nothing to change: give at least one of --title, --body, --status, --priority, --assignee, --due, --label, --meta, --blocked-by');
    const cardPath = ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}`);
    const current = await ctx.get<Card>(cardPath);
    const card = current.data;
    const body: Record<string, unknown> = cardFields(editCommand, parsed, card.metadata as Record<string, unknown>);
    const title = str(parsed, 'title');
    const text = str(parsed, 'body');
    if (title !== undefined || text !== undefined) {
      const content = plain(card.content);
      const newTitle = title?.trim() || titleOf(content);
      body.content = text !== undefined ? contentOf(newTitle, text) : withTitle(content, newTitle);
    }
    // The full id and the version read: a change made meanwhile is refused (412) rather than overwritten.
    const answer = await ctx.call<Card>('PUT', ctx.boardPath(`/tasks/${enc(plain(card.id))}`), { body, ifMatch: current.etag });
    await show(ctx, answer, () => `updated ${bold(ctx.output, plain(answer.data.id))}`);
  },
};

function position(command: Command, parsed: Parsed): number | undefined {
  const text = str(parsed, 'position');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n)) usage(command, `--position must be a whole number from 0, not "${text}"`);
  return n;
}

const moveCommand: Command = {
  name: 'move',
  summary: 'Move a card to a column (at the top, or at --position)',
  args: `${ID} <status>`,
  options: { position: { type: 'string', value: '<n>', description: 'zero-based place in the column (default 0, the top)' } },
  positionals: [2, 2],
  writes: true,
  async run(ctx, parsed) {
    const [id, status] = parsed.positionals;
    const at = position(moveCommand, parsed);
    const answer = await ctx.call<Card>('PATCH', ctx.boardPath(`/tasks/${enc(id)}/move`), { body: { status, ...(at === undefined ? {} : { position: at }) } });
    await show(ctx, answer, () => `moved ${bold(ctx.output, plain(answer.data.id))} to ${plain(answer.data.status)}`);
  },
};

const deleteCommand: Command = {
  name: 'delete',
  summary: 'Delete a card (to the hidden deleted column; --permanent for good)',
  args: ID,
  options: { permanent: { type: 'boolean', description: 'delete the file for good instead' } },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const id = parsed.positionals[0];
    const permanent = flag(parsed, 'permanent');
    const answer = await ctx.call<Card>('DELETE', ctx.boardPath(`/tasks/${enc(id)}${permanent ? '/permanent' : ''}`));
    await show(ctx, answer, () =>
      permanent
        ? `deleted ${bold(ctx.output, plain(answer.data.deleted))} for good`
        : `deleted ${bold(ctx.output, plain(answer.data.id))} (kanban restore ${plain(answer.data.id)} brings it back)`,
    );
  },
};

const transferCommand: Command = {
  name: 'transfer',
  summary: 'Move a card to another board',
  args: ID,
  options: { to: { type: 'string', value: '<board>', description: 'destination board (required)' }, status: { type: 'string', value: '<column>', description: 'column on the destination board' } },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const to = str(parsed, 'to');
    if (!to) usage(transferCommand, 'transfer needs --to <board>');
    const status = str(parsed, 'status');
    const answer = await ctx.call<Card>('POST', `/boards/${enc(to)}/tasks/${enc(parsed.positionals[0])}/transfer`, { body: status === undefined ? {} : { targetStatus: status } });
    await show(ctx, answer, () => `transferred ${bold(ctx.output, plain(answer.data.id))} to ${plain(answer.data.boardId)} (${plain(answer.data.status)})`);
  },
};

function defaultAuthor(env: NodeJS.ProcessEnv): string {
  if (env.KANBAN_AUTHOR) return env.KANBAN_AUTHOR;
  try {
    return os.userInfo().username || 'cli';
  } catch {
    return 'cli';
  }
}

const commentCommand: Command = {
  name: 'comment',
  summary: 'Add a comment to a card',
  args: `${ID} <text>`,
  options: { author: { type: 'string', value: '<name>', description: 'who says it (default: env KANBAN_AUTHOR, else your user name)' } },
  positionals: [2, 2],
  writes: true,
  async run(ctx, parsed) {
    const [id, content] = parsed.positionals;
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(id)}/comments`), { body: { author: str(parsed, 'author') ?? defaultAuthor(ctx.env), content } });
    await show(ctx, answer, () => `commented on ${bold(ctx.output, id)} (${plain(answer.data.id)})`);
  },
};

const commentsCommand: Command = {
  name: 'comments',
  summary: 'List the comments of a card',
  args: ID,
  positionals: [1, 1],
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<Card[]>(ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}/comments`));
    await show(ctx, answer, () =>
      answer.data.length
        ? table(ctx.output, answer.data, [
            { header: 'ID', cell: (c) => plain(c.id) },
            { header: 'AUTHOR', cell: (c) => plain(c.author) },
            { header: 'CREATED', cell: (c) => plain(c.created) },
            { header: 'COMMENT', cell: (c) => plain(c.content).trim(), shrink: true },
          ])
        : dim(ctx.output, 'no comments'),
    );
  },
};

const logCommand: Command = {
  name: 'log',
  summary: 'Append a log entry to a card; without text, show its log',
  args: `${ID} [text]`,
  options: { source: { type: 'string', value: '<name>', description: 'where the entry comes from (default "default")' } },
  positionals: [1, 2],
  writes: (parsed) => parsed.positionals.length > 1,
  async run(ctx, parsed) {
    const [id, text] = parsed.positionals;
    const logPath = ctx.boardPath(`/tasks/${enc(id)}/logs`);
    if (text === undefined) {
      const answer = await ctx.get<Card[]>(logPath);
      await show(ctx, answer, () =>
        answer.data.length
          ? table(ctx.output, answer.data, [
              { header: 'TIME', cell: (e) => plain(e.timestamp) },
              { header: 'SOURCE', cell: (e) => plain(e.source) },
              { header: 'TEXT', cell: (e) => plain(e.text).trim(), shrink: true },
            ])
          : dim(ctx.output, 'no log entries'),
      );
      return;
    }
    const source = str(parsed, 'source');
    const answer = await ctx.call<Card>('POST', logPath, { body: { text, ...(source ? { source } : {}) } });
    await show(ctx, answer, () => `logged on ${bold(ctx.output, id)} at ${plain(answer.data.timestamp)}`);
  },
};

const attachCommand: Command = {
  name: 'attach',
  summary: 'Attach files to a card (all or none are stored)',
  args: `${ID} <file>...`,
  positionals: [2, 1000],
  writes: true,
  async run(ctx, parsed) {
    const [id, ...files] = parsed.positionals;
    const uploads = await Promise.all(
      files.map(async (file) => {
        const data = await fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
          throw new CliError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
        });
        return { name: path.basename(file), data: data.toString('base64') };
      }),
    );
    const answer = await ctx.call<Card>('POST', ctx.boardPath(`/tasks/${enc(id)}/attachments`), { body: { files: uploads } });
    await show(ctx, answer, () => `attached ${uploads.map((u) => u.name).join(', ')} to ${bold(ctx.output, id)}`);
  },
};

const boardsCommand: Command = {
  name: 'boards',
  summary: 'List the boards',
  writes: false,
  async run(ctx) {
    const answer = await ctx.get<Card[]>('/boards');
    await show(ctx, answer, () =>
      table(ctx.output, answer.data, [
        { header: 'ID', cell: (b) => `${plain(b.id)}${b.isDefault ? dim(ctx.output, ' (default)') : ''}` },
        { header: 'NAME', cell: (b) => plain(b.name) },
        { header: 'CARDS', cell: (b) => plain(b.taskCount) },
        { header: 'COLUMNS', cell: (b) => (Array.isArray(b.columns) ? b.columns.map((c) => plain((c as Card).id)).join(', ') : ''), shrink: true },
      ]),
    );
  },
};

const columnsCommand: Command = {
  name: 'columns',
  summary: 'List the columns of a board',
  writes: false,
  async run(ctx) {
    const answer = await ctx.get<Card[]>(ctx.boardPath('/columns'));
    await show(ctx, answer, () =>
      table(ctx.output, answer.data, [
        { header: 'ID', cell: (c) => plain(c.id) },
        { header: 'NAME', cell: (c) => plain(c.name) },
        { header: 'COLOR', cell: (c) => labelText(ctx.output, plain(c.color), plain(c.color)) },
      ]),
    );
  },
};

const labelsCommand: Command = {
  name: 'labels',
  summary: 'List the label definitions',
  writes: false,
  async run(ctx) {
    const answer = await ctx.get<Record<string, { color?: string; group?: string }>>('/labels');
    await show(ctx, answer, () => {
      const rows = Object.entries(answer.data ?? {});
      return rows.length
        ? table(ctx.output, rows, [
            { header: 'LABEL', cell: ([name, def]) => labelText(ctx.output, name, def.color) },
            { header: 'COLOR', cell: ([, def]) => plain(def.color) },
            { header: 'GROUP', cell: ([, def]) => plain(def.group) },
          ])
        : dim(ctx.output, 'no labels defined');
    });
  },
};

/** `true`/`false` as booleans, everything else as text: the settings are flags and names. */
function settingValue(text: string): unknown {
  return text === 'true' ? true : text === 'false' ? false : text;
}

const settingsCommand: Command = {
  name: 'settings',
  summary: 'Show the workspace settings; key=value pairs change them',
  args: '[key=value]...',
  positionals: [0, 100],
  writes: (parsed) => parsed.positionals.length > 0,
  async run(ctx, parsed) {
    let answer: Answer;
    if (parsed.positionals.length) {
      const body: Record<string, unknown> = {};
      for (const pair of parsed.positionals) {
        const at = pair.indexOf('=');
        if (at <= 0) usage(settingsCommand, `settings takes key=value pairs, not "${pair}"`);
        body[pair.slice(0, at)] = settingValue(pair.slice(at + 1));
      }
      answer = await ctx.call('PUT', '/settings', { body });
    } else answer = await ctx.get('/settings');
    await show(ctx, answer, () => keyValues(ctx.output, Object.entries(answer.data ?? {}).map(([k, v]) => [k, plain(v)])));
  },
};

const webhooksCommand: Command = {
  name: 'webhooks',
  summary: 'List the registered webhooks',
  writes: false,
  async run(ctx) {
    const answer = await ctx.get<Card[]>('/webhooks');
    await show(ctx, answer, () =>
      answer.data.length
        ? table(ctx.output, answer.data, [
            { header: 'ID', cell: (w) => plain(w.id) },
            { header: 'URL', cell: (w) => plain(w.url), shrink: true },
            { header: 'EVENTS', cell: (w) => plain(w.events) },
            { header: 'ACTIVE', cell: (w) => plain(w.active) },
          ])
        : dim(ctx.output, 'no webhooks'),
    );
  },
};

const storageCommand: Command = {
  name: 'storage',
  summary: 'Show the storage providers, or move the cards between Markdown files and SQLite',
  args: 'status|migrate-to-sqlite|migrate-to-markdown',
  details: ['status               active card, attachment, webhook and card-state providers', 'migrate-to-sqlite    every card into SQLite (--sqlite-path); the files stay as a backup', 'migrate-to-markdown  every card back into Markdown files; the database stays as a backup'],
  options: { 'sqlite-path': { type: 'string', value: '<path>', description: 'database file for migrate-to-sqlite, relative to the workspace (default .kanban/kanban.db)' } },
  positionals: [0, 1],
  writes: (parsed) => (parsed.positionals[0] ?? 'status') !== 'status',
  async run(ctx, parsed) {
    const action = parsed.positionals[0] ?? 'status';
    if (action === 'status') {
      const answer = await ctx.get<Record<string, Record<string, unknown>>>('/storage');
      await show(ctx, answer, () =>
        keyValues(
          ctx.output,
          Object.entries(answer.data ?? {}).map(([k, v]) => [k, Object.entries(v ?? {}).map(([a, b]) => `${a}=${plain(b)}`).join('  ')]),
        ),
      );
      return;
    }
    if (action !== 'migrate-to-sqlite' && action !== 'migrate-to-markdown') usage(storageCommand, `unknown storage action "${action}"`);
    const sqlitePath = str(parsed, 'sqlite-path');
    if (sqlitePath !== undefined && action !== 'migrate-to-sqlite') usage(storageCommand, '--sqlite-path goes with migrate-to-sqlite');
    const answer = await runMigration(ctx, action, sqlitePath === undefined ? undefined : { sqlitePath });
    await show(ctx, answer, () => {
      const r = answer.data as Record<string, unknown>;
      const skipped = Array.isArray(r.skipped) ? r.skipped.length : 0;
      return `moved ${plain(r.cards)} card(s), ${plain(r.comments)} comment(s), ${plain(r.attachments)} attachment(s) from ${plain(r.from)} to ${plain(r.to)}${skipped ? `; ${skipped} unreadable file(s) left where they are` : ''}\nthe source stays as a backup: ${plain(r.source)}`;
    });
  },
};

export const everydayCommands: Command[] = [
  listCommand,
  showCommand,
  addCommand,
  editCommand,
  moveCommand,
  deleteCommand,
  archiveCommand,
  restoreCommand,
  bulkCommand,
  transferCommand,
  commentCommand,
  commentsCommand,
  logCommand,
  attachCommand,
  boardsCommand,
  columnsCommand,
  labelsCommand,
  settingsCommand,
  webhooksCommand,
  storageCommand,
];
