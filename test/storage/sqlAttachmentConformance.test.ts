import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AttachmentStore, AttachmentStoreFactory, CardStore } from '../../server/storage/contract';
import { runAttachmentStoreConformance } from '../../server/storage/conformance';
import { builtInCardStoreFactory } from '../../server/storage/providers';
import { createTestDatabase, mysqlPlugin } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin } from './helpers/postgres';
import { makeTempDir } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';

/** The databases under test, and how to drop one the checks' stores created. */
const DATABASES = [
  {
    provider: 'mysql',
    create: createTestDatabase,
    plugin: mysqlPlugin,
    dropSql: (name: string) => `DROP DATABASE IF EXISTS \`${name}\``,
  },
  {
    provider: 'postgres',
    create: createPostgresTestDatabase,
    plugin: postgresPlugin,
    dropSql: (name: string) => `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`,
  },
];

/** The card database's attachment store, which closes its card store with it (it owns the connections). */
function closingItsCardStore(cards: CardStore): AttachmentStore {
  const files = cards.sharedAttachments!();
  return Object.assign(Object.create(files) as AttachmentStore, {
    close: async () => cards.close(),
  });
}

for (const { provider, create, plugin, dropSql } of DATABASES) {
  describe(`attachments in the ${provider} card database: the attachment conformance suite`, function () {
    this.timeout(180_000);
    let database: Awaited<ReturnType<typeof create>>;
    const created: string[] = [];

    before(async () => {
      database = await create();
    });
    after(async () => {
      for (const name of created) await database?.query(dropSql(name));
      await database?.drop();
    });

    it('when the store is checked against the contract, then every check passes', async () => {
      // Each check expects an empty store: one database per check's workspace, created on first use.
      const perWorkspace = new Map<string, string>();
      const factory: AttachmentStoreFactory = async (options, context) => {
        let name = perWorkspace.get(context.root);
        if (!name) {
          name = `${database.name}_${perWorkspace.size}`;
          perWorkspace.set(context.root, name);
          created.push(name);
        }
        return closingItsCardStore(await builtInCardStoreFactory(provider)({ ...options, database: name }, context));
      };
      const { options } = plugin(database.name, { pollIntervalMs: 50 });
      const report = await runAttachmentStoreConformance(factory, { options });
      const failures = report.results.filter((r) => r.status === 'fail').map((r) => `${r.name}: ${r.message}`);
      assert.deepEqual(failures, []);
      assert.equal(report.skipped, 0);
      assert.ok(report.passed > 5, `${report.passed} checks ran`);
    });
  });
}

describe('attachments in the postgres card database: downloads read piece by piece', function () {
  this.timeout(60_000);

  it('when the file is removed after the first piece was sent, then the rest of the download fails instead of having been read ahead', async () => {
    const database = await createPostgresTestDatabase();
    const root = await makeTempDir();
    const cards = await builtInCardStoreFactory('postgres')(postgresPlugin(database.name).options, {
      root,
      kanbanDir: `${root}/.kanban`,
    });
    try {
      const files = cards.sharedAttachments!();
      const card = { boardId: 'default', id: 'streamed' };
      const size = 4 * 1024 * 1024;
      await files.put(card, 'big.bin', randomBytes(size));
      const payload = await files.get(card, 'big.bin');
      const stream = (await payload!.stream!()) as Readable;
      const pieces = stream[Symbol.asyncIterator]();
      const first = await pieces.next();
      assert.equal(first.done, false);
      // A stream reads ahead until its buffer reaches its high-water mark (or holds all that is
      // left), then waits for the reader: once it is there, it has read all it would on its own.
      const rest = size - (first.value as Buffer).length;
      await waitUntil(
        () => stream.readableLength >= Math.min(stream.readableHighWaterMark, rest),
        10_000,
        'the stream to fill its buffer',
      );
      await files.remove(card, 'big.bin');
      await assert.rejects(
        (async () => {
          while (!(await pieces.next()).done);
        })(),
        /replaced or removed during the download/,
      );
    } finally {
      await cards.close();
      await database.drop();
    }
  });
});
