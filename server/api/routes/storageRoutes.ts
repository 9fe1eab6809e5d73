import { migrateToMarkdown, migrateToSqlite } from '../../service/migration';
import { defineRoutes, route } from '../route';
import { MigrateToSqliteBody } from '../../core/shapes/requests/dataMoves';
import { migrationResultSchema } from '../responseSchemas';

const migrationResult =
  'migration result {from, to, sqlitePath, cards, comments, attachments, boards, skipped, source, movedAside}';

/** Moving cards between the built-in Markdown and SQLite storage while the service runs. */
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
