import { strict as assert } from 'node:assert';
import type { CardStoreFactory } from '../../server/storage/contract';
import { runCardStoreConformance } from '../../server/storage/conformance';
import { builtInCardStoreFactory } from '../../server/storage/providers';
import { createPostgresTestDatabase, postgresPlugin, type PostgresTestDatabase } from './helpers/postgres';

describe('card.storage postgres: the provider conformance suite', function () {
  this.timeout(180_000);
  let database: PostgresTestDatabase;
  const created: string[] = [];

  before(async () => {
    database = await createPostgresTestDatabase();
  });
  after(async () => {
    for (const name of created) await database?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await database?.drop();
  });

  it('when the built-in postgres provider is checked against the contract, then every check passes', async () => {
    // Each check runs in its own workspace and expects an empty store: one database per workspace,
    // which the provider creates itself on first use (the path of a database that does not exist yet).
    const perWorkspace = new Map<string, string>();
    const factory: CardStoreFactory = (options, context) => {
      let name = perWorkspace.get(context.root);
      if (!name) {
        name = `${database.name}_${perWorkspace.size}`;
        perWorkspace.set(context.root, name);
        created.push(name);
      }
      return builtInCardStoreFactory('postgres')({ ...options, database: name }, context);
    };
    const { options } = postgresPlugin(database.name, { pollIntervalMs: 50 });
    const report = await runCardStoreConformance(factory, { options });
    const failures = report.results.filter((r) => r.status === 'fail').map((r) => `${r.name}: ${r.message}`);
    assert.deepEqual(failures, []);
    assert.equal(report.skipped, 0, 'a shared database provider skips nothing');
  });
});
