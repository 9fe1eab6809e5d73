import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { authConfig, makeTokens } from '../auth/helpers/authWorkspace';

const run = promisify(execFile);
const MB = 1024 * 1024;
/** Every byte value, twice: line ends, NUL and high bytes must survive the trip. */
const EVERY_BYTE = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));

async function curl(args: string[]): Promise<{ status: number; body: any }> {
  const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code}', ...args], { maxBuffer: 16 * MB });
  const cut = stdout.lastIndexOf('\n');
  const text = stdout.slice(0, cut);
  return { status: Number(stdout.slice(cut + 1)), body: text ? JSON.parse(text) : null };
}

async function download(server: TestServer, cardId: string, name: string): Promise<Buffer> {
  const response = await fetch(`${server.url}/api/tasks/${cardId}/attachments/${encodeURIComponent(name)}`);
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Sends a chunked multipart body that never ends: a file part, then `bytes` of its content, then
 * nothing more. Only a server that refuses while the body still streams can answer it.
 */
function streamWithoutEnd(server: TestServer, urlPath: string, bytes: number): Promise<{ status: number; body: any }> {
  const boundary = 'streamed-boundary';
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}${urlPath}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    });
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.on('data', (data: Buffer) => (text += data.toString()));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    request.on('error', (error) => answered || reject(error));
    request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n\r\n`);
    const chunk = Buffer.alloc(MB, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !answered) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
    };
    pump();
  });
}

describe('API attachments as multipart/form-data', function () {
  this.timeout(60_000);
  let server: TestServer;
  let files: string;

  before(async () => {
    server = await startTestServer();
    files = await makeTempDir('kanban-multipart-');
  });
  after(async () => {
    await server?.close();
    await fs.rm(files, { recursive: true, force: true });
  });

  it('when curl -F uploads a file, then the card lists it under the name of the part and the download gives the same bytes', async () => {
    const card = await createTask(server, 'Curl upload');
    const csv = path.join(files, 'report.csv');
    await fs.writeFile(csv, 'a,b\r\n1,2\r\n');
    const answer = await curl(['-F', `file=@${csv}`, `${server.url}/api/tasks/${card.id}/attachments`]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.data.attachments, ['report.csv']);
    assert.deepEqual(await download(server, card.id, 'report.csv'), await fs.readFile(csv));
  });

  it('when fetch sends FormData with two files (binary, and a non-ASCII name) to the board twin, then both are stored byte for byte', async () => {
    const card = await createTask(server, 'Form upload');
    const form = new FormData();
    form.append('first', new Blob([EVERY_BYTE], { type: 'application/octet-stream' }), 'bytes.bin');
    form.append('second', new Blob(['Grüße 漢字\n'], { type: 'text/plain' }), 'résumé notes.txt');
    const data = okData(
      await fetch(`${server.url}/api/boards/default/tasks/${card.id}/attachments`, { method: 'POST', body: form }).then(
        async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }),
      ),
    );
    assert.deepEqual(data.attachments, ['bytes.bin', 'résumé notes.txt']);
    assert.deepEqual(await download(server, card.id, 'bytes.bin'), EVERY_BYTE);
    assert.equal((await download(server, card.id, 'résumé notes.txt')).toString('utf8'), 'Grüße 漢字\n');
  });

  it('when a multipart body holds no file part, or a plain field, then 400 saying to send a file part', async () => {
    const card = await createTask(server, 'No file');
    const empty = await fetch(`${server.url}/api/tasks/${card.id}/attachments`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b--\r\n',
    });
    failsWith(
      { status: empty.status, body: await empty.json(), headers: empty.headers },
      400,
      /multipart body holds no file part; e\.g\. curl -F file=@/,
    );
    const field = await curl(['-F', 'note=hello', `${server.url}/api/tasks/${card.id}/attachments`]);
    assert.equal(field.status, 400);
    assert.match(field.body.error, /multipart part "note" is not a file/);
    assert.deepEqual(
      await listFiles(path.join(server.root, '.kanban', 'boards', 'default', 'attachments')).then((names) =>
        names.filter((n) => n.startsWith(card.id)),
      ),
      [],
    );
  });

  it('when a file part has a name the attachment rules refuse, then 400 and nothing is stored', async () => {
    const card = await createTask(server, 'Bad name');
    const form = new FormData();
    form.append('file', new Blob(['x']), '.hidden');
    const answer = await fetch(`${server.url}/api/tasks/${card.id}/attachments`, { method: 'POST', body: form });
    failsWith({ status: answer.status, body: await answer.json(), headers: answer.headers }, 400, /starts with a dot/);
  });

  it('when a multipart body declares more than 64 MB, then 413 before it is read', async () => {
    const card = await createTask(server, 'Declared too big');
    const big = path.join(files, 'big.bin');
    const handle = await fs.open(big, 'w');
    await handle.truncate(65 * MB);
    await handle.close();
    const answer = await curl(['-F', `file=@${big}`, `${server.url}/api/tasks/${card.id}/attachments`]);
    assert.equal(answer.status, 413);
    assert.match(answer.body.error, /too large \(limit 67108864 bytes\)/);
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${card.id}`)).attachments, []);
  });

  it('when a chunked multipart body streams past 64 MB and never ends, then 413 comes while it streams and nothing is stored', async () => {
    const card = await createTask(server, 'Streamed too big');
    const answer = await streamWithoutEnd(server, `/api/tasks/${card.id}/attachments`, 66 * MB);
    assert.equal(answer.status, 413);
    assert.match(answer.body.error, /too large/);
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${card.id}`)).attachments, []);
  });

  it('when base64 JSON is sent to the same route, then it still works', async () => {
    const card = await createTask(server, 'JSON upload');
    const data = okData(
      await server.api('POST', `/api/tasks/${card.id}/attachments`, {
        files: [{ name: 'a.bin', data: EVERY_BYTE.toString('base64') }],
      }),
    );
    assert.deepEqual(data.attachments, ['a.bin']);
    assert.deepEqual(await download(server, card.id, 'a.bin'), EVERY_BYTE);
  });
});

describe('API attachments as multipart/form-data with auth on', function () {
  this.timeout(60_000);
  const tokens = makeTokens();
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ config: authConfig(tokens) });
  });
  after(async () => server?.close());

  it('when a multipart upload comes without a token, then 401, decided before the body is read', async () => {
    const card = okData(
      await server.api('POST', '/api/tasks', { title: 'Guarded' }, { authorization: `Bearer ${tokens.editor}` }),
      201,
    );
    const answer = await streamWithoutEnd(server, `/api/tasks/${card.id}/attachments`, 2 * MB);
    assert.equal(answer.status, 401);
    const withToken = new FormData();
    withToken.append('file', new Blob(['ok']), 'ok.txt');
    const accepted = await fetch(`${server.url}/api/tasks/${card.id}/attachments`, {
      method: 'POST',
      body: withToken,
      headers: { authorization: `Bearer ${tokens.editor}` },
    });
    assert.equal(accepted.status, 200);
  });
});
