import { createPostgresTestDatabase, postgresPlugin } from '../storage/helpers/postgres';
import type { Mounted } from '../helpers/operations';
import { walkEveryRoute } from './helpers/everyRouteWalk';

/** A migration leaves the store the walk is about: these are called last, PostgreSQL's own at the very end. */
const MIGRATIONS_LAST = [
  'POST /storage/migrate-to-sqlite',
  'POST /storage/migrate-to-mysql',
  'POST /storage/migrate-to-markdown',
  'POST /storage/migrate-to-postgres',
];

/**
 * The same walk as over Markdown, on a workspace whose cards (with their attachments, logs,
 * configuration and webhooks) live in a fresh PostgreSQL database. Every route is called while the
 * cards are in PostgreSQL, except the migrations, which leave it and come back into another fresh
 * database; the answers after that come from PostgreSQL again.
 */
walkEveryRoute({
  storageName: 'PostgreSQL',
  storage: async () => {
    const database = await createPostgresTestDatabase();
    return { plugins: { 'card.storage': postgresPlugin(database.name) }, cleanup: () => database.drop() };
  },
  // None today; a route that cannot be called over PostgreSQL is listed here with the reason.
  uncalled: {},
  order: (mounted: readonly Mounted[]) => {
    const rank = (m: Mounted) => MIGRATIONS_LAST.indexOf(m.key);
    return [...mounted].sort((a, b) => rank(a) - rank(b));
  },
});
