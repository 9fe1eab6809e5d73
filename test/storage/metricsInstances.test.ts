import { strict as assert } from 'node:assert';
import { createTask, okData } from '../helpers/envelope';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin } from './helpers/postgres';

const PROVIDERS = [
  { name: 'mysql', create: createTestDatabase, plugin: mysqlPlugin },
  { name: 'postgres', create: createPostgresTestDatabase, plugin: postgresPlugin },
] as const;

for (const provider of PROVIDERS) {
  describe(`flow metrics over ${provider.name}: instances sharing one database`, function () {
    this.timeout(60_000);
    let drop: () => Promise<void>;
    const servers: TestServer[] = [];
    afterEach(async () => {
      for (const server of servers.splice(0)) await server.close();
      await drop?.();
    });

    it("when one instance moves a card after the other read its metrics, then the other's next metrics show the move at the same instant", async () => {
      const database = await provider.create();
      drop = () => database.drop();
      const config = configWith({ 'card.storage': provider.plugin(database.name) });
      const first = await startTestServer({ config });
      servers.push(first);
      const second = await startTestServer({ config });
      servers.push(second);
      okData(await second.api('GET', '/api/metrics'));

      const card = await createTask(first, { title: 'Shared', status: 'in-progress' });
      okData(await first.api('PATCH', `/api/tasks/${card.id}/move`, { status: 'done' }));
      const there = okData(await first.api('GET', '/api/metrics')).cards.find((c: any) => c.id === card.id);
      assert.ok(there.finishedAt);

      const here = await eventually(async () => {
        const mine = okData(await second.api('GET', '/api/metrics')).cards.find((c: any) => c.id === card.id);
        assert.equal(mine?.finishedAt, there.finishedAt);
        return mine;
      }, 20_000);
      assert.deepEqual([here.startedAt, here.cycleTimeMs, here.history], [there.startedAt, there.cycleTimeMs, 'full']);
    });
  });
}
