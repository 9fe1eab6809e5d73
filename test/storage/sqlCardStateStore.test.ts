import { strict as assert } from 'node:assert';
import { MysqlCardStore } from '../../server/storage/mysql/mysqlCardStore';
import type { SqlCardStateStore } from '../../server/storage/sql/sqlCardStateStore';
import { SequenceFloor } from '../../server/storage/sql/sequenceFloor';
import type { CardStateChange } from '../../server/storage/cardStateStore';
import { MYSQL_HOST, MYSQL_PORT, createTestDatabase, type TestDatabase } from './helpers/mysql';
import { PostgresCardStore } from '../../server/storage/postgres/postgresCardStore';
import { POSTGRES_HOST, POSTGRES_PORT, createPostgresTestDatabase } from './helpers/postgres';
import type { SqlCardStore } from '../../server/storage/sql/sqlCardStore';

type SharedStore = SqlCardStore & { sharedCardState(): SqlCardStateStore };

/** The shared databases the store runs over (the upsert that merges fields is said differently in each). */
const DATABASES = [
  {
    provider: 'mysql',
    create: createTestDatabase,
    open: (name: string): Promise<SharedStore> =>
      MysqlCardStore.open(
        { database: name, host: MYSQL_HOST, port: MYSQL_PORT, user: 'root', password: '', ssl: false },
        60_000,
      ),
  },
  {
    provider: 'postgres',
    create: createPostgresTestDatabase,
    open: (name: string): Promise<SharedStore> =>
      PostgresCardStore.open(
        { database: name, host: POSTGRES_HOST, port: POSTGRES_PORT, user: 'postgres', password: '', ssl: false },
        60_000,
      ),
  },
] as const;

for (const { provider, create, open } of DATABASES)
  describe(`${provider} card state store: two instances over one database`, function () {
    this.timeout(30_000);
    let database: TestDatabase;
    const cardStores: SharedStore[] = [];

    beforeEach(async () => {
      database = await create();
    });
    afterEach(async () => {
      for (const store of cardStores.splice(0)) await store.close();
      await database.drop();
    });

    /** One instance's card state store, loaded and followed, with what it was told. */
    async function instance(): Promise<{ state: SqlCardStateStore; heard: CardStateChange[] }> {
      const cards = await open(database.name);
      cardStores.push(cards);
      const state = cards.sharedCardState();
      await state.loadAll();
      const heard: CardStateChange[] = [];
      state.follow((change) => heard.push(change));
      return { state, heard };
    }

    it('when the same actor changes different fields through two instances, then neither change is lost and both instances hear the merged record', async () => {
      const a = await instance();
      const b = await instance();
      const base = { boardId: 'default', cardId: 'card-1', actor: 'bob' };
      await a.state.save({ ...base, readThrough: '2026-01-01T00:00:00.000Z' }, ['readThrough']);
      // b has not heard of a's read yet: its record holds only the activity.
      await b.state.save({ ...base, lastActivityAt: '2026-01-02T00:00:00.000Z' }, ['lastActivityAt']);
      const merged = { ...base, readThrough: '2026-01-01T00:00:00.000Z', lastActivityAt: '2026-01-02T00:00:00.000Z' };
      assert.deepEqual(
        b.heard.at(-1),
        { kind: 'record', record: merged },
        "the writer hears the row merged with the other instance's field",
      );
      await a.state.poll();
      assert.deepEqual(a.heard.at(-1), { kind: 'record', record: merged });
      // Activity only moves forward: an older stamp written later does not go back.
      await a.state.save({ ...base, lastActivityAt: '2025-12-31T00:00:00.000Z' }, ['lastActivityAt']);
      const [row] = await database.query(
        'SELECT last_activity_at FROM kanban_card_state WHERE card_id = ? AND actor = ?',
        ['card-1', 'bob'],
      );
      assert.equal(row.last_activity_at, '2026-01-02T00:00:00.000Z');
    });

    it('when a card is deleted through one instance, then the other hears its records removed and a later load has none', async () => {
      const a = await instance();
      const b = await instance();
      await a.state.save({ boardId: 'default', cardId: 'gone', actor: 'alice', openedAt: '2026-01-01T00:00:00.000Z' });
      await b.state.poll();
      assert.equal(b.heard.at(-1)?.kind, 'record');
      await a.state.removeCard('default', 'gone');
      await b.state.poll();
      assert.deepEqual(b.heard.at(-1), { kind: 'removeCard', cardId: 'gone' });
      assert.deepEqual(await b.state.loadAll(), []);
    });

    it('when a poll repeats, then nothing already heard is reported again', async () => {
      const a = await instance();
      const b = await instance();
      await a.state.save({ boardId: 'default', cardId: 'c', actor: 'alice', readThrough: '2026-01-01T00:00:00.000Z' });
      await b.state.poll();
      const count = b.heard.length;
      await b.state.poll();
      await b.state.poll();
      assert.equal(b.heard.length, count);
    });
  });

describe('sequence floor of a polled auto-increment log', () => {
  it('when a number arrives late, then it is still taken once, and the floor waits for it', () => {
    const floor = new SequenceFloor(10);
    assert.equal(floor.take(12), true);
    floor.advance(1000);
    assert.equal(floor.floor, 10, 'waits for 11');
    assert.equal(floor.take(11), true);
    assert.equal(floor.take(12), false, 'already handled');
    floor.advance(1000);
    assert.equal(floor.floor, 12);
  });

  it('when numbers never come (rolled back), then the floor steps over them after the patience', () => {
    const floor = new SequenceFloor(0);
    floor.take(4);
    floor.advance(0);
    assert.equal(floor.floor, 0);
    floor.advance(20_000);
    assert.equal(floor.floor, 4);
    assert.equal(floor.take(2), false, 'a number below the floor counts as handled');
  });
});
