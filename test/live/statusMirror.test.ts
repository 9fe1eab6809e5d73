import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';

/**
 * A person changes either the frontmatter `status:` or the folder; the card follows at once, and the
 * service rewrites nothing in answer (an editor may hold the file): the file and its frontmatter are
 * brought into line by the card's next write.
 */
describe('file watching: status in the frontmatter and the folder', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  const statusOf = async (id: string) => okData(await server.api('GET', `/api/tasks/${id}`)).status;

  it('when status: is edited by hand, then the card moves at once, its file stays under the editor, and the next write moves the file', async () => {
    const task = await createTask(server, 'Status typed');
    const file = cardFile(server, 'default', 'backlog', task.id);
    const typed = (await fs.readFile(file, 'utf8')).replace(/^status: backlog$/m, 'status: review');
    await fs.writeFile(file, typed);
    await waitUntil(async () => (await statusOf(task.id)) === 'review', 5000, 'the card takes the typed status');
    await server.running.watcher!.settled();
    assert.equal(await fs.readFile(file, 'utf8'), typed, 'the file is neither moved nor rewritten');
    assert.equal(
      okData(await server.api('GET', `/api/tasks/${task.id}`)).filePath,
      `.kanban/boards/default/backlog/${task.id}.md`,
      'the card says where its file is',
    );
    okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }), 200);
    assert.equal(await exists(cardFile(server, 'default', 'review', task.id)), true);
    assert.equal(await exists(file), false);
  });

  it('when a card file is moved to another status folder by hand (git mv), then the card takes that status, the file is not rewritten, and the next write makes the frontmatter say so', async () => {
    const task = await createTask(server, 'Moved with git');
    const from = cardFile(server, 'default', 'backlog', task.id);
    const to = cardFile(server, 'default', 'done', task.id);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.rename(from, to);
    await waitUntil(async () => (await statusOf(task.id)) === 'done', 5000, 'the card takes the folder status');
    await server.running.watcher!.settled();
    assert.match(await fs.readFile(to, 'utf8'), /^status: backlog$/m, 'the file is not rewritten');
    assert.equal(await exists(from), false, 'the file is not moved back');
    okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }), 200);
    assert.match(await fs.readFile(to, 'utf8'), /^status: done$/m);
    await server.restart();
    assert.equal(await statusOf(task.id), 'done', 'a restart agrees');
  });
});
