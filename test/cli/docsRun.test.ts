import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { docBlocks, pagePath } from './docBlocks';
import { CLI, REPO, buildCli, cleanEnv } from './helpers';
import { GIT_ENV, git } from './startRepo';

/**
 * Every ```sh block of README.md and docs/*.md runs as written: page by page, in order, with bash in
 * a fresh git repository, `kanban` on the PATH. A block that cannot run here (an install, an
 * editor, a long-running server) is fenced as ```text in the page instead.
 */

/** Pages whose examples a test of their own runs, checking what each command did as well. */
const COVERED_ELSEWHERE: Record<string, string> = {
  'start.md': 'test/cli/startDocs.test.ts',
  'agents.md': 'test/cli/agentsDocs.test.ts',
};

/** The pages with shell examples, each run here unless a test of its own runs it. */
const PAGES = [
  'README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort(),
]
  .filter((page) => !(page in COVERED_ELSEWHERE))
  .filter((page) => readFileSync(pagePath(page), 'utf8').includes('```sh\n'));

/** The address the examples call; a page that names it gets a server of its own on the same folder. */
const EXAMPLE_SERVER = /\b(?:localhost|127\.0\.0\.1):3000\b/;

interface Shell {
  tmp: string;
  root: string;
  env: NodeJS.ProcessEnv;
}

/**
 * A fresh repository with one commit and no board, as a user's project before `kanban init`, and a
 * bin folder holding `kanban` (the built dist/cli.js) and a `curl` that fails on an HTTP error, so an
 * example the API refuses fails its block as a refused command does.
 */
async function freshShell(): Promise<Shell> {
  const tmp = await makeTempDir('kanban-docs-');
  const root = path.join(tmp, 'project');
  const bin = path.join(tmp, 'bin');
  await fs.mkdir(root);
  await fs.mkdir(bin);
  await fs.writeFile(path.join(bin, 'kanban'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
    mode: 0o755,
  });
  await fs.writeFile(path.join(bin, 'curl'), '#!/bin/sh\nexec /usr/bin/curl --fail-with-body "$@"\n', { mode: 0o755 });
  await fs.writeFile(path.join(root, 'README.md'), '# A project\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.email', 'ada@example.com');
  git(root, 'config', 'user.name', 'ada');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'A project');
  return { tmp, root, env: cleanEnv({ ...GIT_ENV, PATH: `${bin}:${process.env.PATH}` }) };
}

function bash(block: string, shell: Shell): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-e', '-o', 'pipefail', '-c', block],
      { cwd: shell.root, env: shell.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const tail = (text: string) => text.slice(-2000);

describe('the shell examples of README.md and docs/ run as written', function () {
  this.timeout(240_000);

  before(() => buildCli());

  it('when the pages are listed, then the tour, the CLI and the API are run here, and the tests of the other pages exist', async () => {
    for (const [page, test] of Object.entries(COVERED_ELSEWHERE)) {
      assert.ok((await docBlocks(page, 'sh')).length > 0, `${page} has no sh block for ${test} to run`);
      await fs.access(path.join(REPO, test));
    }
    for (const page of ['README.md', 'cli.md', 'api.md'])
      assert.ok(PAGES.includes(page), `${page} not among ${PAGES.join(', ')}`);
  });

  for (const page of PAGES) {
    it(`when the sh blocks of ${page} run in order in a fresh repository, then each exits 0`, async () => {
      const blocks = await docBlocks(page, 'sh');
      const shell = await freshShell();
      let server: TestServer | undefined;
      try {
        if (blocks.some((block) => EXAMPLE_SERVER.test(block))) {
          server = await startTestServer({ root: shell.root, server: { watch: false } });
          shell.env.KANBAN_URL = server.url;
        }
        const address = server ? server.url.replace(/^http:\/\//, '') : '';
        for (const [index, block] of blocks.entries()) {
          const run = await bash(
            server ? block.replace(new RegExp(EXAMPLE_SERVER.source, 'g'), address) : block,
            shell,
          );
          assert.equal(
            run.code,
            0,
            `${page}, sh block ${index + 1} exited ${run.code}:\n${block}\nstdout: ${tail(run.stdout)}\nstderr: ${tail(run.stderr)}`,
          );
        }
      } finally {
        await server?.running.close();
        await fs.rm(shell.tmp, { recursive: true, force: true });
      }
    });
  }
});
