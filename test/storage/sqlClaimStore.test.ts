import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { StoredClaim } from '../../server/core/claims';
import type { StoredSession } from '../../server/core/sessions';
import { MysqlCardStore } from '../../server/storage/mysql/mysqlCardStore';
import { SqliteCardStore } from '../../server/storage/sqlite/sqliteCardStore';
import type { SqlCardStore } from '../../server/storage/sql/sqlCardStore';
import { makeTempDir } from '../helpers/testServer';
import { MYSQL_HOST, MYSQL_PORT, createTestDatabase, type TestDatabase } from './helpers/mysql';
import { PostgresCardStore } from '../../server/storage/postgres/postgresCardStore';
import { POSTGRES_HOST, POSTGRES_PORT, createPostgresTestDatabase } from './helpers/postgres';

const claimOf = (cardId: string, agent: string, ttlSeconds?: number): StoredClaim => {
  const claim: StoredClaim = {
    boardId: 'default',
    cardId,
    agent,
    since: '2026-01-01T00:00:00.000Z',
    until: new Date(Date.now() + 60_000).toISOString(),
  };
  if (ttlSeconds !== undefined) claim.ttlSeconds = ttlSeconds;
  return claim;
};
const sessionOf = (cardId: string, agent: string, note: string | null): StoredSession => ({
  boardId: 'default',
  cardId,
  agent,
  state: 'active',
  note,
  url: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  leaseSeconds: 900,
});

/**
 * The SQL claim store through two card stores over one database, as two instances use it. The
 * polls are left to the test (a long interval, then catchUp), so what is heard is exact.
 */
for (const dialect of ['mysql', 'postgres', 'sqlite'] as const) {
  describe(`sql claim store (${dialect}): two instances over one database`, function () {
    this.timeout(60_000);
    let database: TestDatabase | undefined;
    let dir: string | undefined;
    const stores: SqlCardStore[] = [];

    async function instance(): Promise<SqlCardStore> {
      let store: SqlCardStore;
      if (dialect === 'mysql') {
        database ??= await createTestDatabase();
        store = await MysqlCardStore.open(
          { database: database.name, host: MYSQL_HOST, port: MYSQL_PORT, user: 'root', password: '', ssl: false },
          60_000,
        );
      } else if (dialect === 'postgres') {
        database ??= await createPostgresTestDatabase();
        store = await PostgresCardStore.open(
          {
            database: database.name,
            host: POSTGRES_HOST,
            port: POSTGRES_PORT,
            user: 'postgres',
            password: '',
            ssl: false,
          },
          60_000,
        );
      } else {
        dir ??= await makeTempDir();
        store = await SqliteCardStore.open({ sqlitePath: 'team.db', absolutePath: path.join(dir, 'team.db') }, 60_000);
      }
      stores.push(store);
      return store;
    }

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      await database?.drop();
      if (dir) await fs.rm(dir, { recursive: true, force: true });
      database = dir = undefined;
    });

    it('when one instance writes claims and sessions, then the other reads them back exactly, and removes them', async () => {
      const a = (await instance()).claimStore();
      const b = (await instance()).claimStore();
      const claims = [claimOf('card-1', 'agent-a', 600), claimOf('card-2', 'agent-b')];
      const session = sessionOf('card-1', 'agent-a', 'reading the brief');
      await a.exclusive(async (tx) => {
        for (const claim of claims) await tx.put(claim);
        await tx.putSession(session);
      });
      assert.deepEqual(await b.list(), claims);
      assert.deepEqual(await b.get('default', 'card-2'), claims[1]);
      assert.equal(await b.get('default', 'card-3'), null);
      // The copy in memory compares sessions as JSON: key order matters.
      assert.equal(JSON.stringify(await b.listSessions()), JSON.stringify([session]));
      const renewed = { ...claims[0], until: new Date(Date.now() + 120_000).toISOString() };
      await b.exclusive(async (tx) => {
        assert.deepEqual(await tx.getSession('default', 'card-1'), session);
        await tx.put(renewed);
        await tx.remove('default', 'card-2');
        await tx.removeSession('default', 'card-1');
      });
      assert.deepEqual(await a.list(), [renewed]);
      assert.deepEqual(await a.listSessions(), []);
    });

    it('when another instance changes the claims, then a subscriber hears it on its next poll, and not of its own changes nor of decisions that wrote nothing', async () => {
      const a = (await instance()).claimStore();
      const b = (await instance()).claimStore();
      let heard = 0;
      const stop = a.subscribe(() => heard++);
      await a.catchUp();
      assert.equal(heard, 1, 'the first poll reports, so a subscriber catches up with anything since it loaded');
      await b.exclusive((tx) => tx.put(claimOf('card-1', 'agent-b')));
      await a.catchUp();
      assert.equal(heard, 2, "the other instance's claim");
      await a.exclusive((tx) => tx.put(claimOf('card-2', 'agent-a')));
      await a.catchUp();
      assert.equal(heard, 2, 'its own claim is no news');
      await b.exclusive(async (tx) => {
        await tx.get('default', 'card-1');
        await tx.remove('default', 'nothing-here');
      });
      await a.catchUp();
      assert.equal(heard, 2, 'a decision that wrote nothing');
      await b.exclusive((tx) => tx.putSession(sessionOf('card-1', 'agent-b', null)));
      await a.catchUp();
      assert.equal(heard, 3, "the other instance's session");
      stop();
    });

    if (dialect !== 'sqlite') {
      // Two connections of one process to one SQLite file cannot wait for each other (the driver
      // blocks the thread): SQLite's exclusion is checked with processes (claimsInstances.test.ts).
      it('when 20 decisions run at once through two instances over 10 free cards, then each card is taken once and 10 find nothing', async () => {
        const claimStores = [(await instance()).claimStore(), (await instance()).claimStore()];
        const cards = Array.from({ length: 10 }, (_, i) => `card-${i}`);
        const pick = (agent: string) =>
          claimStores[Number(agent.slice(1)) % 2].exclusive(async (tx) => {
            const taken = new Set((await tx.list()).map((claim) => claim.cardId));
            const free = cards.find((card) => !taken.has(card));
            // Give the other decisions every chance to read the same free card.
            await new Promise((resolve) => setImmediate(resolve));
            if (free) await tx.put(claimOf(free, agent));
            return free ?? null;
          });
        const picked = await Promise.all(Array.from({ length: 20 }, (_, i) => pick(`a${i}`)));
        const taken = picked.filter((card) => card !== null);
        assert.deepEqual([...taken].sort(), [...cards].sort(), JSON.stringify(picked));
        assert.equal(picked.filter((card) => card === null).length, 10);
      });
    }
  });
}
