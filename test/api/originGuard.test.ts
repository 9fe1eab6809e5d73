import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import WebSocket from 'ws';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, listIds, okData, rawRequest } from '../helpers/envelope';
import { eventually } from '../helpers/waiting';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import { buildServerBundle, runBuiltServer } from '../storage/helpers/builtServer';

const FOREIGN = 'https://evil.example';
/** What a plain HTML form or a no-preflight fetch can send from any page. */
const simple = (origin: string) => ({ 'content-type': 'text/plain', origin });

/** The status an upgrade gets (101 when the socket opens) and the body of a refusal. */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
        socket.terminate();
      });
    });
    socket.on('open', () => {
      resolve({ status: 101, body: '' });
      socket.terminate();
    });
    socket.on('error', (error) => {
      // ws reports an error after unexpected-response too; only an error before any answer counts.
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

async function cardFiles(server: TestServer): Promise<string[]> {
  return (await listFiles(path.join(server.root, '.kanban'))).filter((f) => f.endsWith('.md'));
}

describe('Origin guard: web pages of other sites cannot change the board', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ server: { allowedOrigins: ['http://localhost:5173'] } });
  });
  after(async () => {
    await server?.close();
  });

  it('when a foreign page posts a simple text/plain create, then 403 names the origin and --allow-origin, and no card is created', async () => {
    const answer = await server.raw('POST', '/api/tasks', '{"content":"# Planted by a web page"}', simple(FOREIGN));
    const message = failsWith(answer, 403, /evil\.example/);
    assert.match(message, /--allow-origin https:\/\/evil\.example/);
    assert.match(message, /allowedOrigins/);
    assert.deepEqual(await listIds(server), []);
    assert.deepEqual(await cardFiles(server), []);
  });

  it('when a foreign page sends PUT, PATCH or DELETE, then each is 403 and the card is unchanged', async () => {
    const card = await createTask(server, 'Keep me');
    const before = okData(await server.api('GET', `/api/tasks/${card.id}`));
    failsWith(
      await server.raw('PUT', `/api/tasks/${card.id}`, '{"title":"Defaced"}', simple(FOREIGN)),
      403,
      /evil\.example/,
    );
    failsWith(
      await server.raw('PATCH', `/api/tasks/${card.id}/move`, '{"status":"done"}', simple(FOREIGN)),
      403,
      /evil\.example/,
    );
    failsWith(await server.raw('DELETE', `/api/tasks/${card.id}`, '', { origin: FOREIGN }), 403, /evil\.example/);
    failsWith(await server.raw('DELETE', `/api/tasks/${card.id}/permanent`, '', { origin: FOREIGN }), 403);
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${card.id}`)), before);
  });

  it('when the origin is "null" (a sandboxed page or a local file), then the write is refused as foreign', async () => {
    const revision = server.running.workspace.events.revision;
    failsWith(
      await server.raw('POST', '/api/tasks', '{"content":"# From a file"}', simple('null')),
      403,
      /sandboxed page or local file/,
    );
    assert.equal(server.running.workspace.events.revision, revision);
  });

  it('when a foreign page reads, then it still gets 200 with CORS open to every origin', async () => {
    const answer = await server.api('GET', '/api/tasks', undefined, { origin: FOREIGN });
    okData(answer);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  });

  it('when a refused write comes from a page, then the refusal carries CORS so the page can read why', async () => {
    const answer = await server.raw('POST', '/api/tasks', '{"content":"# x"}', simple(FOREIGN));
    assert.equal(answer.status, 403);
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  });

  it('when a request carries no Origin (curl, scripts, agents), then it is unaffected', async () => {
    okData(await server.raw('POST', '/api/tasks', '{"content":"# From curl"}', { 'content-type': 'text/plain' }), 201);
  });

  it("when the page is the server's own (the board UI), then writes pass, under 127.0.0.1 and under localhost", async () => {
    okData(await server.raw('POST', '/api/tasks', '{"content":"# From the board UI"}', simple(server.url)), 201);
    const port = server.running.port;
    const viaLocalhost = await rawRequest(server, 'POST', '/api/tasks', {
      headers: { ...simple(`http://localhost:${port}`), host: `localhost:${port}` },
      body: '{"content":"# Via localhost"}',
    });
    assert.equal(viaLocalhost.status, 201, viaLocalhost.text);
  });

  it("when the Origin names the server's host but another port, then it is foreign", async () => {
    const otherPort = `http://127.0.0.1:${server.running.port + 1}`;
    failsWith(await server.raw('POST', '/api/tasks', '{"content":"# x"}', simple(otherPort)), 403);
  });

  it('when the page is a VS Code webview, then writes pass', async () => {
    okData(
      await server.raw('POST', '/api/tasks', '{"content":"# From VS Code"}', simple('vscode-webview://1b2c3d4e5f')),
      201,
    );
  });

  it('when the origin was allowed with the allowedOrigins option (--allow-origin), then writes pass', async () => {
    okData(
      await server.raw('POST', '/api/tasks', '{"content":"# From the dev server"}', simple('http://localhost:5173')),
      201,
    );
  });

  it('when /api/docs/json is read, then every write lists 403 and 507 and no read lists 507', async () => {
    const doc = await (await fetch(`${server.url}/api/docs/json`)).json();
    let writes = 0;
    for (const [route, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = Object.keys(op.responses);
        if (method === 'get') assert.ok(!statuses.includes('507'), `GET ${route} lists 507`);
        else {
          writes++;
          assert.ok(
            statuses.includes('403') && statuses.includes('507'),
            `${method.toUpperCase()} ${route} lists ${statuses.join(', ')}`,
          );
        }
      }
    }
    assert.ok(writes > 50, `only ${writes} writes documented`);
  });

  describe('WebSocket upgrades', () => {
    it('when a foreign page opens /ws, then the upgrade is refused with 403 naming the origin and no socket is kept', async () => {
      const refused = await upgrade(wsUrl(server.url), { origin: FOREIGN });
      assert.equal(refused.status, 403);
      assert.match(JSON.parse(refused.body).error, /evil\.example.*--allow-origin/);
      assert.equal((await upgrade(wsUrl(server.url), { origin: 'null' })).status, 403);
      assert.equal(server.running.hub.connectionCount, 0);
    });

    it('when the socket carries no Origin, then it gets hello', async () => {
      const socket = await RecordingSocket.connect(wsUrl(server.url));
      try {
        assert.equal(socket.messages[0].type, 'hello');
      } finally {
        socket.close();
      }
    });

    it('when the socket comes from the own origin, a VS Code webview or an allowed origin, then it gets hello', async () => {
      for (const origin of [server.url, 'vscode-webview://1b2c3d4e5f', 'http://localhost:5173']) {
        const socket = await RecordingSocket.connect(wsUrl(server.url), { origin });
        socket.close();
      }
    });
  });
});

