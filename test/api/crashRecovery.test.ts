import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, listFiles, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, failsWith, okData } from '../helpers/envelope';

/** A pid that belonged to a process which has exited, as a crashed server's would. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('crash recovery at start-up', () => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('when a torn move left a card in two folders, then the newer copy wins across two restarts and the other is kept aside and reported', async () => {
    server = await startTestServer();
    const task = await createTask(server, 'Torn move');
    okData(await server.api('PATCH', `/api/tasks/${task.id}/move`, { status: 'todo', position: 0 }));
    await server.running.close();
    // Replay the crash: the moved card was written to done/, the old todo/ file was never removed.
    const older = cardFile(server, 'default', 'todo', task.id);
    const newer = cardFile(server, 'default', 'done', task.id);
    const text = await fs.readFile(older, 'utf8');
    const later = new Date(Date.now() + 60_000).toISOString();
    await fs.mkdir(path.dirname(newer), { recursive: true });
    await fs.writeFile(
      newer,
      text
        .replace(/^status: todo$/m, 'status: done')
        .replace(/^modified: .*$/m, `modified: ${later}`)
        .replace('# Torn move', '# Torn move, finished'),
    );
    await server.restart();
    for (let round = 0; round < 2; round++) {
      const card = okData(await server.api('GET', `/api/tasks/${task.id}`));
      assert.equal(card.status, 'done');
      assert.equal(card.title, 'Torn move, finished');
      const listed = okData<any[]>(await server.api('GET', '/api/tasks')).filter((t) => t.id === task.id);
      assert.equal(listed.length, 1, 'the card is listed once');
      assert.equal(await exists(older), false);
      if (round === 0) {
        const recovered = okData(await server.api('GET', '/api/workspace')).recoveredFiles;
        assert.equal(recovered.length, 1);
        assert.equal(recovered[0].path, `.kanban/boards/default/todo/${task.id}.md`);
        assert.equal(recovered[0].kept, `.kanban/boards/default/done/${task.id}.md`);
        assert.equal(
          await fs.readFile(path.join(server.root, recovered[0].movedTo), 'utf8'),
          text,
          'the losing copy is kept, unchanged',
        );
      }
      await server.restart();
    }
  });

  it('when a card in two folders is deleted for good, then it stays deleted after restarts', async () => {
    server = await startTestServer();
    const task = await createTask(server, 'Deleted for good');
    await server.running.close();
    const copy = cardFile(server, 'default', 'review', task.id);
    await fs.mkdir(path.dirname(copy), { recursive: true });
    await fs.copyFile(cardFile(server, 'default', 'backlog', task.id), copy);
    await server.restart();
    okData(await server.api('DELETE', `/api/tasks/${task.id}/permanent`));
    await server.restart();
    await server.restart();
    failsWith(await server.api('GET', `/api/tasks/${task.id}`), 404);
    const cardFiles = (await listFiles(path.join(server.root, '.kanban', 'boards'))).filter((f) =>
      f.endsWith(`${task.id}.md`),
    );
    assert.deepEqual(cardFiles, []);
  });

  it('when a crashed process left temp files, then they are removed at start, the root one included', async () => {
    server = await startTestServer();
    const task = await createTask(server, 'Temp leftovers');
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ff0000' }));
    await server.running.close();
    const pid = deadPid();
    const leftovers = [
      path.join(server.root, `..kanban.json.tmp-${pid}-0badc0de-1`),
      path.join(server.root, '.kanban', 'boards', 'default', 'backlog', `.${task.id}.md.tmp-${pid}-0badc0de-2`),
    ];
    for (const file of leftovers) await fs.writeFile(file, 'half written');
    await server.restart();
    for (const file of leftovers) assert.equal(await exists(file), false, `${path.basename(file)} was removed`);
    okData(await server.api('PUT', '/api/labels/bug', { color: '#00ff00' }));
    const rootFiles = await fs.readdir(server.root);
    assert.deepEqual(
      rootFiles.filter((name) => name.includes('.tmp-')),
      [],
      'config writes leave no temp file in the root',
    );
  });
});
