import { createTestDatabase, mysqlPlugin, type TestDatabase } from './mysql';
import { createPostgresTestDatabase, postgresPlugin } from './postgres';

export type CardProviderName = 'markdown' | 'sqlite' | 'mysql' | 'postgres';
export const CARD_PROVIDERS: readonly CardProviderName[] = ['markdown', 'sqlite', 'mysql', 'postgres'];

/** One provider set up for one test: the `plugins` entry for .kanban.json and what to clean up. */
export interface CardProviderSetup {
  plugins: Record<string, unknown>;
  database?: TestDatabase;
  cleanup(): Promise<void>;
}

/**
 * The `card.storage` entry of each provider. Polling is fast by default here so tests that wait for another
 * process's change stay short; null keeps the provider's own default interval.
 */
export async function setUpCardProvider(
  name: CardProviderName,
  pollIntervalMs: number | null = 200,
): Promise<CardProviderSetup> {
  const poll = pollIntervalMs === null ? {} : { pollIntervalMs };
  switch (name) {
    case 'markdown':
      return { plugins: {}, cleanup: async () => undefined };
    case 'sqlite':
      return { plugins: { 'card.storage': { provider: 'sqlite', options: poll } }, cleanup: async () => undefined };
    case 'mysql': {
      const database = await createTestDatabase();
      return {
        plugins: { 'card.storage': mysqlPlugin(database.name, poll) },
        database,
        cleanup: () => database.drop(),
      };
    }
    case 'postgres': {
      const database = await createPostgresTestDatabase();
      return {
        plugins: { 'card.storage': postgresPlugin(database.name, poll) },
        database,
        cleanup: () => database.drop(),
      };
    }
  }
}

/** A version 2 .kanban.json with a second board and the given plugins. */
export function configWith(plugins: Record<string, unknown>): Record<string, unknown> {
  return {
    version: 2,
    defaultBoard: 'default',
    boards: [
      { id: 'default', name: 'Default', columns: standardColumns() },
      {
        id: 'ops',
        name: 'Ops',
        columns: [
          { id: 'inbox', name: 'Inbox' },
          { id: 'doing', name: 'Doing' },
          { id: 'closed', name: 'Closed' },
        ],
      },
    ],
    plugins,
  };
}

function standardColumns() {
  return ['backlog', 'todo', 'in-progress', 'review', 'done'].map((id) => ({ id, name: id }));
}