describe('Origin guard: origins allowed in .kanban.json', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      config: { version: 2, server: { allowedOrigins: ['https://dashboard.example'] } },
    });
  });
  after(async () => {
    await server?.close();
  });

  it('when .kanban.json lists an origin, then its writes and sockets pass and others are still refused', async () => {
    okData(
      await server.raw('POST', '/api/tasks', '{"content":"# From the dashboard"}', simple('https://dashboard.example')),
      201,
    );
    assert.equal((await upgrade(wsUrl(server.url), { origin: 'https://dashboard.example' })).status, 101);
    failsWith(await server.raw('POST', '/api/tasks', '{"content":"# x"}', simple(FOREIGN)), 403);
  });

  it('when .kanban.json is edited by hand to allow another origin, then it applies without a restart', async () => {
    const file = path.join(server.root, '.kanban.json');
    const config = JSON.parse(await fs.readFile(file, 'utf8'));
    config.server.allowedOrigins.push('https://ops.example');
    await fs.writeFile(file, JSON.stringify(config, null, 2));
    await eventually(async () => {
      okData(await server.raw('POST', '/api/tasks', '{"content":"# From ops"}', simple('https://ops.example')), 201);
    });
    assert.equal((await upgrade(wsUrl(server.url), { origin: 'https://ops.example' })).status, 101);
  });

  it('when an origin is taken out by hand again, then its writes are refused again', async () => {
    const file = path.join(server.root, '.kanban.json');
    const config = JSON.parse(await fs.readFile(file, 'utf8'));
    config.server.allowedOrigins = ['https://dashboard.example'];
    await fs.writeFile(file, JSON.stringify(config, null, 2));
    await eventually(async () => {
      failsWith(await server.raw('POST', '/api/tasks', '{"content":"# x"}', simple('https://ops.example')), 403);
    });
  });

  it('when a change through the API rewrites .kanban.json, then the server setting survives', async () => {
    okData(await server.api('PUT', '/api/settings', { compactMode: true }));
    const written = JSON.parse(await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8'));
    assert.deepEqual(written.server, { allowedOrigins: ['https://dashboard.example'] });
  });

  it('when .kanban.json has an origin with a path, then the server refuses to start and names the JSON path', async () => {
    const root = await makeTempDir();
    try {
      await fs.writeFile(
        path.join(root, '.kanban.json'),
        JSON.stringify({ server: { allowedOrigins: ['https://example.com/app'] } }),
      );
      await assert.rejects(startTestServer({ root }), /\$\.server\.allowedOrigins\[0\].*no path/);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});

describe('Origin guard: the --allow-origin flag of the built server', function () {
  this.timeout(60_000);
  let root: string;
  before(async () => {
    buildServerBundle();
    root = await makeTempDir();
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when the server is started with --allow-origin, then that origin may write and a foreign one may not', async () => {
    const run = await runBuiltServer(root, {
      args: ['--allow-origin', 'http://localhost:5173', '--allow-origin=https://tools.example'],
    });
    try {
      assert.ok(run.url, 'the built server did not start');
      const post = (origin: string) =>
        fetch(`${run.url}/api/tasks`, {
          method: 'POST',
          headers: simple(origin),
          body: '{"content":"# Via the flag"}',
        });
      assert.equal((await post('http://localhost:5173')).status, 201);
      assert.equal((await post('https://tools.example')).status, 201);
      const refused = await post(FOREIGN);
      assert.equal(refused.status, 403);
      assert.match((await refused.json()).error, /--allow-origin/);
    } finally {
      await run.stop();
    }
  });

  it('when --allow-origin is not an origin, then the server exits with code 2 and says why', async () => {
    const run = await runBuiltServer(root, { args: ['--allow-origin', 'localhost:5173/app'] });
    const { code, stderr } = await run.exited;
    assert.equal(run.url, null);
    assert.equal(code, 2);
    assert.match(stderr, /--allow-origin: "localhost:5173\/app" is not an origin/);
  });

  it('when --help is asked for, then the usage names --allow-origin', async () => {
    const run = await runBuiltServer(root, { args: ['--help'] });
    const { stdout } = await run.exited;
    assert.match(stdout, /--allow-origin <origin>/);
  });
});
