import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { KanbanService } from '../../extension/service/kanbanService';
import { startTestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';
import { buildCli, expectCode, jsonOf } from './helpers';
import { GIT_ENV, cardText, commitAll, git, gitStatus, initRepo, k, kOk, listed, writeCard } from './gitRepo';

const titles = (cards: any[]) => cards.map((c) => c.title).sort();

describe('the board in git: branches, merges and worktrees', function () {
  this.timeout(120_000);
  let tmp: string;
  let root: string;
  before(() => buildCli());
  beforeEach(async () => ({ tmp, root } = await initRepo()));
  afterEach(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('when two branches add a card of the same title on the same day and are merged, then the board lists both and the read leaves git status clean', async () => {
    git(root, 'checkout', '-q', '-b', 'agent-b');
    await kOk(root, 'add', 'Add tests', '--status', 'todo');
    commitAll(root, 'b');
    git(root, 'checkout', '-q', 'main');
    await kOk(root, 'add', 'Add tests', '--status', 'backlog');
    commitAll(root, 'a');
    git(root, 'merge', '-q', '--no-edit', 'agent-b');
    const cards = await listed(root);
    assert.deepEqual(titles(cards), ['Add tests', 'Add tests']);
    assert.notEqual(cards[0].id, cards[1].id);
    assert.equal(gitStatus(root), '', 'a read changes nothing git sees');
  });

  describe('when a merge brings two different cards that claim one id (made before ids had a suffix)', () => {
    const id = 'add-tests-2026-11-20';
    beforeEach(async () => {
      git(root, 'checkout', '-q', '-b', 'agent-b');
      await writeCard(root, 'todo', id, cardText(id, 'todo', 'Add tests (agent B)', '2026-11-20T10:00:00.000Z'));
      commitAll(root, 'b');
      git(root, 'checkout', '-q', 'main');
      await writeCard(root, 'backlog', id, cardText(id, 'backlog', 'Add tests (agent A)', '2026-11-20T10:00:05.000Z'));
      commitAll(root, 'a');
      git(root, 'merge', '-q', '--no-edit', 'agent-b');
    });

    it("then the command line, the server and the extension's service serve both under the same two ids, and git status stays clean", async () => {
      const first = await listed(root);
      assert.deepEqual(titles(first), ['Add tests (agent A)', 'Add tests (agent B)']);
      const ids = first.map((c) => c.id).sort();
      assert.ok(ids.includes(id), ids.join(', '));
      assert.deepEqual((await listed(root)).map((c) => c.id).sort(), ids, 'the new id is stable across processes');
      assert.equal(
        jsonOf(
          await k(
            root,
            'show',
            ids.find((i) => i !== id)!,
            '--json',
          ),
        ).title,
        'Add tests (agent A)',
        'the one met second (the later created) takes the new id',
      );

      const server = await startTestServer({ root, server: { watch: true } });
      try {
        assert.deepEqual(
          okData<any[]>(await server.api('GET', '/api/tasks'))
            .map((c) => c.id)
            .sort(),
          ids,
        );
        const workspace = okData(await server.api('GET', '/api/workspace'));
        assert.equal(workspace.duplicateIds.length, 1);
        assert.equal(workspace.duplicateIds[0].id, id);
        assert.equal(workspace.duplicateIds[0].path, `.kanban/boards/default/backlog/${id}.md`);
      } finally {
        await server.running.close();
      }
      const service = await KanbanService.open(root);
      try {
        assert.deepEqual(
          service.workspace.index
            .allCards()
            .map((c) => c.id)
            .sort(),
          ids,
        );
      } finally {
        await service.close();
      }
      assert.equal(gitStatus(root), '', 'no read, start or open changed a file');
    });

    it("then kanban doctor lists the duplicate and exits 1, and --fix renames the second card's file to its id and keeps both cards", async () => {
      const doctor = expectCode(await k(root, 'doctor'), 1);
      assert.match(
        doctor.stdout,
        new RegExp(`duplicate-id: \\.kanban/boards/default/backlog/${id}\\.md: claims id ${id}`),
      );
      const servedAs = (await listed(root)).find((c) => c.title === 'Add tests (agent A)').id;
      const fixed = await kOk(root, 'doctor', '--fix');
      assert.match(
        fixed.stdout,
        new RegExp(
          `fixed: moved \\.kanban/boards/default/backlog/${id}\\.md to \\.kanban/boards/default/backlog/${servedAs}\\.md`,
        ),
      );
      const renamed = await fs.readFile(path.join(root, '.kanban/boards/default/backlog', `${servedAs}.md`), 'utf8');
      assert.match(renamed, new RegExp(`^id: ${servedAs}$`, 'm'));
      assert.match(renamed, /# Add tests \(agent A\)/);
      assert.deepEqual(titles(await listed(root)), ['Add tests (agent A)', 'Add tests (agent B)']);
      expectCode(await k(root, 'doctor'), 0);
    });

    it('then the next write to the second card renames its file to the id it is served as', async () => {
      const servedAs = (await listed(root)).find((c) => c.title === 'Add tests (agent A)').id;
      await kOk(root, 'edit', servedAs, '--priority', 'high');
      assert.equal(
        await fs.access(path.join(root, '.kanban/boards/default/backlog', `${servedAs}.md`)).then(
          () => true,
          () => false,
        ),
        true,
      );
      assert.equal(
        jsonOf(await k(root, 'show', id, '--json')).title,
        'Add tests (agent B)',
        'the other card keeps the id',
      );
      assert.equal(jsonOf(await k(root, 'show', servedAs, '--json')).priority, 'high');
    });
  });

  it("when a card's status is edited by hand and committed, then list, show and a server start leave git status clean, and the next write moves the file", async () => {
    const id = jsonOf(await k(root, 'add', 'Hand moved', '--json')).id;
    const file = path.join(root, '.kanban/boards/default/backlog', `${id}.md`);
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^status: backlog$/m, 'status: review'));
    commitAll(root, 'status by hand');
    assert.equal((await listed(root)).find((c) => c.id === id).status, 'review');
    await kOk(root, 'show', id);
    const server = await startTestServer({ root, server: { watch: true } });
    try {
      assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).status, 'review');
      assert.equal(gitStatus(root), '');
      const doctor = okData(await server.api('GET', '/api/workspace/doctor'));
      assert.deepEqual(
        doctor.problems.map((p: any) => [p.kind, p.path]),
        [['folder-mismatch', `.kanban/boards/default/backlog/${id}.md`]],
      );
      okData(await server.api('PUT', `/api/tasks/${id}`, { priority: 'high' }));
    } finally {
      await server.running.close();
    }
    assert.match(
      gitStatus(root),
      new RegExp(
        `R  ?.kanban/boards/default/backlog/${id}.md -> .kanban/boards/default/review/${id}.md|D .kanban/boards/default/backlog/${id}.md`,
      ),
    );
  });

  it('when two worktrees add cards at the same time and both branches are merged, then every card is on the board with its own id', async () => {
    const other = path.join(tmp, 'agent-b');
    git(root, 'worktree', 'add', '-q', '-b', 'agent-b', other);
    const adds = (dir: string) =>
      Array.from({ length: 4 }, (_, i) => kOk(dir, 'add', i % 2 ? 'Fix lint' : 'Add tests'));
    await Promise.all([...adds(root), ...adds(other)]);
    commitAll(other, 'agent b');
    commitAll(root, 'agent a');
    git(root, 'merge', '-q', '--no-edit', 'agent-b');
    const cards = await listed(root);
    assert.equal(cards.length, 8);
    assert.equal(new Set(cards.map((c) => c.id)).size, 8);
    assert.equal(gitStatus(root), '');
  });

  it('when a rebase rewrites a card file under a running server, then the board shows the rebased text and git status stays clean', async () => {
    const id = jsonOf(await k(root, 'add', 'Rebased card', '--json')).id;
    commitAll(root, 'card');
    const server = await startTestServer({ root, server: { watch: true } });
    try {
      git(root, 'checkout', '-q', '-b', 'feature');
      const file = path.join(root, '.kanban/boards/default/backlog', `${id}.md`);
      await fs.writeFile(
        file,
        (await fs.readFile(file, 'utf8')).replace('# Rebased card', '# Rebased card, edited on a branch'),
      );
      commitAll(root, 'edit on the branch');
      git(root, 'checkout', '-q', 'main');
      await fs.writeFile(path.join(root, 'NOTES.md'), 'main moved on\n');
      commitAll(root, 'main moves on');
      git(root, 'checkout', '-q', 'feature');
      git(root, 'rebase', '-q', 'main');
      await waitUntil(
        async () => okData(await server.api('GET', `/api/tasks/${id}`)).title === 'Rebased card, edited on a branch',
        10_000,
        'the rebased text is served',
      );
      await server.running.watcher!.settled();
      assert.equal(gitStatus(root), '');
    } finally {
      await server.running.close();
    }
  });

  it('when cards go to SQLite and back several times, then git sees neither the database nor the backups, and at most 5 backups are kept', async () => {
    await kOk(root, 'add', 'Round trip');
    commitAll(root, 'a card');
    for (let round = 0; round < 4; round++) {
      await kOk(root, 'storage', 'migrate-to-sqlite');
      await kOk(root, 'storage', 'migrate-to-markdown');
    }
    const changed = gitStatus(root).split('\n').filter(Boolean);
    assert.deepEqual(
      changed.filter((line) => /kanban\.db|backups/.test(line)),
      [],
      changed.join('\n'),
    );
    assert.ok((await fs.readdir(path.join(root, '.kanban', 'backups'))).filter((n) => !n.startsWith('.')).length <= 5);
    assert.deepEqual(titles(await listed(root)), ['Round trip']);
  });

  it('when kanban init runs, then .kanban/.gitignore covers state, databases and backups', async () => {
    const text = await fs.readFile(path.join(root, '.kanban', '.gitignore'), 'utf8');
    for (const line of ['.state/', 'backups/', '*.db', '*.db-wal', '*.db-shm', '*.sqlite', '*.sqlite3'])
      assert.match(text, new RegExp(`^${line.replace(/[.*]/g, '\\$&')}$`, 'm'));
    const ignored = await new Promise<string>((resolve) =>
      execFile(
        'git',
        [
          'check-ignore',
          '.kanban/kanban.db',
          '.kanban/kanban.db-wal',
          '.kanban/backups/x.md',
          '.kanban/.state/card-index.json',
        ],
        { cwd: root, env: { ...process.env, ...GIT_ENV } },
        (_e, out) => resolve(out),
      ),
    );
    assert.equal(ignored.trim().split('\n').length, 4, ignored);
  });
});

