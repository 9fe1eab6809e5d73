import { allRoutes } from '../api/routes';
import { titleOf } from '../core/model';
import type { GitLinks } from '../core/gitLinkModel';
import { flag, list, str, type Command, type OptionSpec, type Parsed } from './command';
import type { Context } from './context';
import { bold, dim, keyValues, labelText, plain, priorityText, table, type Column } from './output';
import {
  cardFlags,
  ID,
  usage,
  enc,
  cardFields,
  contentOf,
  bodyOf,
  withTitle,
  labelColors,
  due,
  show,
  type Card,
} from './commandHelpers';

/** The card commands: list, show, add, edit, move, delete and transfer, over the task routes. */

const listRoute = allRoutes.find((r) => r.method === 'get' && r.path === '/tasks');
const listQueryNames = new Set((listRoute?.query ?? []).map((q) => q.name));

/** The list route's own filters as flags (so new ones appear by themselves), with -q for the search text. */
function listFlags(): Record<string, OptionSpec> {
  const flags: Record<string, OptionSpec> = {};
  for (const param of listRoute?.query ?? []) {
    const name = param.name === 'q' ? 'search' : param.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    flags[name] =
      param.type === 'boolean'
        ? { type: 'boolean', description: param.description }
        : {
            type: 'string',
            ...(param.name === 'q' ? { short: 'q' } : {}),
            value: param.enum ? `<${param.enum.join('|')}>` : param.type === 'integer' ? '<n>' : '<value>',
            description: param.description,
          };
  }
  // `archived=only` reads best as a plain flag.
  flags.archived = { type: 'boolean', description: 'only archived cards' };
  // The claim filters an agent's loop asks for: free cards, and its own.
  flags.unclaimed = { type: 'boolean', description: 'only cards no agent holds (claimed=false)' };
  flags.mine = { type: 'boolean', description: 'only cards your agent (--agent, env KANBAN_AGENT) holds' };
  flags.meta = { type: 'string', multiple: true, value: '<key=value>', description: 'metadata filter' };
  // Paging, projection and order: passed through to the list route.
  flags.limit ??= { type: 'string', value: '<n>', description: 'at most n cards (a page); the rest through --cursor' };
  flags.cursor ??= { type: 'string', value: '<cursor>', description: 'the next page, as the previous page named it' };
  flags.fields ??= { type: 'string', value: '<a,b>', description: 'only these fields of each card, comma-separated' };
  flags.sort ??= {
    type: 'string',
    value: '<key>',
    description: 'position (default), created, modified, due, priority or title; -key for descending',
  };
  return flags;
}

