import { strict as assert } from 'node:assert';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { makeTempDir, startTestServer } from '../helpers/testServer';
import { buildServerBundle, runBuiltServer, type BuiltServerRun } from '../storage/helpers/builtServer';
import { VIEWER_TOKEN_ENV, authConfig, bearer, makeTokens } from './helpers/authWorkspace';

const MB = 1024 * 1024;
const BODY_BYTES = 60 * MB;

interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/**
 * POST a body of `totalBytes` without ever holding it: 64 KiB chunks are written as the socket
 * takes them, until the server answers. After the answer the server may close the connection
 * while we are still writing; that error is expected and ignored.
 */
function streamBody(
  baseUrl: string,
  urlPath: string,
  totalBytes: number,
  options: { chunked: boolean; headers?: Record<string, string>; stallAfter?: number },
): Promise<StreamedAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', ...options.headers };
  if (!options.chunked) headers['content-length'] = totalBytes;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, method: 'POST', path: urlPath, headers, agent: false });
    let sent = 0;
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.on('data', (data: Buffer) => (text += data.toString()));
      response.on('end', () => {
        request.destroy();
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = { unparsed: text.slice(0, 200) };
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
    request.on('error', (error) => {
      if (!answered) reject(new Error(`no answer after ${sent} bytes: ${error.message}`));
    });
    // With `stallAfter`, the client stops sending part way and only waits: an answer can then
    // only come from a server that did not wait for the body.
    const limit = Math.min(totalBytes, options.stallAfter ?? totalBytes);
    const pump = () => {
      while (!answered && sent < limit) {
        const piece = chunk.subarray(0, Math.min(chunk.length, totalBytes - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once('drain', pump);
      }
      if (!answered && sent >= totalBytes) request.end();
    };
    pump();
  });
}

/**
 * Anonymous resident memory of a process in bytes (Linux /proc): heap and buffers, where a body
 * held by the server would be. File-backed pages (the node binary's code, paged in as new paths
 * first run, or again after the kernel dropped them on a busy machine) are left out: they are no
 * body and made this check fail under load.
 */
function memoryOf(pid: number): { rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: Number(/^RssAnon:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) * 1024 };
}

