import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { allRoutes } from '../../server/api/routes';
import { operations } from '../../server/cli/operations';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { buildCli, CLI, cleanEnv, ESCAPE, expectCode, jsonOf, kanban, REPO } from './helpers';

function sh(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

describe('kanban command line: help, exit codes, modes, colour, init, completion', function () {
  this.timeout(90_000);
  let root: string;

  before(() => buildCli());
  beforeEach(async () => {
    root = await makeTempDir('kanban-cli-');
  });
  afterEach(async () => fs.rm(root, { recursive: true, force: true }));

  it('when asked for --version, then it prints the package version and exits 0', async () => {
    const { version } = JSON.parse(await fs.readFile(path.join(REPO, 'package.json'), 'utf8'));
    assert.equal(expectCode(await kanban(['--version']), 0).stdout, `${version}\n`);
  });

  it("when asked for --help, then every command is listed; a command's --help lists its own flags", async () => {
    const help = expectCode(await kanban(['--help']), 0).stdout;
    for (const command of [
      'list',
      'show',
      'add',
      'edit',
      'move',
      'delete',
      'restore',
      'transfer',
      'comment',
      'comments',
      'log',
      'attach',
      'boards',
      'columns',
      'labels',
      'settings',
      'webhooks',
      'storage',
      'init',
      'serve',
      'mcp',
      'api',
      'completion',
    ]) {
      assert.match(help, new RegExp(`^  ${command} `, 'm'), command);
    }
    const add = expectCode(await kanban(['add', '--help']), 0).stdout;
    assert.match(add, /^usage: kanban add <title> \[flags\]/);
    for (const flag of [
      '--body',
      '--status',
      '--priority',
      '--assignee',
      '--due',
      '--label',
      '--meta',
      '--dir',
      '--url',
      '--json',
    ])
      assert.match(add, new RegExp(`${flag}\\b`), flag);
    assert.equal(
      expectCode(await kanban(['help', 'move']), 0).stdout,
      expectCode(await kanban(['move', '-h']), 0).stdout,
    );
    assert.match(expectCode(await kanban(['list', '--help']), 0).stdout, /--label-group .*--include-deleted/s);
  });

  it("when the command line is wrong, then exit 2 with the reason and the command's help on stderr, and nothing is written", async () => {
    const cases: [string[], RegExp][] = [
      [['add'], /add needs <title>/],
      [['add', 'x', '--colour', 'red'], /unknown flag --colour/],
      [['move', 'a'], /move needs <id> <status>/],
      [['move', 'a', 'todo', '--position', 'first'], /--position must be a whole number/],
      [['edit', 'a'], /nothing to change/],
      [['show', 'a', 'b'], /unexpected "b"/],
      [['frobnicate'], /no command "frobnicate"/],
      [['api', 'get-nothing'], /no operation "get-nothing"/],
      [['api', 'put-label', 'bug'], /put-label needs --color/],
      [['add', 'x', '--status'], /--status needs a value/],
    ];
    for (const [args, message] of cases) {
      const run = expectCode(await kanban([...args, '--dir', root]), 2);
      assert.match(run.stderr, message, args.join(' '));
      assert.match(run.stderr, /usage: kanban/, `${args.join(' ')} shows help`);
      assert.equal(run.stdout, '');
    }
    assert.deepEqual(await listFiles(root), []);
  });

  describe('with a server running on the folder', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await startTestServer({ root });
    });
    afterEach(async () => server.running.close());

    it("when a change is asked in-process, then it is refused naming the server's URL and --url; a read goes ahead with a note", async () => {
      const before = await listFiles(root);
      const refused = expectCode(await kanban(['add', 'Racing the server', '--dir', root]), 1);
      assert.match(refused.stderr, new RegExp(`serving .* at ${server.url.replace(/[.]/g, '\\.')}`));
      assert.match(refused.stderr, new RegExp(`--url ${server.url.replace(/[.]/g, '\\.')}`));
      assert.deepEqual(await listFiles(root), before);
      const read = expectCode(await kanban(['list', '--dir', root]), 0);
      assert.match(read.stderr, /note: a kanban server .* is serving this folder/);
      assert.match(read.stdout, /no cards/);
      // The way it suggests works.
      const through = expectCode(await kanban(['add', 'Through the server', '--url', server.url]), 0);
      assert.match(through.stdout, /created through-the-server-/);
      assert.equal((await server.api('GET', '/api/tasks')).body?.data.length, 1);
    });

    it('when the server stops, then its note goes and in-process changes work again', async () => {
      await server.running.close();
      expectCode(await kanban(['add', 'After the server', '--dir', root]), 0);
      server = await startTestServer({ root });
    });

    it('when the note names a process that is gone, then it is ignored', async () => {
      await server.running.close();
      const note = path.join(root, '.kanban', '.state', 'server.json');
      await fs.writeFile(
        note,
        JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:1', started: new Date().toISOString() }),
      );
      const run = expectCode(await kanban(['add', 'Stale note', '--dir', root]), 0);
      assert.equal(run.stderr, '');
      server = await startTestServer({ root });
    });
  });

  it('when kanban serve runs, then it serves the folder, records itself while it runs, and removes the record on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--dir', root, '--port', '0'], {
      env: cleanEnv({ PORT: undefined, HOST: undefined }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const ready = /board and API on (http:\/\/\S+) /.exec(stdout);
          if (ready && stdout.includes('ready in')) resolve(ready[1]);
        });
        void exited.then((code) => reject(new Error(`kanban serve exited (${code}) before it was ready: ${stdout}`)));
      });
      const note = JSON.parse(await fs.readFile(path.join(root, '.kanban', '.state', 'server.json'), 'utf8'));
      assert.deepEqual([note.pid, note.url], [child.pid, url]);
      expectCode(await kanban(['add', 'Served', '--url', url]), 0);
      assert.equal(jsonOf(await kanban(['list', '--json', '--url', url]))[0].title, 'Served');
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.equal(
        await fs.stat(path.join(root, '.kanban', '.state', 'server.json')).then(
          () => true,
          () => false,
        ),
        false,
      );
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('when no folder is given, then the nearest folder above with .kanban.json is used', async () => {
    expectCode(await kanban(['init', '--dir', root]), 0);
    const deeper = path.join(root, 'src', 'deep');
    await fs.mkdir(deeper, { recursive: true });
    expectCode(await kanban(['add', 'From a subfolder'], { cwd: deeper }), 0);
    assert.equal(jsonOf(await kanban(['list', '--json', '--dir', root]))[0].title, 'From a subfolder');
  });

  describe('generated operations', () => {
    it('when the route table is read, then every route is one operation with a unique name, listed by kanban api', async () => {
      const ops = operations();
      assert.equal(ops.length, allRoutes.length);
      assert.equal(new Set(ops.map((o) => o.name)).size, ops.length);
      const listing = expectCode(await kanban(['api']), 0).stdout;
      for (const op of ops)
        assert.match(
          listing,
          new RegExp(`^  ${op.name} +${op.route.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
          op.name,
        );
    });

    it('when an operation has no hand-written command, then its flags come from the route and it works in both modes', async () => {
      const help = expectCode(await kanban(['api', 'put-label', '--help']), 0).stdout;
      assert.match(help, /PUT \/api\/labels\/\{name\}/);
      assert.match(help, /--color <text> +hex color \(required\)/);
      assert.match(help, /--if-match <etag>/);
      const defined = jsonOf(
        await kanban(['api', 'put-label', 'urgent', '--color', '#ff0000', '--group', 'type', '--json', '--dir', root]),
      );
      assert.deepEqual(defined, { urgent: { color: '#ff0000', group: 'type' } });
      const server = await startTestServer({ root });
      try {
        assert.deepEqual((await server.api('GET', '/api/labels')).body?.data, defined);
        const renamed = jsonOf(
          await kanban(['api', 'patch-label', 'urgent', '--new-name', 'asap', '--json', '--url', server.url]),
        );
        assert.deepEqual(renamed, (await server.api('GET', '/api/labels')).body?.data);
        assert.deepEqual(Object.keys(renamed), ['asap']);
        const workspace = jsonOf(await kanban(['api', 'get-workspace', '--json', '--url', server.url]));
        assert.deepEqual(workspace, (await server.api('GET', '/api/workspace')).body?.data);
        // Booleans take --no-<flag>, integers are checked, whole bodies come from --data.
        assert.equal(
          jsonOf(await kanban(['api', 'put-settings', '--no-show-labels', '--json', '--url', server.url])).showLabels,
          false,
        );
        const card = jsonOf(
          await kanban([
            'api',
            'post-tasks',
            '--data',
            '{"content":"# From JSON\\n","priority":"low"}',
            '--labels',
            'a,b',
            '--json',
            '--url',
            server.url,
          ]),
        );
        assert.deepEqual([card.title, card.priority, card.labels], ['From JSON', 'low', ['a', 'b']]);
        const moved = jsonOf(
          await kanban([
            'api',
            'patch-task-move',
            'from-json',
            '--status',
            'done',
            '--position',
            '0',
            '--json',
            '--url',
            server.url,
          ]),
        );
        assert.equal(moved.status, 'done');
        expectCode(
          await kanban([
            'api',
            'patch-task-move',
            'from-json',
            '--status',
            'done',
            '--position',
            'top',
            '--url',
            server.url,
          ]),
          2,
        );
        const stale = expectCode(
          await kanban([
            'api',
            'put-task',
            'from-json',
            '--priority',
            'high',
            '--if-match',
            '"stale"',
            '--url',
            server.url,
          ]),
          1,
        );
        assert.match(stale.stderr, /changed since you read it/);
        // A file answer has the same shape whichever way it travelled.
        const file = path.join(root, 'note.txt');
        await fs.writeFile(file, 'attached\n');
        expectCode(await kanban(['attach', 'from-json', file, '--url', server.url]), 0);
        const download = ['api', 'get-task-attachment', 'from-json', 'note.txt', '--json'];
        const viaServer = jsonOf(await kanban([...download, '--url', server.url]));
        assert.equal(Buffer.from(viaServer.base64, 'base64').toString('utf8'), 'attached\n');
        assert.deepEqual(jsonOf(await kanban([...download, '--dir', root])), viaServer);
      } finally {
        await server.running.close();
      }
    });
  });

  describe('colour', () => {
    beforeEach(async () => {
      expectCode(await kanban(['add', 'Coloured', '--priority', 'critical', '--label', 'bug', '--dir', root]), 0);
    });

    it('when output is piped, then there are no escape codes', async () => {
      const run = expectCode(await kanban(['list', '--dir', root]), 0);
      assert.match(run.stdout, /critical/);
      assert.ok(!run.stdout.includes(ESCAPE), run.stdout);
    });

    it('when colour is forced, then priority and labels are coloured; NO_COLOR turns it off again', async () => {
      const coloured = expectCode(await kanban(['list', '--dir', root], { env: { FORCE_COLOR: '1' } }), 0).stdout;
      assert.ok(coloured.includes(`${ESCAPE}1;31mcritical${ESCAPE}0m`), coloured);
      assert.ok(coloured.includes(`${ESCAPE}36mbug${ESCAPE}0m`), coloured);
      const plainText = expectCode(
        await kanban(['list', '--dir', root], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }),
        0,
      ).stdout;
      assert.ok(!plainText.includes(ESCAPE), plainText);
      assert.equal(plainText, expectCode(await kanban(['list', '--dir', root]), 0).stdout);
    });
  });

  it('when init runs in an empty folder, then .kanban.json holds the defaults and .kanban/.state/ is git-ignored; a second init is refused', async () => {
    const run = expectCode(await kanban(['init', '--dir', root]), 0);
    assert.match(
      run.stdout,
      /created .*\.kanban\.json: board "default" with columns backlog, todo, in-progress, review, done/,
    );
    const config = JSON.parse(await fs.readFile(path.join(root, '.kanban.json'), 'utf8'));
    assert.equal(config.version, 2);
    assert.deepEqual(
      config.boards.map((b: any) => b.id),
      ['default'],
    );
    assert.equal(config.settings.defaultPriority, 'medium');
    assert.match(await fs.readFile(path.join(root, '.kanban', '.gitignore'), 'utf8'), /^\.state\/$/m);
    const text = await fs.readFile(path.join(root, '.kanban.json'), 'utf8');
    const again = expectCode(await kanban(['init', '--dir', root]), 1);
    assert.match(again.stderr, /already exists; nothing was changed/);
    assert.equal(await fs.readFile(path.join(root, '.kanban.json'), 'utf8'), text);
    // The service reads what init wrote.
    assert.deepEqual(
      jsonOf(await kanban(['boards', '--json', '--dir', root])).map((b: any) => b.id),
      ['default'],
    );
  });

  it('when the bash completion script is loaded, then bash completes commands, operations and flags', async () => {
    const script = expectCode(await kanban(['completion', 'bash']), 0).stdout;
    const complete = async (line: string) => {
      const words = line.split(' ');
      const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _kanban; printf '%s\\n' "\${COMPREPLY[@]}"`;
      return expectCode(await sh('bash', ['-c', program]), 0)
        .stdout.trim()
        .split('\n');
    };
    assert.deepEqual(await complete('kanban li'), ['list']);
    assert.deepEqual(await complete('kanban api put-la'), ['put-label']);
    assert.ok((await complete('kanban move x --po')).includes('--position'));
    assert.ok((await complete('kanban --dir /tmp list --inc')).includes('--include-deleted'));
    assert.ok((await complete('kanban api put-settings --no-show-l')).includes('--no-show-labels'));
    assert.ok((await complete('kanban mcp --read')).includes('--read-only'));
    assert.deepEqual(await complete('kanban mcp --toolsets a'), ['automation', 'admin', 'all']);
    const zsh = expectCode(await kanban(['completion', 'zsh']), 0).stdout;
    assert.match(zsh, /bashcompinit/);
    expectCode(await kanban(['completion', 'fish']), 2);
  });

  it('when a migration runs on a terminal, then a bar shows each step up to every card copied', async () => {
    const folder = path.join(root, '.kanban', 'boards', 'default', 'backlog');
    await fs.mkdir(folder, { recursive: true });
    for (let i = 1; i <= 30; i++)
      await fs.writeFile(
        path.join(folder, `card-${i}.md`),
        `---\nid: card-${i}\nstatus: backlog\n---\n\n# Card ${i}\n`,
      );
    // `script` gives the command a terminal, as a person at a shell has.
    const command = [process.execPath, CLI, 'storage', 'migrate-to-sqlite', '--dir', root]
      .map((a) => `'${a}'`)
      .join(' ');
    const run = expectCode(await sh('script', ['-qec', command, '/dev/null']), 0);
    assert.match(run.stdout, /moving every card to SQLite \(all or nothing\)/);
    assert.match(run.stdout, /reading the cards \[#{24}\] 100%/);
    assert.match(run.stdout, /copying cards \[#{24}\] 100% 30\/30/);
    assert.match(run.stdout, /checking the copy \[#{24}\] 100%/);
    assert.match(run.stdout, /done after [\d.]+ s/);
    assert.match(run.stdout, /moved 30 card\(s\)/);
  });

  it('when KANBAN_PROGRESS=always, then the bar is drawn on a pipe too, and never silences a terminal', async () => {
    expectCode(await kanban(['add', 'Migrated', '--dir', root]), 0);
    const drawn = expectCode(
      await kanban(['storage', 'migrate-to-sqlite', '--dir', root], { env: { KANBAN_PROGRESS: 'always' } }),
      0,
    );
    assert.match(drawn.stderr, /copying cards \[#{24}\] 100%/);
    const command = [process.execPath, CLI, 'storage', 'migrate-to-markdown', '--dir', root]
      .map((a) => `'${a}'`)
      .join(' ');
    const quiet = expectCode(await sh('script', ['-qec', `KANBAN_PROGRESS=never ${command}`, '/dev/null']), 0);
    assert.doesNotMatch(quiet.stdout, /copying cards|moving every card/);
    assert.match(quiet.stdout, /moved 1 card\(s\)/);
  });
});
