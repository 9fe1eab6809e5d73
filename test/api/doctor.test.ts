import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, exists, okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';

const kinds = (report: any) => report.problems.map((p: any) => `${p.kind} ${p.path ?? '-'}`);

describe('kanban doctor over the API (GET /workspace/doctor, POST /workspace/doctor/fix)', () => {
  let server: TestServer;
  afterEach(async () => server?.close());
  const doctor = async () => okData(await server.api('GET', '/api/workspace/doctor'));
  const fix = async () => okData(await server.api('POST', '/api/workspace/doctor/fix'));

  it('when the workspace is sound, then ok is true and fix changes nothing', async () => {
    server = await startTestServer();
    await createTask(server, 'Sound');
    assert.deepEqual(await doctor(), { ok: true, problems: [] });
    assert.deepEqual(await fix(), { ok: true, problems: [], fixed: [] });
  });

  it('when .kanban.json holds keys this version does not know, then each is reported and left alone by fix', async () => {
    server = await startTestServer();
    await server.running.close();
    const config = JSON.parse(
      await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8').catch(() => '{"version":2}'),
    );
    config.colums = [];
    config.boards = [{ id: 'default', name: 'Default', swimlane: 'x' }];
    await fs.writeFile(path.join(server.root, '.kanban.json'), JSON.stringify(config));
    await server.restart();
    const report = await doctor();
    assert.equal(report.ok, false);
    const messages = report.problems.filter((p: any) => p.kind === 'unknown-config-key').map((p: any) => p.message);
    assert.ok(
      messages.some((m: string) => m.includes('"colums"')),
      messages.join('\n'),
    );
    assert.ok(
      messages.some((m: string) => m.includes('"swimlane"')),
      messages.join('\n'),
    );
    assert.equal((await fix()).problems.filter((p: any) => p.kind === 'unknown-config-key').length, 2);
  });

  it('when cards sit in a column their board no longer has, then the status and its count are reported', async () => {
    server = await startTestServer();
    const task = await createTask(server, 'Orphan');
    const file = cardFile(server, 'default', 'backlog', task.id);
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^status: backlog$/m, 'status: limbo'));
    await waitUntil(
      async () => okData(await server.api('GET', `/api/tasks/${task.id}`)).status === 'limbo',
      5000,
      'the card takes the typed status',
    );
    const report = await doctor();
    const orphaned = report.problems.find((p: any) => p.kind === 'orphaned-status');
    assert.match(orphaned.message, /board "default": 1 card in "limbo", which is not a column/);
    assert.equal(orphaned.fixable, false);
  });

  it('when a card file does not parse, then it is reported, and fix neither moves nor changes it', async () => {
    server = await startTestServer();
    const broken = path.join(server.root, '.kanban/boards/default/todo/broken.md');
    await fs.mkdir(path.dirname(broken), { recursive: true });
    await fs.writeFile(broken, '---\npriority: [unclosed\n---\n# Broken\n');
    await waitUntil(
      async () => (await doctor()).problems.some((p: any) => p.kind === 'invalid-file'),
      5000,
      'the broken file is reported',
    );
    const after = await fix();
    assert.deepEqual(kinds(after), ['invalid-file .kanban/boards/default/todo/broken.md']);
    assert.equal(after.ok, false);
    assert.equal(await fs.readFile(broken, 'utf8'), '---\npriority: [unclosed\n---\n# Broken\n');
  });

  it('when a card file is renamed by hand, then the card keeps its id and its blockers resolve, doctor reports the name, and fix renames the file back', async () => {
    server = await startTestServer();
    const blocker = await createTask(server, 'Blocker');
    const blocked = await createTask(server, { title: 'Blocked', blockedBy: [blocker.id] });
    const renamed = path.join(server.root, '.kanban/boards/default/backlog/my-own-name.md');
    await fs.rename(cardFile(server, 'default', 'backlog', blocker.id), renamed);
    await waitUntil(
      async () =>
        okData(await server.api('GET', `/api/tasks/${blocker.id}`)).filePath ===
        '.kanban/boards/default/backlog/my-own-name.md',
      5000,
      'the card is served from its new name',
    );
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${blocked.id}`)).blockedBy, [blocker.id]);
    assert.equal((await server.api('GET', '/api/tasks/my-own-name')).status, 404, 'the file name is not an id');
    assert.deepEqual(kinds(await doctor()), ['name-mismatch .kanban/boards/default/backlog/my-own-name.md']);
    const fixed = await fix();
    assert.equal(fixed.ok, true);
    assert.deepEqual(fixed.fixed, [
      `moved .kanban/boards/default/backlog/my-own-name.md to .kanban/boards/default/backlog/${blocker.id}.md`,
    ]);
    assert.equal(await exists(cardFile(server, 'default', 'backlog', blocker.id)), true);
    assert.equal(await exists(renamed), false);
  });

  it('when .kanban/.gitignore is from an older version and a database lies beside it in a git repository, then both are reported and fix brings the file up to date', async () => {
    server = await startTestServer();
    await createTask(server, 'In git');
    execFileSync('git', ['init', '-q'], {
      cwd: server.root,
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
    await fs.writeFile(path.join(server.root, '.kanban/.gitignore'), '.state/\n');
    await fs.writeFile(path.join(server.root, '.kanban/kanban.db'), '');
    assert.deepEqual(kinds(await doctor()), ['gitignore-outdated .kanban/.gitignore', 'not-ignored .kanban/kanban.db']);
    const fixed = await fix();
    assert.equal(fixed.ok, true, JSON.stringify(fixed.problems));
    assert.match(fixed.fixed.join('\n'), /added backups\/, \*\.db, .* to \.kanban\/\.gitignore/);
    assert.match(
      await fs.readFile(path.join(server.root, '.kanban/.gitignore'), 'utf8'),
      /^\.state\/\nbackups\/\n\*\.db\n/,
    );
  });
});