describe('Auth: an unauthenticated request is refused before its body is read', function () {
  this.timeout(120_000);
  const tokens = makeTokens();
  let root: string;
  let run: BuiltServerRun;
  let url: string;

  before(async function () {
    if (!existsSync('/proc/self/status')) {
      console.log('      skipped: the memory check reads /proc/<pid>/status, which this system does not have');
      this.skip();
    }
    buildServerBundle();
    root = await makeTempDir();
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(authConfig(tokens), null, 2));
    // The server runs in its own process, so its memory is not mixed with the test's.
    run = await runBuiltServer(root, { env: { [VIEWER_TOKEN_ENV]: tokens.viewer } });
    assert.ok(run.url, 'the built server did not start');
    url = run.url;
  });

  after(async () => {
    const ended = await run?.stop();
    if (root) await fs.rm(root, { recursive: true, force: true });
    assert.doesNotMatch(ended?.stderr ?? '', /unexpected error/, 'the server logged an unexpected error');
  });

  it('when four 60 MB bodies are streamed without a token, then each gets 401 and the server never holds a body', async () => {
    // Warm up: load the code paths once, so first-use allocations are not counted as growth.
    const warm = await streamBody(url, '/api/tasks', 2 * MB, { chunked: false });
    assert.equal(warm.status, 401);
    const created = await fetch(`${url}/api/tasks`, {
      method: 'POST',
      headers: { ...bearer(tokens.editor), 'content-type': 'application/json' },
      body: '{"content":"# Warm"}',
    });
    assert.equal(created.status, 201);

    const before = memoryOf(run.pid);
    let highest = before.rss;
    const sampler = setInterval(() => (highest = Math.max(highest, memoryOf(run.pid).rss)), 5);
    const answers: StreamedAnswer[] = [];
    try {
      for (const chunked of [false, true, false, true])
        answers.push(await streamBody(url, '/api/tasks', BODY_BYTES, { chunked }));
    } finally {
      clearInterval(sampler);
    }
    const after = memoryOf(run.pid);

    for (const [i, answer] of answers.entries()) {
      const context = `upload ${i + 1}: ${answer.status} ${JSON.stringify(answer.body)}`;
      assert.equal(answer.status, 401, context);
      assert.deepEqual(
        answer.body,
        { ok: false, error: 'authentication required: send the header "Authorization: Bearer <token>"' },
        context,
      );
      assert.equal(answer.headers.connection, 'close', `${context}: the refused upload should not be read to its end`);
    }
    const peak = Math.max(highest, after.rss);
    const growth = peak - before.rss;
    // A held body would cost its 60 MB at least. The server stops reading a refused body at the
    // answer, so what the client still sends never passes through it (0.1-0.2 MB measured).
    assert.ok(
      growth < 20 * MB,
      `server memory grew by ${(growth / MB).toFixed(1)} MB (from ${(before.rss / MB).toFixed(1)} MB)`,
    );
  });

  it('when a 60 MB upload to the attachment route (limit 64 MB) has an unknown token, then 401 comes before the body is read', async () => {
    const before = memoryOf(run.pid);
    const answer = await streamBody(url, '/api/tasks/warm/attachments', BODY_BYTES, {
      chunked: false,
      headers: bearer(tokens.bad),
      stallAfter: MB,
    });
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.equal(answer.body.error, 'the bearer token is not recognised');
    assert.ok(memoryOf(run.pid).rss - before.rss < 20 * MB);
  });

  it('when a viewer streams a large body to a write route, then 403 comes before the body is read', async () => {
    const answer = await streamBody(url, '/api/tasks', BODY_BYTES, {
      chunked: true,
      headers: bearer(tokens.viewer),
      stallAfter: MB,
    });
    assert.equal(answer.status, 403, JSON.stringify(answer.body));
    assert.match(answer.body.error, /role "viewer" may not POST \/tasks/);
  });

  it('when an upload without a token stalls after 1 MB of a declared 60 MB, then 401 comes anyway, so nothing waited for the body', async () => {
    for (const chunked of [false, true]) {
      const answer = await streamBody(url, '/api/tasks', BODY_BYTES, { chunked, stallAfter: MB });
      assert.equal(answer.status, 401, JSON.stringify(answer.body));
      assert.equal(answer.headers.connection, 'close');
    }
  });

  it('when the refused uploads are over, then the server still answers authenticated requests', async () => {
    const response = await fetch(`${url}/api/tasks`, { headers: bearer(tokens.viewer) });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).data.length, 1);
  });
});

describe('Auth: the identity provider is asked once per request', () => {
  it('when an editor creates a card, then the provider identifies the token once, not again after the body is read', async () => {
    const root = await makeTempDir();
    // A workspace-relative provider that counts its calls where the test can see them.
    await fs.writeFile(
      path.join(root, 'counting-provider.js'),
      'exports.createIdentityProvider = () => ({ id: "counting", identify(c) { globalThis.__kanbanIdentifyCalls = (globalThis.__kanbanIdentifyCalls ?? 0) + 1; return c.token === "ed" ? { subject: "eddie", role: "editor" } : null; } });\n',
    );
    const server = await startTestServer({
      root,
      config: { version: 2, plugins: { 'auth.identity': { provider: './counting-provider.js', options: {} } } },
    });
    const calls = () => (globalThis as { __kanbanIdentifyCalls?: number }).__kanbanIdentifyCalls ?? 0;
    try {
      const before = calls();
      const created = await server.api('POST', '/api/tasks', { content: '# Counted' }, bearer('ed'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(calls() - before, 1);
    } finally {
      await server.close();
      delete (globalThis as { __kanbanIdentifyCalls?: number }).__kanbanIdentifyCalls;
    }
  });
});