function listQuery(
  command: Command,
  parsed: Parsed,
  agent: string | undefined,
): Record<string, string | string[] | undefined> {
  const query: Record<string, string | string[] | undefined> = {};
  if ([flag(parsed, 'claimed'), flag(parsed, 'unclaimed'), flag(parsed, 'mine')].filter(Boolean).length > 1)
    usage(command, 'choose one of --claimed, --unclaimed and --mine');
  if (flag(parsed, 'unclaimed')) query.claimed = 'false';
  if (flag(parsed, 'mine')) {
    if (agent === undefined)
      usage(command, '--mine lists the cards your agent holds: name it with --agent <name> or env KANBAN_AGENT');
    query.claimedBy = agent;
  }
  for (const param of listRoute?.query ?? []) {
    const name = param.name === 'q' ? 'search' : param.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    const value = parsed.values[name];
    if (value !== undefined)
      query[param.name] = value === true ? (param.name === 'archived' ? 'only' : 'true') : String(value);
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

function cardColumns(
  ctx: Context,
  colors: Record<string, { color?: string }>,
  fields: string[] | null,
): Column<Card>[] {
  const o = ctx.output;
  const standard: Record<string, Column<Card>> = {
    id: { header: 'ID', cell: (c) => plain(c.id) },
    status: { header: 'STATUS', cell: (c) => plain(c.status) },
    priority: { header: 'PRIORITY', cell: (c) => priorityText(o, c.priority) },
    title: { header: 'TITLE', cell: (c) => plain(c.title), shrink: true },
    assignee: { header: 'ASSIGNEE', cell: (c) => plain(c.assignee) },
    labels: {
      header: 'LABELS',
      cell: (c) =>
        Array.isArray(c.labels)
          ? c.labels.map((l) => labelText(o, String(l), colors[String(l)]?.color)).join(', ')
          : '',
    },
    dueDate: { header: 'DUE', cell: (c) => due(c.dueDate) },
  };
  // Shown when --fields asks for them: compact forms of the checklist and dependency fields.
  const extra: Record<string, Column<Card>> = {
    checklist: {
      header: 'CHECKLIST',
      cell: (c) => (c.checklist ? `${(c.checklist as Card).done}/${(c.checklist as Card).total}` : ''),
    },
    blocked: { header: 'BLOCKED', cell: (c) => (c.blocked ? 'yes' : '') },
    blockedBy: { header: 'BLOCKED BY', cell: (c) => (Array.isArray(c.blockedBy) ? c.blockedBy.join(', ') : '') },
    blocks: { header: 'BLOCKS', cell: (c) => (Array.isArray(c.blocks) ? c.blocks.join(', ') : '') },
  };
  if (!fields) return Object.values(standard);
  return fields.map(
    (field) => standard[field] ?? extra[field] ?? { header: field.toUpperCase(), cell: (c: Card) => plain(c[field]) },
  );
}

export const listCommand: Command = {
  name: 'list',
  summary: 'List cards of a board, filtered, searched and paged',
  options: listFlags(),
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<Card[]>(ctx.boardPath('/tasks'), listQuery(listCommand, parsed, ctx.agent));
    await show(ctx, answer, async () => {
      const cards = answer.data ?? [];
      const fields =
        str(parsed, 'fields')
          ?.split(',')
          .map((f) => f.trim())
          .filter(Boolean) ?? null;
      const lines: string[] = [];
      if (cards.length) lines.push(table(ctx.output, cards, cardColumns(ctx, await labelColors(ctx), fields)));
      const page = answer.page;
      // "N of TOTAL" only when the list is cut: a whole list just says how many.
      if (page && (page.nextCursor || page.total !== cards.length)) {
        lines.push(
          dim(
            ctx.output,
            `${cards.length} of ${page.total} card(s)${page.nextCursor ? `; next page: --cursor ${page.nextCursor}` : ''}`,
          ),
        );
      } else lines.push(dim(ctx.output, cards.length ? `${cards.length} card(s)` : 'no cards'));
      return lines.join('\n');
    });
  },
};

export const showCommand: Command = {
  name: 'show',
  summary: 'Show one card: fields, text and comments (partial ids work)',
  args: ID,
  positionals: [1, 1],
  writes: false,
  async run(ctx, parsed) {
    const answer = await ctx.get<Card>(ctx.boardPath(`/tasks/${enc(parsed.positionals[0])}`));
    await show(ctx, answer, () => cardDetails(ctx, answer.data));
  },
};

/** A card as `kanban show` prints it: title, fields, text, git links and comments. */
export async function cardDetails(ctx: Context, card: Card): Promise<string> {
  const o = ctx.output;
  const colors = await labelColors(ctx);
  const pairs: [string, string][] = [
    ['id', plain(card.id)],
    ['board', plain(card.boardId)],
    ['status', plain(card.status)],
    ['priority', priorityText(o, card.priority)],
  ];
  if (card.assignee) pairs.push(['assignee', plain(card.assignee)]);
  if (card.dueDate) pairs.push(['due', plain(card.dueDate)]);
  if (Array.isArray(card.labels) && card.labels.length)
    pairs.push(['labels', card.labels.map((l) => labelText(o, String(l), colors[String(l)]?.color)).join(', ')]);
  if (card.metadata && Object.keys(card.metadata).length) pairs.push(['metadata', JSON.stringify(card.metadata)]);
  if (Array.isArray(card.attachments) && card.attachments.length)
    pairs.push(['attachments', card.attachments.join(', ')]);
  const checklist = card.checklist as { done: number; total: number } | null;
  if (checklist)
    pairs.push(['checklist', `${checklist.done}/${checklist.total} done (kanban checklist ${plain(card.id)})`]);
  if (Array.isArray(card.blockedBy) && card.blockedBy.length)
    pairs.push(['blocked by', `${card.blockedBy.join(', ')}${card.blocked ? ' (waiting)' : ' (all done)'}`]);
  if (Array.isArray(card.blocks) && card.blocks.length) pairs.push(['blocks', card.blocks.join(', ')]);
  pairs.push(...linkPairs(card));
  const claim = card.claim as { agent: string; until: string } | null | undefined;
  if (claim) pairs.push(['claimed by', `${plain(claim.agent)} until ${plain(claim.until)}`]);
  const session = card.session as
    | { agent: string; state: string; note: string | null; url: string | null; updatedAt: string; stale: boolean }
    | null
    | undefined;
  if (session) {
    const said = [session.note, session.url]
      .filter((part): part is string => !!part)
      .map(plain)
      .join(' ');
    pairs.push([
      'agent',
      `${plain(session.agent)}: ${plain(session.state)}${said ? ` - ${said}` : ''} (${session.stale ? 'stale, ' : ''}at ${plain(session.updatedAt)})`,
    ]);
  }
  pairs.push(['created', plain(card.created)], ['modified', plain(card.modified)]);
  const lines = [bold(o, plain(card.title)), '', keyValues(o, pairs)];
  const text = bodyOf(plain(card.content));
  if (text) lines.push('', text);
  const git = await gitLinksOf(ctx, String(card.id));
  if (git.length) lines.push('', bold(o, 'git:'), ...git);
  const comments = Array.isArray(card.comments) ? (card.comments as Card[]) : [];
  if (comments.length) {
    lines.push('', bold(o, `comments (${comments.length})`));
    for (const c of comments)
      lines.push(
        `${dim(o, `${plain(c.created)} ${plain(c.author)} [${plain(c.id)}]`)}`,
        plain(c.content).replace(/\s+$/, ''),
        '',
      );
  }
  return lines.join('\n').replace(/\n+$/, '');
}

/** Parent, sub-cards and relations, as `kanban show` lists them (only those set). */
function linkPairs(card: Card): [string, string][] {
  const pairs: [string, string][] = [];
  if (typeof card.parent === 'string') pairs.push(['parent', plain(card.parent)]);
  const children = card.children as { total: number; done: number } | undefined;
  if (children?.total)
    pairs.push(['sub-cards', `${children.done}/${children.total} done (kanban tree ${plain(card.id)})`]);
  const lists: [string, unknown][] = [
    ['related', card.related],
    ['duplicate of', card.duplicateOf],
    ['duplicates', card.duplicates],
  ];
  for (const [name, ids] of lists)
    if (Array.isArray(ids) && ids.length) pairs.push([name, ids.map((id) => plain(id)).join(', ')]);
  return pairs;
}

/**
 * The card's branches (with ahead/behind the current branch) and linked commits (short sha and
 * subject), one line each; none when git has nothing, or when the server is one without the route.
 */
async function gitLinksOf(ctx: Context, id: string): Promise<string[]> {
  const links = await ctx.get<GitLinks>(ctx.boardPath(`/tasks/${enc(id)}/git`)).then(
    (answer) => answer.data,
    () => null,
  );
  if (!links) return [];
  const o = ctx.output;
  return [
    ...links.branches.map((b) => `  branch ${plain(b.name)} ${dim(o, `(${b.ahead} ahead, ${b.behind} behind)`)}`),
    ...links.commits.map((c) => `  commit ${dim(o, c.sha.slice(0, 7))} ${plain(c.subject)}`),
  ];
}

export const addCommand: Command = {
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

export const editCommand: Command = {
  name: 'edit',
  summary: 'Change a card; omitted fields keep their values',
  args: ID,
  options: {
    title: { type: 'string', value: '<title>', description: 'new title (the first # heading)' },
    ...cardFlags,
    meta: { ...cardFlags.meta, description: 'metadata to set; other keys are kept' },
  },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const flags = ['title', ...Object.keys(cardFlags)];
    if (!flags.some((name) => parsed.values[name] !== undefined))
      usage(editCommand, `nothing to change: give at least one of ${flags.map((name) => `--${name}`).join(', ')}`);
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
    const answer = await ctx.call<Card>('PUT', ctx.boardPath(`/tasks/${enc(plain(card.id))}`), {
      body,
      ifMatch: current.etag,
    });
    await show(ctx, answer, () => `updated ${bold(ctx.output, plain(answer.data.id))}`);
  },
};

function position(command: Command, parsed: Parsed): number | undefined {
  const text = str(parsed, 'position');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n))
    usage(command, `--position must be a whole number from 0, not "${text}"`);
  return n;
}

