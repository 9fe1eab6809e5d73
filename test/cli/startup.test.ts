import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { buildCli, CLI, cleanEnv, expectCode, REPO, type Run } from './helpers';

/**
 * dist/cli.js is a small bin over parts (esbuild.mjs): these check which parts a command line
 * loads, from the files in Node's require.cache when the process exits, so a change that pulls the
 * whole command into `kanban --version`, or the server into `kanban list`, fails here.
 */
describe('kanban start-up: a command loads only the parts of dist/ it uses', function () {
  this.timeout(90_000);
  let root: string;
  let hook: string;

  before(async () => {
    buildCli();
    root = await makeTempDir('kanban-startup-');
    hook = path.join(root, 'report-loaded.js');
    await fs.writeFile(
      hook,
      `process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n`,
    );
  });
  after(() => fs.rm(root, { recursive: true, force: true }));

  /** The command, and the files of dist/ it loaded, by name. */
  function kanbanLoading(args: string[]): Promise<Run & { loaded: string[] }> {
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['--require', hook, CLI, ...args],
        { cwd: root, env: cleanEnv({ KANBAN_WORKSPACE: root }) },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') return reject(error);
          const report = /\nLOADED (.*)\n$/.exec(stderr);
          if (!report) return reject(new Error(`no list of loaded modules; stderr: ${stderr}`));
          const dist = path.join(REPO, 'dist');
          const loaded = (JSON.parse(report[1]) as string[])
            .filter((file) => path.dirname(file) === dist)
            .map((file) => path.basename(file))
            .sort();
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr: stderr.slice(0, report.index), loaded });
        },
      );
    });
  }

  it('when asked for --version or --help, then the bin answers alone, as the whole command would', async () => {
    const { version } = JSON.parse(await fs.readFile(path.join(REPO, 'package.json'), 'utf8'));
    const versionRun = expectCode(await kanbanLoading(['--version']), 0);
    assert.equal(versionRun.stdout, `${version}\n`);
    assert.deepEqual(versionRun.loaded, ['cli.js']);
    const helpRun = expectCode(await kanbanLoading(['--help']), 0);
    assert.deepEqual(helpRun.loaded, ['cli.js']);
    // The same text as the command's own help, which `--json --help` still reaches.
    const fullHelp = expectCode(await kanbanLoading(['--json', '--help']), 0);
    assert.ok(fullHelp.loaded.includes('cli-main.js'), `loaded ${fullHelp.loaded.join(', ')}`);
    assert.equal(helpRun.stdout, fullHelp.stdout);
  });

  it('when everyday commands run, then neither the server, the MCP SDK nor a storage driver is loaded', async () => {
    expectCode(await kanbanLoading(['init']), 0);
    const added = expectCode(await kanbanLoading(['--json', 'add', 'Lean start']), 0);
    const id = JSON.parse(added.stdout).id as string;
    for (const args of [
      ['list', '--limit', '20'],
      ['show', id],
      ['move', id, 'in-progress'],
    ]) {
      const run = expectCode(await kanbanLoading(args), 0);
      assert.deepEqual(run.loaded, ['cli-main.js', 'cli-usage.js', 'cli.js'], args.join(' '));
    }
  });

  it('when kanban serve is asked for its usage, then its own part is loaded', async () => {
    const run = expectCode(await kanbanLoading(['serve', '--help']), 0);
    assert.match(run.stdout, /^usage: kanban serve/);
    assert.ok(run.loaded.includes('cli-serve.js'), `loaded ${run.loaded.join(', ')}`);
    assert.ok(!run.loaded.includes('cli-mcp.js'));
  });
});
