import { strict as assert } from 'node:assert';
import { mkdirSync, promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { waitUntil } from '../helpers/waiting';

// The watcher follows folders, not files: these cover folders made, removed and moved by hand.
describe('file watching: folders changed by hand', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  const boardDir = () => path.join(server.root, '.kanban/boards/default');

  async function cardText(title: string): Promise<{ id: string; text: string; file: string }> {
    const created = await server.api('POST', '/api/tasks', { content: `# ${title}` });
    const id = created.body!.data.id as string;
    const file = path.join(boardDir(), created.body!.data.status, `${id}.md`);
    return { id, text: await fs.readFile(file, 'utf8'), file };
  }

  it('when a new status folder with a card is created by hand, then the card appears there', async () => {
    const { text } = await cardText('Template');
    const id = 'fresh-folder-2026-01-01';
    await fs.mkdir(path.join(boardDir(), 'review'), { recursive: true });
    await fs.writeFile(
      path.join(boardDir(), 'review', `${id}.md`),
      text.replace(/^id: .*$/m, `id: ${id}`).replace(/^status: .*$/m, 'status: review'),
    );
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).body?.data?.status === 'review');
  });

  it('when a card is added to a status folder made by hand earlier, then it appears too', async () => {
    const { text } = await cardText('Template');
    await fs.mkdir(path.join(boardDir(), 'review'), { recursive: true });
    await new Promise((r) => setTimeout(r, 200));
    await server.running.watcher!.settled();
    const id = 'later-card-2026-01-01';
    await fs.writeFile(path.join(boardDir(), 'review', `${id}.md`), text.replace(/^id: .*$/m, `id: ${id}`));
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).status === 200);
  });

  it('when a status folder is removed by hand, then its cards disappear', async () => {
    const { id, file } = await cardText('Doomed with its folder');
    await fs.rm(path.dirname(file), { recursive: true });
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).status === 404);
  });

  it('when a status folder is removed and made again under the same name, then cards added to the new one appear', async () => {
    const { id, text, file } = await cardText('Gone with the folder');
    const folder = path.dirname(file);
    // Both before the watcher can look: it only ever sees a folder of that name.
    rmSync(folder, { recursive: true });
    mkdirSync(folder);
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).status === 404);
    const newId = 'reborn-folder-2026-01-01';
    await fs.writeFile(path.join(folder, `${newId}.md`), text.replace(/^id: .*$/m, `id: ${newId}`));
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${newId}`)).status === 200);
  });

  it('when the whole boards folder is replaced by hand, then the new cards are served', async () => {
    const { id, text } = await cardText('Old world');
    const boards = path.join(server.root, '.kanban/boards');
    const staged = path.join(server.root, 'staged-boards');
    const newId = 'new-world-2026-01-01';
    await fs.mkdir(path.join(staged, 'default', 'backlog'), { recursive: true });
    await fs.writeFile(
      path.join(staged, 'default', 'backlog', `${newId}.md`),
      text.replace(/^id: .*$/m, `id: ${newId}`).replace('# Old world', '# New world'),
    );
    await fs.rm(boards, { recursive: true });
    await fs.rename(staged, boards);
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${newId}`)).status === 200);
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${id}`)).status === 404);
    // The new folders are followed too: a later hand edit there is picked up.
    const file = path.join(boards, 'default', 'backlog', `${newId}.md`);
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('# New world', '# Newer world'));
    await waitUntil(async () => (await server.api('GET', `/api/tasks/${newId}`)).body?.data?.title === 'Newer world');
    assert.equal((await server.api('GET', '/api/tasks')).body!.data.length, 1);
  });

  it('when the boards folder is replaced by hand 50 times in a row, then an edit made in each new tree is seen', async () => {
    const { text } = await cardText('Template');
    const boards = path.join(server.root, '.kanban/boards');
    const id = 'replaced-often-2026-01-01';
    const cardIn = (root: string) => path.join(root, 'default', 'backlog', `${id}.md`);
    const write = (root: string, title: string) =>
      fs.writeFile(
        cardIn(root),
        text
          .replace(/^id: .*$/m, `id: ${id}`)
          .replace(/^status: .*$/m, 'status: backlog')
          .replace(/^# .*$/m, `# ${title}`),
      );
    for (let round = 1; round <= 50; round++) {
      const staged = path.join(server.root, `staged-boards-${round}`);
      await fs.mkdir(path.dirname(cardIn(staged)), { recursive: true });
      await write(staged, `Replaced ${round}`);
      await fs.rm(boards, { recursive: true });
      await fs.rename(staged, boards);
      // The edit follows at once, while the watcher may still be looking at the old tree.
      await write(boards, `Edited ${round}`);
      await waitUntil(
        async () => (await server.api('GET', `/api/tasks/${id}`)).body?.data?.title === `Edited ${round}`,
        10_000,
        `the edit of round ${round}`,
      );
    }
  });
});
