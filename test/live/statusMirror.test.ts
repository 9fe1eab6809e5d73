import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';

/** The frontmatter `status:` and the folder of a card file always agree, whichever one a person changes. */
describe('file watching: status in the frontmatter and the folder', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  const statusOf = async (id: string) => okData(await server.api('GET', `/api/tasks/${id}`)).status;

  it('when status: is edited by hand, then the card moves and its file follows to that folder', async () => {
    const task = await createTask(server, 'Status typed');
    const file = cardFile(server, 'default', 'backlog', task.id);
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^status: backlog$/m, 'status: review'));
    await waitUntil(async () => (await statusOf(task.id)) === 'review', 5000, 'the card takes the typed status');
    await waitUntil(() => exists(cardFile(server, 'default', 'review', task.id)), 5000, 'the file moves to review/');
    assert.equal(await exists(file), false);
  });

  it('when a card file is moved to another status folder by hand (git mv), then the card takes that status and the frontmatter says so', async () => {
    const task = await createTask(server, 'Moved with git');
    const from = cardFile(server, 'default', 'backlog', task.id);
    const to = cardFile(server, 'default', 'done', task.id);
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.rename(from, to);
    await waitUntil(async () => (await statusOf(task.id)) === 'done', 5000, 'the card takes the folder status');
    await waitUntil(async () => /^status: done$/m.test(await fs.readFile(to, 'utf8')), 5000, 'the frontmatter is rewritten');
    assert.equal(await exists(from), false, 'the file is not moved back');
    okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }), 200);
  });
});
