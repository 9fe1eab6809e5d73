import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, configPath, createTask, okData } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';

interface Reported {
  path: string;
  reason: string;
  line?: number;
}

/** The line numbers let an editor put the problem on the right line (VS Code's Problems panel). */
describe('invalidFiles name the line the parser stopped at', () => {
  let server: TestServer;
  afterEach(async () => server?.close());

  it('when a card file gets broken YAML, then /api/workspace reports the line where the parser stopped', async () => {
    server = await startTestServer();
    const card = await createTask(server, { content: '# Breaks', status: 'todo' });
    const file = cardFile(server, 'default', 'todo', card.id);
    const lines = (await fs.readFile(file, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.startsWith('priority:'));
    lines[at] = 'priority: [unclosed';
    // Written whole (temp file and rename), as an editor's atomic save: never seen half-written.
    await fs.writeFile(`${file}.tmp`, lines.join('\n'));
    await fs.rename(`${file}.tmp`, file);
    const reported = await eventually(async () => {
      const files = okData<{ invalidFiles: Reported[] }>(await server.api('GET', '/api/workspace')).invalidFiles;
      if (!files.length || !files[0].line) throw new Error('not reported yet');
      return files;
    });
    assert.equal(reported[0].path, `.kanban/boards/default/todo/${card.id}.md`);
    // js-yaml notices the unclosed flow sequence where the next key starts, a line or two later.
    assert.ok(
      reported[0].line && reported[0].line > at && reported[0].line <= at + 3,
      `line ${reported[0].line}, broken at ${at + 1}`,
    );
  });

  it('when .kanban.json gets a git conflict marker, then the line of the marker is reported, and none once fixed', async () => {
    server = await startTestServer({ config: { version: 2 } });
    const good = await fs.readFile(configPath(server), 'utf8');
    await fs.writeFile(configPath(server), `{\n  "version": 2,\n<<<<<<< HEAD\n  "defaultBoard": "a"\n=======\n}\n`);
    const reported = await eventually(async () => {
      const files = okData<{ invalidFiles: Reported[] }>(await server.api('GET', '/api/workspace')).invalidFiles;
      if (!files.length) throw new Error('not reported yet');
      return files;
    });
    assert.deepEqual(
      reported.map((f) => [f.path, f.line]),
      [['.kanban.json', 3]],
    );
    await fs.writeFile(configPath(server), good);
    await eventually(async () => {
      if (okData<{ invalidFiles: Reported[] }>(await server.api('GET', '/api/workspace')).invalidFiles.length)
        throw new Error('still reported');
    });
  });
});
