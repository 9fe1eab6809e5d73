import { Type, type Static } from '@sinclair/typebox';
import { choice, closed, flag, text } from '../parts';

/** Request bodies that move data in bulk: an import from another tool, a change of card storage. */

export const IMPORT_FORMATS = [
  'github',
  'trello',
  'csv',
  'kanban-lite',
  'backlog-md',
  'kanban-md',
  'vibe-kanban',
  'obsidian-kanban',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The body of `POST /import`, and what `kanban import` sends. */
export const ImportBody = closed({
  format: choice(IMPORT_FORMATS, 'what data is'),
  data: Type.Unsafe<unknown>({
    description:
      'github: the JSON array of `gh issue list --json number,title,body,labels,assignees,state,milestone,createdAt`; trello: the board JSON export; ' +
      'csv: the CSV text with a header row; kanban-lite: {"files": [{"path", "content"}]}, its .kanban.json and .kanban/**/*.md (the server never reads a path you send); ' +
      'backlog-md and kanban-md: {"files": [...]} likewise, paths relative to the backlog/ or kanban/ folder; vibe-kanban: its tasks JSON; obsidian-kanban: the board note as text',
    oneOf: [{ type: 'string' }, { type: 'array' }, { type: 'object', additionalProperties: true }],
  }),
  board: Type.Optional(text('board to import into; default: the default board')),
  apply: Type.Optional(flag('create the cards; without it (default), a dry run that only says what would be created')),
  source: Type.Optional(
    text('names the source in importedFrom: owner/repo for a GitHub export without url fields, the file name for CSV'),
  ),
});
export type ImportBody = Static<typeof ImportBody>;

export const MigrateToSqliteBody = closed({
  sqlitePath: Type.Optional(text('database file relative to the workspace root; default .kanban/kanban.db')),
});
export type MigrateToSqliteBody = Static<typeof MigrateToSqliteBody>;

// Short descriptions: every MCP session of the admin toolset is sent them (test/mcp/toolsets.test.ts).
const connectionParts = {
  host: Type.Optional(text('default 127.0.0.1')),
  port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  user: Type.Optional(Type.String()),
  password: Type.Optional(text('${NAME}: taken from the environment, kept out of .kanban.json')),
  database: Type.Optional(text('required without url')),
  ssl: Type.Optional(flag('TLS')),
};
const written = 'card.storage options, written to .kanban.json as given';

/** The body of `POST /storage/migrate-to-postgres`: the connection, as card.storage options name it. */
export const MigrateToPostgresBody = closed({
  options: closed(
    {
      url: Type.Optional(text('postgres://user:password@host:5432/database, instead of the parts')),
      ...connectionParts,
    },
    { description: written },
  ),
});
export type MigrateToPostgresBody = Static<typeof MigrateToPostgresBody>;

/** The body of `POST /storage/migrate-to-mysql`. */
export const MigrateToMysqlBody = closed({ options: closed(connectionParts, { description: written }) });
export type MigrateToMysqlBody = Static<typeof MigrateToMysqlBody>;
