import { strict as assert } from 'node:assert';
import { spawn, execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer, UnsafeBindError } from '../../server/server';
import { makeTempDir, startTestServer } from '../helpers/testServer';
import { rawRequest } from '../helpers/envelope';
import { authConfig, makeTokens, send, VIEWER_TOKEN_ENV } from './helpers/authWorkspace';

const REPO = path.resolve(__dirname, '../..');
const SERVER_BUNDLE = path.join(REPO, 'dist', 'server.js');

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the built server. It is stopped with SIGTERM as soon as it says it is ready (or after
 * `timeoutMs`), so a server that does start never keeps a public port open for long.
 */
function runServer(args: string[], readyText = 'ready in', timeoutMs = 15_000): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_BUNDLE, ...args], {
      cwd: REPO,
      env: { ...process.env, HOST: '', PORT: '' },
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // main.ts installs its SIGTERM handler just after the ready lines; give it a moment.
      if (stdout.includes(readyText)) setTimeout(() => child.kill('SIGTERM'), 200);
    });
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('Auth: secure defaults', function () {
  this.timeout(60_000);
  const tokens = makeTokens();
  let root: string;

  before(() => {
    // The child-process tests run the bundle, so build it from the current sources first.
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'pipe' });
  });
  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(async () => {
    delete process.env[VIEWER_TOKEN_ENV];
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when startServer is asked for 0.0.0.0 without an auth provider, then it refuses with a message naming the way out', async () => {
    await assert.rejects(startServer({ root, host: '0.0.0.0', port: 0 }), (error: Error) => {
      assert.ok(error instanceof UnsafeBindError);
      assert.match(error.message, /refusing to serve 0\.0\.0\.0/);
      assert.match(error.message, /plugins\["auth\.identity"\]/);
      assert.match(error.message, /--allow-unauthenticated/);
      return true;
    });
  });

  it('when startServer is asked for 0.0.0.0 with allowUnauthenticated, then it binds (and is closed at once)', async () => {
    const running = await startServer({ root, host: '0.0.0.0', port: 0, allowUnauthenticated: true, watch: false });
    try {
      assert.equal((running.server.address() as { address: string }).address, '0.0.0.0');
    } finally {
      await running.close();
    }
  });

  it('when startServer is asked for 0.0.0.0 with an auth provider configured, then it binds (and is closed at once)', async () => {
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(authConfig(tokens)));
    const running = await startServer({ root, host: '0.0.0.0', port: 0, watch: false });
    try {
      assert.equal((running.server.address() as { address: string }).address, '0.0.0.0');
      assert.equal((await fetch(`http://127.0.0.1:${running.port}/api/boards`)).status, 401);
    } finally {
      await running.close();
    }
  });

  it('when no host is given, then the server binds 127.0.0.1 only', async () => {
    const running = await startServer({ root, port: 0, watch: false });
    try {
      assert.equal((running.server.address() as { address: string }).address, '127.0.0.1');
    } finally {
      await running.close();
    }
  });

  it('when the built server is started with --host 0.0.0.0 and no auth, then it exits with code 1 and says why on stderr', async () => {
    const run = await runServer(['--dir', root, '--host', '0.0.0.0', '--port', '0']);
    assert.equal(run.code, 1, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
    assert.match(run.stderr, /refusing to serve 0\.0\.0\.0.*--allow-unauthenticated/s);
    assert.doesNotMatch(run.stdout, /board and API on/);
  });

  it('when the built server is started with --host 0.0.0.0 --allow-unauthenticated, then it starts (and is stopped at once)', async () => {
    const run = await runServer(['--dir', root, '--host', '0.0.0.0', '--port', '0', '--allow-unauthenticated']);
    assert.match(run.stdout, /board and API on http:\/\/0\.0\.0\.0:\d+/);
    assert.equal(run.code, 0, run.stderr);
  });

  it('when the built server is started without --host, then it announces 127.0.0.1', async () => {
    const run = await runServer(['--dir', root, '--port', '0']);
    assert.match(run.stdout, /board and API on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('when a token in .kanban.json has an unknown role, then the built server refuses to start and names the setting, not the token', async () => {
    const secret = 'startup-secret-5c1d2e3f';
    await fs.writeFile(
      path.join(root, '.kanban.json'),
      JSON.stringify({
        version: 2,
        plugins: {
          'auth.identity': { provider: 'token', options: { tokens: [{ token: secret, subject: 'x', role: 'owner' }] } },
        },
      }),
    );
    const run = await runServer(['--dir', root, '--port', '0']);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /plugins\["auth\.identity"\]\.options\.tokens\[0\]\.role must be one of viewer, editor, admin/,
    );
    assert.ok(!run.stderr.includes(secret) && !run.stdout.includes(secret));
  });

  describe('with auth on', () => {
    beforeEach(() => {
      process.env[VIEWER_TOKEN_ENV] = tokens.viewer;
    });

    it('when a request names a foreign Host (DNS rebinding), then it is refused with 403 even with a valid token', async () => {
      const server = await startTestServer({ config: authConfig(tokens) });
      try {
        const answer = await rawRequest(server, 'GET', '/api/boards', {
          headers: { host: 'attacker.example:80', authorization: `Bearer ${tokens.admin}` },
        });
        assert.equal(answer.status, 403);
        assert.match(answer.body.error, /attacker\.example/);
      } finally {
        await server.close();
      }
    });

    it('when an editor sends a body over the limit, then 413 with the envelope and nothing is created', async () => {
      const server = await startTestServer({ config: authConfig(tokens) });
      try {
        const answer = await send(server, 'POST', '/api/tasks', {
          token: tokens.editor,
          body: { content: `# Big\n${'x'.repeat(1_100_000)}` },
        });
        assert.equal(answer.status, 413);
        assert.equal(answer.body.ok, false);
        assert.deepEqual((await send(server, 'GET', '/api/tasks', { token: tokens.editor })).body.data, []);
      } finally {
        await server.close();
      }
    });
  });
});
