import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer } from '../../server/server';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, configPath, createTask, exists, failsWith, okData, readConfig } from '../helpers/envelope';

/** Every file under the workspace with its modification time and size, to prove nothing was written. */
async function snapshot(root: string): Promise<string[]> {
  const files = await listFiles(root);
  return Promise.all(
    files.map(async (f) => {
      const stat = await fs.stat(path.join(root, f));
      return `${f} ${stat.mtimeMs} ${stat.size}`;
    }),
  );
}

/** Run `action` while collecting what the server writes to console.warn. */
async function captureWarnings(action: () => Promise<void>): Promise<string[]> {
  const original = console.warn;
  const lines: string[] = [];
  console.warn = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  try {
    await action();
  } finally {
    console.warn = original;
  }
  return lines;
}

function frontmatterKeys(text: string): string[] {
  return text
    .split('\n---\n')[0]
    .split('\n')
    .filter((l) => /^[A-Za-z]\w*:/.test(l))
    .map((l) => l.slice(0, l.indexOf(':')));
}

describe('API files on disk', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  describe('reads never write', () => {
    it('when only GET requests are made, then no file in the workspace is created or changed', async () => {
      server = await startTestServer();
      const task = await createTask(server, 'Existing');
      const before = await snapshot(server.root);
      for (const url of [
        '/api/boards',
        '/api/boards/default',
        '/api/columns',
        '/api/tasks',
        `/api/tasks/${task.id}`,
        '/api/tasks?q=x&fuzzy=true',
        '/api/tasks/active',
        '/api/settings',
        '/api/labels',
        '/api/resolve-path?path=x',
        '/api/boards/default/actions',
        '/api/workspace',
      ]) {
        assert.equal((await server.api('GET', url)).status, 200, url);
      }
      assert.deepEqual(await snapshot(server.root), before);
    });

    it('when the workspace is new, then .kanban.json appears only with the first change', async () => {
      server = await startTestServer();
      await server.api('GET', '/api/settings');
      assert.equal(await exists(configPath(server)), false);
      okData(await server.api('PUT', '/api/settings', { compactMode: true }));
      const config = await readConfig(server);
      assert.equal(config.version, 2);
      assert.equal(config.settings.compactMode, true);
      assert.deepEqual(
        config.boards.map((b: { id: string }) => b.id),
        ['default'],
      );
    });

    it('when only cards change, then .kanban.json is still not written', async () => {
      server = await startTestServer();
      const task = await createTask(server, 'Card only');
      okData(await server.api('PATCH', `/api/tasks/${task.id}/move`, { status: 'done' }));
      assert.equal(await exists(configPath(server)), false);
    });
  });

  describe('card files', () => {
    it('when a card is created on a board, then it is .kanban/boards/<board>/<status>/<id>.md', async () => {
      server = await startTestServer();
      okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
      const task = await createTask(server, { content: '# Layout', status: 'todo' }, 'ops');
      assert.deepEqual(
        (await listFiles(path.join(server.root, '.kanban', 'boards'))).filter((f) => f.endsWith('.md')),
        [`ops/todo/${task.id}.md`],
      );
    });

    it('when a card is updated field by field, then the frontmatter keys keep one fixed order', async () => {
      server = await startTestServer();
      const task = await createTask(server, { content: '# Order', labels: ['a'], metadata: { x: 1 } });
      const file = cardFile(server, 'default', 'backlog', task.id);
      okData(await server.api('PUT', `/api/tasks/${task.id}`, { dueDate: '2026-06-01' }));
      okData(await server.api('PUT', `/api/tasks/${task.id}`, { assignee: 'Ana' }));
      okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }));
      assert.deepEqual(frontmatterKeys(await fs.readFile(file, 'utf8')), [
        'id',
        'status',
        'priority',
        'assignee',
        'dueDate',
        'labels',
        'metadata',
        'order',
        'created',
        'modified',
        'columnHistory',
      ]);
    });

    it('when content has Windows line endings, then they stay in the content only (the frontmatter is LF) and read the same after a restart', async () => {
      server = await startTestServer();
      const task = await createTask(server, { content: '# Windows\r\n\r\nline one\r\nline two\r\n' });
      assert.equal(task.content, '# Windows\r\n\r\nline one\r\nline two\r\n');
      const text = await fs.readFile(cardFile(server, 'default', 'backlog', task.id), 'utf8');
      const [frontmatter, body] = text.split('\n---\n\n');
      assert.ok(!frontmatter.includes('\r'), 'the frontmatter is written with LF');
      assert.equal(body, task.content, 'the content as sent');
      const updated = okData(await server.api('PUT', `/api/tasks/${task.id}`, { content: '# Windows\r\nedited\r\n' }));
      assert.equal(updated.content, '# Windows\r\nedited\r\n');
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).content, updated.content);
    });

    it('when a card file is rewritten while someone reads it, then every read sees one whole version', async () => {
      server = await startTestServer();
      const body = (n: number) => `# Big\n\n${'lorem ipsum '.repeat(30_000)}\nversion ${n} end\n`;
      const task = await createTask(server, { content: body(0) });
      const file = cardFile(server, 'default', 'backlog', task.id);
      let writing = true;
      const torn: string[] = [];
      const reader = (async () => {
        let reads = 0;
        while (writing || reads < 5) {
          const text = await fs.readFile(file, 'utf8');
          if (!/^---\n[\s\S]*\n---\n\n# Big\n[\s\S]*\nversion \d+ end\n$/.test(text)) torn.push(`${text.length} chars`);
          reads++;
        }
        return reads;
      })();
      for (let n = 1; n <= 15; n++) okData(await server.api('PUT', `/api/tasks/${task.id}`, { content: body(n) }));
      writing = false;
      assert.ok((await reader) >= 5);
      assert.deepEqual(torn, []);
    });

    it('when many changes are made, then no temporary file is left anywhere in the workspace', async () => {
      server = await startTestServer();
      okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Ops' }), 201);
      okData(await server.api('PUT', '/api/labels/bug', { color: '#f00' }));
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push((await createTask(server, { content: `# Temp ${i}`, labels: ['bug'] })).id);
      await Promise.all(
        ids.map((id, i) => server.api('PATCH', `/api/tasks/${id}/move`, { status: 'todo', position: i })),
      );
      okData(await server.api('PATCH', '/api/labels/bug', { newName: 'defect' }));
      okData(await server.api('POST', `/api/boards/ops/tasks/${ids[0]}/transfer`));
      okData(await server.api('DELETE', `/api/tasks/${ids[1]}`));
      okData(await server.api('DELETE', `/api/tasks/${ids[2]}/permanent`));
      okData(await server.api('PUT', '/api/settings', { compactMode: true }));
      const files = await listFiles(server.root);
      assert.deepEqual(
        files.filter((f) => f.includes('.tmp-')),
        [],
      );
      assert.ok(files.length >= 5);
    });
  });

  describe('card files edited by hand', () => {
    it('when a card file is edited while the server is down, then the change is served after restart', async () => {
      server = await startTestServer();
      const task = await createTask(server, { content: '# Before edit', labels: ['a'] });
      const file = cardFile(server, 'default', 'backlog', task.id);
      await server.running.close();
      const text = await fs.readFile(file, 'utf8');
      await fs.writeFile(
        file,
        text
          .replace('# Before edit', '# After edit\n\nadded by hand')
          .replace('priority: medium', 'priority: high')
          .replace('  - a', '  - a\n  - b'),
      );
      await server.restart();
      const fetched = okData(await server.api('GET', `/api/tasks/${task.id}`));
      assert.equal(fetched.title, 'After edit');
      assert.equal(fetched.priority, 'high');
      assert.deepEqual(fetched.labels, ['a', 'b']);
      assert.ok(fetched.content.includes('added by hand'));
    });

    it('when a card file is moved to another status folder while the server is stopped (no index cache), then at restart its frontmatter status decides, the file stays, and the next write puts it in its folder', async () => {
      server = await startTestServer();
      const task = await createTask(server, 'Moved by hand');
      await server.running.close();
      await fs.mkdir(path.join(server.root, '.kanban', 'boards', 'default', 'review'), { recursive: true });
      await fs.rename(cardFile(server, 'default', 'backlog', task.id), cardFile(server, 'default', 'review', task.id));
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).status, 'backlog');
      assert.equal(await exists(cardFile(server, 'default', 'review', task.id)), true, 'a start moves no card file');
      okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }));
      assert.equal(await exists(cardFile(server, 'default', 'backlog', task.id)), true);
      assert.equal(await exists(cardFile(server, 'default', 'review', task.id)), false);
    });

    it('when a card file says another status while the server is stopped, then at restart the card has it, and its file moves to that folder on the next write', async () => {
      server = await startTestServer();
      const task = await createTask(server, 'Status by hand');
      await server.running.close();
      const file = cardFile(server, 'default', 'backlog', task.id);
      await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^status: backlog$/m, 'status: review'));
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).status, 'review');
      assert.equal(await exists(file), true, 'a start moves no card file');
      okData(await server.api('PUT', `/api/tasks/${task.id}`, { priority: 'high' }));
      assert.equal(await exists(cardFile(server, 'default', 'review', task.id)), true);
      assert.equal(await exists(file), false);
    });

    it('when hand-written cards have no order key, then they list after keyed ones and a move puts each where asked', async () => {
      server = await startTestServer();
      const keyed = await createTask(server, { content: '# Keyed', status: 'todo' });
      await server.running.close();
      const dir = path.join(server.root, '.kanban', 'boards', 'default', 'todo');
      await fs.writeFile(path.join(dir, 'hand-one.md'), '---\ncreated: 2020-01-01T00:00:00.000Z\n---\n# Hand one\n');
      await fs.writeFile(path.join(dir, 'hand-two.md'), '---\ncreated: 2020-01-02T00:00:00.000Z\n---\n# Hand two\n');
      await server.restart();
      const titles = async () => okData<any[]>(await server.api('GET', '/api/tasks?status=todo')).map((t) => t.title);
      assert.deepEqual(await titles(), ['Keyed', 'Hand one', 'Hand two']);
      okData(await server.api('PATCH', '/api/tasks/hand-two/move', { status: 'todo', position: 1 }));
      assert.deepEqual(await titles(), ['Keyed', 'Hand two', 'Hand one']);
      okData(await server.api('PATCH', `/api/tasks/${keyed.id}/move`, { status: 'todo', position: 2 }));
      assert.deepEqual(await titles(), ['Hand two', 'Hand one', 'Keyed']);
      await server.restart();
      assert.deepEqual(await titles(), ['Hand two', 'Hand one', 'Keyed']);
    });

    it('when a card sits in a folder that is no column, then it is still listed, after the columns', async () => {
      server = await startTestServer();
      await createTask(server, { content: '# In done', status: 'done' });
      await server.running.close();
      const dir = path.join(server.root, '.kanban', 'boards', 'default', 'parking');
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, 'stray.md'), '---\n---\n# Stray\n');
      await server.restart();
      const tasks = okData<any[]>(await server.api('GET', '/api/tasks'));
      assert.deepEqual(
        tasks.map((t) => [t.title, t.status]),
        [
          ['In done', 'done'],
          ['Stray', 'parking'],
        ],
      );
      okData(await server.api('PATCH', '/api/tasks/stray/move', { status: 'todo' }));
      assert.ok(await exists(cardFile(server, 'default', 'todo', 'stray')));
    });

    it('when a card file is broken, then it is reported in the log and /api/workspace, left untouched, and served again once fixed', async () => {
      server = await startTestServer();
      const good = await createTask(server, { content: '# Good', labels: ['bug'] });
      const bad = await createTask(server, { content: '# Soon broken', labels: ['bug'] });
      const file = cardFile(server, 'default', 'backlog', bad.id);
      const original = await fs.readFile(file, 'utf8');
      await server.running.close();
      const broken = original.replace('priority: medium', 'priority: [unclosed');
      await fs.writeFile(file, broken);

      const warnings = await captureWarnings(() => server.restart());
      const relative = `.kanban/boards/default/backlog/${bad.id}.md`;
      assert.ok(
        warnings.some((w) => w.includes(relative) && /YAML/.test(w)),
        warnings.join('\n'),
      );
      const workspace = okData(await server.api('GET', '/api/workspace'));
      assert.deepEqual(
        workspace.invalidFiles.map((f: { path: string }) => f.path),
        [relative],
      );
      assert.match(workspace.invalidFiles[0].reason, /YAML/);
      failsWith(await server.api('GET', `/api/tasks/${bad.id}`), 404);
      assert.deepEqual(
        okData<any[]>(await server.api('GET', '/api/tasks')).map((t) => t.id),
        [good.id],
      );

      // Changes around it, including a label cascade and a new card of the same title, leave it alone.
      okData(await server.api('PATCH', '/api/labels/bug', { newName: 'defect' }));
      okData(await server.api('PATCH', `/api/tasks/${good.id}/move`, { status: 'backlog', position: 5 }));
      const again = await createTask(server, 'Soon broken');
      assert.notEqual(again.id, bad.id, 'the broken card keeps its id');
      okData(await server.api('DELETE', `/api/tasks/${again.id}/permanent`));
      assert.equal(await fs.readFile(file, 'utf8'), broken);

      await server.running.close();
      await fs.writeFile(file, original);
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${bad.id}`)).title, 'Soon broken');
      assert.deepEqual(okData(await server.api('GET', '/api/workspace')).invalidFiles, []);
    });
  });

  describe('.kanban.json', () => {
    const older = {
      version: 1,
      columns: [
        { id: 'todo', name: 'To Do', color: '#3b82f6' },
        { id: 'doing', name: 'Doing', color: '#f59e0b' },
        { id: 'done', name: 'Done', color: '#22c55e' },
      ],
      defaultStatus: 'todo',
      storage: { 'card.storage': { provider: 'markdown', config: {} } },
      myToolSetting: { keep: true },
    };

    it('when the older layout is loaded, then its columns serve and the file stays as it was until a change', async () => {
      const text = JSON.stringify(older, null, 2);
      server = await startTestServer({ config: text });
      const columns = okData(await server.api('GET', '/api/columns'));
      assert.deepEqual(
        columns.map((c: { id: string }) => c.id),
        ['todo', 'doing', 'done'],
      );
      assert.equal((await createTask(server, 'Upgraded')).status, 'todo');
      await server.api('GET', '/api/boards');
      assert.equal(await fs.readFile(configPath(server), 'utf8'), text);
    });

    it('when the older layout sees its first change, then it is written back as version 2 with plugins', async () => {
      server = await startTestServer({ config: older });
      const task = await createTask(server, { content: '# Kept', status: 'doing' });
      okData(await server.api('PUT', '/api/columns/doing', { name: 'Doing now' }));
      const written = await readConfig(server);
      assert.equal(written.version, 2);
      assert.equal(written.defaultBoard, 'default');
      assert.deepEqual(
        written.boards[0].columns.map((c: { id: string; name: string }) => [c.id, c.name]),
        [
          ['todo', 'To Do'],
          ['doing', 'Doing now'],
          ['done', 'Done'],
        ],
      );
      assert.equal(written.boards[0].defaultStatus, 'todo');
      assert.deepEqual(written.plugins, { 'card.storage': { provider: 'markdown', options: {} } });
      assert.deepEqual(written.myToolSetting, { keep: true });
      for (const key of ['columns', 'storage', 'defaultStatus'])
        assert.equal(key in written, false, `${key} is still at the top level`);
      await server.restart();
      assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).status, 'doing');
      assert.equal(okData(await server.api('GET', '/api/columns'))[1].name, 'Doing now');
    });

    it('when .kanban.json is invalid, then the server refuses to start, names the file and the problem, and leaves it alone', async () => {
      const root = await makeTempDir();
      const text = JSON.stringify({ version: 2, boards: [{ id: 'Bad Id' }] });
      await fs.writeFile(path.join(root, '.kanban.json'), text);
      try {
        await assert.rejects(
          startServer({ root, port: 0 }),
          (error: Error) => error.message.includes('.kanban.json') && error.message.includes('$.boards[0].id'),
        );
        assert.equal(await fs.readFile(path.join(root, '.kanban.json'), 'utf8'), text);
      } finally {
        await fs.rm(root, { recursive: true, force: true });
      }
      server = await startTestServer();
    });

    it('when .kanban.json is not JSON, then the server refuses to start with the reason', async () => {
      const root = await makeTempDir();
      await fs.writeFile(path.join(root, '.kanban.json'), '{ "version": 2, ');
      try {
        await assert.rejects(startServer({ root, port: 0 }), /not valid JSON/);
      } finally {
        await fs.rm(root, { recursive: true, force: true });
      }
      server = await startTestServer();
    });
  });
});
