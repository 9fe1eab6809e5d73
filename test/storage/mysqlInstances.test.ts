import { strict as assert } from 'node:assert';
import type { InstanceInfo } from '../../server/storage/cardStore';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { configWith } from './helpers/cardProviders';
import { createTestDatabase, mysqlPlugin, type TestDatabase } from './helpers/mysql';

type Instance = InstanceInfo;

const instancesOf = async (server: TestServer): Promise<Instance[]> =>
  okData(await server.api('GET', '/api/workspace')).instances;

describe('card.storage mysql: the instances sharing one database', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  const servers: TestServer[] = [];

  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await database.drop();
  });

  it('when two instances serve one database, then each lists both, itself first; a stopped one leaves the list', async () => {
    const config = configWith({ 'card.storage': mysqlPlugin(database.name) });
    const first = await startTestServer({ config });
    servers.push(first);
    const second = await startTestServer({ config });
    servers.push(second);

    const fromSecond = await instancesOf(second);
    assert.equal(fromSecond.length, 2, JSON.stringify(fromSecond));
    assert.equal(fromSecond[0].self, true);
    assert.equal(fromSecond[1].self, false);
    // The first learns of the second on its next heartbeat.
    const fromFirst = await eventually(async () => {
      const list = await instancesOf(first);
      assert.equal(list.length, 2, 'the first instance sees the second');
      return list;
    }, 20_000);
    assert.equal(fromFirst[0].id, fromSecond[1].id);
    assert.equal(fromFirst[1].id, fromSecond[0].id);
    for (const instance of fromFirst) {
      assert.equal(instance.pid, process.pid);
      assert.ok(instance.host.length > 0);
      assert.ok(Date.parse(instance.lastSeen!) >= Date.parse(instance.started));
    }

    await second.close();
    servers.pop();
    const rows = await database.query('SELECT id FROM kanban_instances');
    assert.deepEqual(
      rows.map((r: { id: string }) => r.id),
      [fromSecond[1].id],
      'a clean stop removes its row at once',
    );
  });

  it('when the workspace is served from files, then it lists this process alone', async () => {
    const server = await startTestServer();
    servers.push(server);
    const [only, ...rest] = await instancesOf(server);
    assert.deepEqual(rest, []);
    assert.equal(only.self, true);
    assert.equal(only.pid, process.pid);
    assert.equal(only.lastSeen, null);
  });
});