export const moveCommand: Command = {
  name: 'move',
  summary: 'Move a card to a column (at the top, or at --position)',
  args: `${ID} <status>`,
  options: {
    position: { type: 'string', value: '<n>', description: 'zero-based place in the column (default 0, the top)' },
  },
  positionals: [2, 2],
  writes: true,
  async run(ctx, parsed) {
    const [id, status] = parsed.positionals;
    const at = position(moveCommand, parsed);
    const answer = await ctx.call<Card>('PATCH', ctx.boardPath(`/tasks/${enc(id)}/move`), {
      body: { status, ...(at === undefined ? {} : { position: at }) },
    });
    await show(ctx, answer, () => `moved ${bold(ctx.output, plain(answer.data.id))} to ${plain(answer.data.status)}`);
  },
};

export const deleteCommand: Command = {
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

export const transferCommand: Command = {
  name: 'transfer',
  summary: 'Move a card to another board',
  args: ID,
  options: {
    to: { type: 'string', value: '<board>', description: 'destination board (required)' },
    status: { type: 'string', value: '<column>', description: 'column on the destination board' },
  },
  positionals: [1, 1],
  writes: true,
  async run(ctx, parsed) {
    const to = str(parsed, 'to');
    if (!to) usage(transferCommand, 'transfer needs --to <board>');
    const status = str(parsed, 'status');
    const answer = await ctx.call<Card>('POST', `/boards/${enc(to)}/tasks/${enc(parsed.positionals[0])}/transfer`, {
      body: status === undefined ? {} : { targetStatus: status },
    });
    await show(
      ctx,
      answer,
      () =>
        `transferred ${bold(ctx.output, plain(answer.data.id))} to ${plain(answer.data.boardId)} (${plain(answer.data.status)})`,
    );
  },
};
