import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InsufficientStorageError } from '../../server/core/errors';
import { listFiles, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';

async function cardFiles(server: TestServer): Promise<Record<string, string>> {
  const dir = path.join(server.root, '.kanban', 'boards');
  const out: Record<string, string> = {};
  for (const file of await listFiles(dir)) out[file] = await fs.readFile(path.join(dir, file), 'utf8');
  return out;
}

/**
 * All or nothing when a write fails part way, after every check passed (here: the disk fills up at
 * the third card). The store is wrapped in the running server, as a full disk cannot be staged for
 * one file only.
 */
describe('Bulk edits: a write that fails part way puts the changed cards back', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  for (const change of [{ priority: 'critical' }, { status: 'done' }, { archive: true }] as const) {
    it(`when the third write of a bulk ${Object.keys(change)[0]} change fails, then the first two cards are written back as they were and each says so`, async () => {
      const ids: string[] = [];
      for (const title of ['One', 'Two', 'Three']) ids.push((await createTask(server, { title, status: 'todo' })).id);
      const before = await cardFiles(server);
      const store = server.running.workspace.store;
      const update = store.update.bind(store);
      let calls = 0;
      store.update = async (card, previous) => {
        if (++calls === 3) throw new InsufficientStorageError('disk full: could not write the card (test)');
        return update(card, previous);
      };
      const events = await eventsDuring(server, async () => {
        failsWith(await server.api('POST', '/api/tasks/bulk', { ids, change }), 507, /disk full/);
      });
      store.update = update;
      assert.deepEqual(await cardFiles(server), before, 'every card file holds what it held before');
      const rolledBack = events.filter((e) => e.data.rolledBack === true).map((e) => e.data.taskId);
      assert.deepEqual(
        rolledBack,
        [ids[1], ids[0]],
        'the two changed cards are put back, newest first, with an event each',
      );
      const listed = okData<any[]>(await server.api('GET', '/api/tasks?fields=id,status,priority'));
      assert.deepEqual(
        listed.map((t) => [t.id, t.status, t.priority]),
        ids.map((id) => [id, 'todo', 'medium']),
      );
    });
  }
});
