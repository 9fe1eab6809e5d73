import type { LabelUsage } from '../service/labels';
import { str, type Command } from './command';
import type { Answer } from './context';
import { dim, keyValues, labelText, plain, table } from './output';
import { runMigration } from './progress';
import { usage, show, type Card } from './commandHelpers';

/** The workspace around the cards: boards, columns, labels, settings, webhooks and storage. */

export const boardsCommand: Command = {
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
        {
          header: 'COLUMNS',
          cell: (b) => (Array.isArray(b.columns) ? b.columns.map((c) => plain((c as Card).id)).join(', ') : ''),
          shrink: true,
        },
      ]),
    );
  },
};

export const columnsCommand: Command = {
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

export const labelsCommand: Command = {
  name: 'labels',
  summary: 'List the labels: the defined ones and those cards carry, with card counts',
  writes: false,
  async run(ctx) {
    // --json stays the definitions map (GET /labels); the table also shows labels only cards carry.
    if (ctx.json) return show(ctx, await ctx.get('/labels'), () => '');
    const answer = await ctx.get<LabelUsage[]>('/labels/usage');
    await show(ctx, answer, () => {
      const rows = answer.data ?? [];
      return rows.length
        ? table(ctx.output, rows, [
            { header: 'LABEL', cell: (l) => labelText(ctx.output, l.name, l.color ?? undefined) },
            { header: 'COLOR', cell: (l) => plain(l.color) },
            { header: 'GROUP', cell: (l) => plain(l.group) },
            { header: 'COUNT', cell: (l) => String(l.cards) },
            { header: 'NOTE', cell: (l) => (l.defined ? '' : dim(ctx.output, 'not defined in .kanban.json')) },
          ])
        : dim(ctx.output, 'no labels defined or used on any card');
    });
  },
};

/** `true`/`false` as booleans, everything else as text: the settings are flags and names. */
function settingValue(text: string): unknown {
  return text === 'true' ? true : text === 'false' ? false : text;
}

export const settingsCommand: Command = {
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
    await show(ctx, answer, () =>
      keyValues(
        ctx.output,
        Object.entries(answer.data ?? {}).map(([k, v]) => [k, plain(v)]),
      ),
    );
  },
};