describe('kanban doctor on a torn move, in-process', function () {
  this.timeout(60_000);
  let tmp: string;
  let root: string;
  before(() => buildCli());
  beforeEach(async () => ({ tmp, root } = await initRepo()));
  afterEach(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('when a crash left a moved card in two folders, then reads serve the newer copy and touch neither file, doctor lists the older, and --fix moves it under .kanban/.state/recovered/', async () => {
    const id = 'torn-2026-11-20';
    const older = await writeCard(root, 'todo', id, cardText(id, 'todo', 'Torn', '2026-11-20T10:00:00.000Z'));
    const newer = await writeCard(
      root,
      'done',
      id,
      cardText(id, 'done', 'Torn, finished', '2026-11-20T10:00:00.000Z').replace(
        /^modified: .*$/m,
        'modified: 2026-11-21T10:00:00.000Z',
      ),
    );
    commitAll(root, 'a torn move, committed');
    assert.deepEqual(
      (await listed(root)).map((c) => [c.id, c.status, c.title]),
      [[id, 'done', 'Torn, finished']],
    );
    assert.equal(gitStatus(root), '', 'the read moved neither copy');
    const doctor = expectCode(await k(root, 'doctor'), 1);
    assert.match(
      doctor.stdout,
      new RegExp(`stale-copy: \\.kanban/boards/default/todo/${id}\\.md: a second file of card ${id}`),
    );
    const fixed = await kOk(root, 'doctor', '--fix');
    assert.match(
      fixed.stdout,
      new RegExp(
        `fixed: moved \\.kanban/boards/default/todo/${id}\\.md to \\.kanban/\\.state/recovered/default/todo/${id}\\.`,
      ),
    );
    assert.equal(
      await fs.access(older).then(
        () => true,
        () => false,
      ),
      false,
    );
    assert.equal(
      await fs.access(newer).then(
        () => true,
        () => false,
      ),
      true,
    );
    const recovered = await fs.readdir(path.join(root, '.kanban/.state/recovered/default/todo'));
    assert.equal(recovered.length, 1);
    expectCode(await k(root, 'doctor'), 0);
  });
});

describe('docs/git.md as written', function () {
  this.timeout(60_000);
  const doc = () => fs.readFile(path.join(__dirname, '..', '..', 'docs', 'git.md'), 'utf8');
  let tmp: string;
  let root: string;
  before(() => buildCli());
  beforeEach(async () => ({ tmp, root } = await initRepo()));
  afterEach(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('when its kanban doctor lines run in order on a board with a duplicate id, then each exits as its comment says and the board ends sound', async () => {
    const id = 'add-tests-2026-11-20';
    await writeCard(root, 'todo', id, cardText(id, 'todo', 'Add tests (B)', '2026-11-20T10:00:00.000Z'));
    await writeCard(root, 'backlog', id, cardText(id, 'backlog', 'Add tests (A)', '2026-11-20T10:00:05.000Z'));
    const lines = [...(await doc()).matchAll(/```sh\n([\s\S]*?)```/g)]
      .flatMap((m) => m[1].split('\n'))
      .filter((l) => l.startsWith('kanban doctor'));
    assert.deepEqual(
      lines.map((l) => l.split('#')[0].trim()),
      ['kanban doctor', 'kanban doctor --fix', 'kanban doctor --json'],
    );
    expectCode(await k(root, 'doctor'), 1);
    await kOk(root, 'doctor', '--fix');
    assert.deepEqual(jsonOf(await k(root, 'doctor', '--json')), { ok: true, problems: [] });
    assert.deepEqual(titles(await listed(root)), ['Add tests (A)', 'Add tests (B)']);
  });

  it('when its .kanban/.gitignore block is compared with what kanban init writes, then they hold the same lines', async () => {
    const block = /## What git ignores[\s\S]*?```\n([\s\S]*?)```/
      .exec(await doc())![1]
      .trim()
      .split('\n');
    const written = (await fs.readFile(path.join(root, '.kanban', '.gitignore'), 'utf8'))
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    assert.deepEqual(block, written);
  });
});
