import { migrateToMarkdown, migrateToSqlite } from '../../service/migration';
import { migrateToMysql, migrateToPostgres } from '../../service/databaseMigration';
import { defineRoutes, route } from '../route';
import { MigrateToMysqlBody, MigrateToPostgresBody, MigrateToSqliteBody } from '../../core/shapes/requests/dataMoves';
import { migrationResultSchema } from '../responseSchemas';

const migrationResult =
  'migration result {from, to, sqlitePath, cards, comments, attachments, boards, skipped, source, movedAside}';

/** Moving cards between the built-in stores (Markdown, SQLite, PostgreSQL, MySQL) while the service runs. */
export const storageRoutes = defineRoutes([
  route({
    method: 'post',
    path: '/storage/migrate-to-sqlite',
    tag: 'Workspace',
    summary:
      'Move every card (comments, order, attachment references) from Markdown files to SQLite, all or nothing; the service switches at once and the files stay as a backup',
    body: MigrateToSqliteBody,
    returns: migrationResult,
    errors: [400],
    response: migrationResultSchema,
    handle: ({ ws, body, run }) => migrateToSqlite(ws, body, run),
  }),
  route({
    method: 'post',
    path: '/storage/migrate-to-postgres',
    tag: 'Workspace',
    summary:
      'Move every card, attachment and log into an empty PostgreSQL database, all or nothing; the service switches at once, the source stays as a backup',
    body: MigrateToPostgresBody,
    returns: migrationResult,
    errors: [400],
    response: migrationResultSchema,
    handle: ({ ws, body, run }) => migrateToPostgres(ws, body, run),
  }),
  route({
    method: 'post',
    path: '/storage/migrate-to-mysql',
    tag: 'Workspace',
    summary:
      'Move every card, attachment and log into an empty MySQL database, all or nothing; the service switches at once, the source stays as a backup',
    body: MigrateToMysqlBody,
    returns: migrationResult,
    errors: [400],
    response: migrationResultSchema,
    handle: ({ ws, body, run }) => migrateToMysql(ws, body, run),
  }),
  {
    method: 'post',
    path: '/storage/migrate-to-markdown',
    tag: 'Workspace',
    summary:
      'Move every card back from SQLite to Markdown files, all or nothing; the service switches at once and the database stays as a backup',
    returns: migrationResult,
    errors: [400],
    response: migrationResultSchema,
    handle: ({ ws, run }) => migrateToMarkdown(ws, run),
  },
]);