export const webhooksCommand: Command = {
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

const MIGRATIONS = ['migrate-to-sqlite', 'migrate-to-markdown', 'migrate-to-postgres', 'migrate-to-mysql'] as const;
type Migration = (typeof MIGRATIONS)[number];
const DATABASE_FLAGS = ['database-url', 'host', 'port', 'user', 'database', 'password-env'] as const;

/**
 * The body of a migration into a database: the connection as card.storage options. The password
 * is never a flag (it would stay in the shell history): `--password-env NAME` writes `${NAME}`,
 * which the server reads from its environment, and .kanban.json keeps as the reference.
 */
function databaseBody(parsed: Parameters<Command['run']>[1], action: Migration): Record<string, unknown> | undefined {
  const given = DATABASE_FLAGS.filter((flag) => str(parsed, flag) !== undefined);
  if (action !== 'migrate-to-postgres' && action !== 'migrate-to-mysql') {
    if (given.length) usage(storageCommand, `--${given[0]} goes with migrate-to-postgres or migrate-to-mysql`);
    return undefined;
  }
  const url = str(parsed, 'database-url');
  if (action === 'migrate-to-mysql' && url !== undefined)
    usage(
      storageCommand,
      '--database-url goes with migrate-to-postgres; for MySQL give --host, --port, --user and --database',
    );
  if (url === undefined && str(parsed, 'database') === undefined)
    usage(storageCommand, `${action} needs --database-url or --database`);
  const options: Record<string, unknown> = url === undefined ? {} : { url };
  for (const key of ['host', 'user', 'database'] as const) {
    const value = str(parsed, key);
    if (value !== undefined) options[key] = value;
  }
  const port = str(parsed, 'port');
  if (port !== undefined) {
    if (!/^\d+$/.test(port)) usage(storageCommand, `--port takes a number, not "${port}"`);
    options.port = Number(port);
  }
  const passwordEnv = str(parsed, 'password-env');
  if (passwordEnv !== undefined) options.password = `\${${passwordEnv}}`;
  return { options };
}

export const storageCommand: Command = {
  name: 'storage',
  summary: 'Show the storage providers, or move the cards between Markdown files, SQLite, PostgreSQL and MySQL',
  args: 'status|migrate-to-sqlite|migrate-to-markdown|migrate-to-postgres|migrate-to-mysql',
  subcommands: ['status', ...MIGRATIONS],
  details: [
    'status               active card, attachment, webhook and card-state providers',
    'migrate-to-sqlite    every card into SQLite (--sqlite-path); the source stays as a backup',
    'migrate-to-markdown  every card back into Markdown files; the source stays as a backup',
    'migrate-to-postgres  every card, attachment and log into an empty PostgreSQL database (--database-url, or --host --port --user --database --password-env)',
    'migrate-to-mysql     the same into an empty MySQL database (--host --port --user --database --password-env)',
  ],
  options: {
    'sqlite-path': {
      type: 'string',
      value: '<path>',
      description: 'database file for migrate-to-sqlite, relative to the workspace (default .kanban/kanban.db)',
    },
    'database-url': {
      type: 'string',
      value: '<url>',
      description:
        'postgres://user@host:5432/database for migrate-to-postgres (a password in it lands in .kanban.json)',
    },
    host: {
      type: 'string',
      value: '<host>',
      description: 'database server for migrate-to-postgres/-mysql (default 127.0.0.1)',
    },
    port: { type: 'string', value: '<port>', description: 'database server port (default 5432 or 3306)' },
    user: { type: 'string', value: '<user>', description: 'database user (default postgres or root)' },
    database: { type: 'string', value: '<name>', description: 'database name for migrate-to-postgres/-mysql' },
    'password-env': {
      type: 'string',
      value: '<NAME>',
      description: 'environment variable holding the database password; .kanban.json keeps ${NAME}, not the password',
    },
  },
  positionals: [0, 1],
  writes: (parsed) => (parsed.positionals[0] ?? 'status') !== 'status',
  async run(ctx, parsed) {
    const action = parsed.positionals[0] ?? 'status';
    if (action === 'status') {
      const answer = await ctx.get<Record<string, Record<string, unknown>>>('/storage');
      await show(ctx, answer, () =>
        keyValues(
          ctx.output,
          Object.entries(answer.data ?? {}).map(([k, v]) => [
            k,
            Object.entries(v ?? {})
              .map(([a, b]) => `${a}=${plain(b)}`)
              .join('  '),
          ]),
        ),
      );
      return;
    }
    if (!(MIGRATIONS as readonly string[]).includes(action))
      usage(storageCommand, `unknown storage action "${action}"`);
    const migration = action as Migration;
    const sqlitePath = str(parsed, 'sqlite-path');
    if (sqlitePath !== undefined && migration !== 'migrate-to-sqlite')
      usage(storageCommand, '--sqlite-path goes with migrate-to-sqlite');
    const body = databaseBody(parsed, migration) ?? (sqlitePath === undefined ? undefined : { sqlitePath });
    const answer = await runMigration(ctx, migration, body);
    await show(ctx, answer, () => {
      const r = answer.data as Record<string, unknown>;
      const skipped = Array.isArray(r.skipped) ? r.skipped.length : 0;
      return `moved ${plain(r.cards)} card(s), ${plain(r.comments)} comment(s), ${plain(r.attachments)} attachment(s) from ${plain(r.from)} to ${plain(r.to)}${skipped ? `; ${skipped} unreadable file(s) left where they are` : ''}\nthe source stays as a backup: ${plain(r.source)}`;
    });
  },
};
