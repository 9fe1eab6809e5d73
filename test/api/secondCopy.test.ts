import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, listIds, okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';

interface Reported {
  path: string;
  reason: string;
  duplicateOf?: string;
}

async function reported(server: TestServer): Promise<Reported[]> {
  return okData<{ invalidFiles: Reported[] }>(await server.api('GET', '/api/workspace')).invalidFiles;
}

/**
 * An editor that had a card file open when the card moved saves the old path again (Ctrl+S on a
 * tab that shows the file deleted): the same id now lives in two files.
 */
describe('a card file saved again at its old path after a move', () => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('when the old path is recreated with the same id, then it is reported as a second copy and the card exists once', async () => {
    server = await startTestServer();
    const card = await createTask(server, { content: '# Moves away', status: 'todo' });
    const oldFile = cardFile(server, 'default', 'todo', card.id);
    const oldText = await fs.readFile(oldFile, 'utf8');
    okData(await server.api('PATCH', `/api/boards/default/tasks/${card.id}/move`, { status: 'in-progress' }));
    await eventually(async () =>
      assert.equal(
        await fs.access(oldFile).then(
          () => true,
          () => false,
        ),
        false,
      ),
    );

    await fs.writeFile(oldFile, oldText);

    const files = await eventually(async () => {
      const list = await reported(server);
      if (!list.length) throw new Error('not reported yet');
      return list;
    });
    assert.equal(files[0].path, `.kanban/boards/default/todo/${card.id}.md`);
    assert.match(files[0].reason, new RegExp(`second copy of card ${card.id}.*in-progress/${card.id}\\.md`));
    assert.equal(files[0].duplicateOf, `.kanban/boards/default/in-progress/${card.id}.md`);
    assert.deepEqual(await listIds(server), [card.id]);
    const served = okData<{ status: string }>(await server.api('GET', `/api/boards/default/tasks/${card.id}`));
    assert.equal(served.status, 'in-progress');
  });

  it('when the second copy is deleted, then it is no longer reported and the card stays where it moved', async () => {
    server = await startTestServer();
    const card = await createTask(server, { content: '# Moves away', status: 'todo' });
    const oldFile = cardFile(server, 'default', 'todo', card.id);
    const oldText = await fs.readFile(oldFile, 'utf8');
    okData(await server.api('PATCH', `/api/boards/default/tasks/${card.id}/move`, { status: 'in-progress' }));
    await fs.writeFile(oldFile, oldText);
    await eventually(async () => assert.equal((await reported(server)).length, 1));

    await fs.rm(oldFile);

    await eventually(async () => assert.deepEqual(await reported(server), []));
    const served = okData<{ status: string }>(await server.api('GET', `/api/boards/default/tasks/${card.id}`));
    assert.equal(served.status, 'in-progress');
  });
});
