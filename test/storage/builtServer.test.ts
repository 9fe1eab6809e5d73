import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../helpers/testServer';
import { configWith } from './helpers/cardProviders';
import { buildServerBundle, runBuiltServer } from './helpers/builtServer';
import { startTestS3, type TestS3 } from './helpers/s3';

async function call(url: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const response = await fetch(url + urlPath, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { ok: boolean; data?: unknown; error?: string };
  assert.ok(json.ok, `${method} ${urlPath} answered ${response.status}: ${json.error}`);
  return json.data;
}

/** What the recordModules.cjs preload saw loaded by the time the process exited. */
async function readRecord(file: string): Promise<{ loaded: string[]; nativeAddons: string[] }> {
  return JSON.parse(await fs.readFile(file, 'utf8'));
}

/** Lines the server printed to stderr other than Node's own warnings about the AWS SDK. */
function ownErrorLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.startsWith('kanban:'));
}

/**
 * The server as users run it: `node dist/server.js --dir <workspace>`. The default set-up must run
 * without any native module, and a provider that cannot start must stop it with one clear line.
 */
describe('built server (dist/server.js) and storage providers', function () {
  this.timeout(60_000);
  let root: string;

  before(() => buildServerBundle());
  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('when it starts and answers REST, then the MCP SDK is not loaded; the first /mcp request loads it', async () => {
    const loadedAfter = async (mcp: boolean) => {
      const record = path.join(root, '..', `${path.basename(root)}-mcp-${mcp}.json`);
      const run = await runBuiltServer(root, {
        env: { RECORD_MODULES_FILE: record, RECORD_MODULES_WATCHED: '@modelcontextprotocol/server,zod' },
        preload: ['recordModules.cjs'],
      });
      if (!run.url) assert.fail(`the server did not start: ${(await run.exited).stderr}`);
      await call(run.url, 'POST', '/api/tasks', { content: '# Plain REST\n' });
      await call(run.url, 'GET', '/api/tasks');
      if (mcp) {
        const answer = await fetch(`${run.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        await answer.arrayBuffer();
      }
      assert.equal((await run.stop()).code, 0);
      const seen = await readRecord(record);
      await fs.rm(record, { force: true });
      return seen.loaded;
    };
    assert.deepEqual(await loadedAfter(false), []);
    assert.deepEqual(await loadedAfter(true), ['@modelcontextprotocol/server', 'zod']);
  });

  it('when it serves a Markdown workspace, then better-sqlite3 and the other optional drivers are never loaded', async () => {
    const record = path.join(root, '..', `${path.basename(root)}-modules.json`);
    const run = await runBuiltServer(root, { env: { RECORD_MODULES_FILE: record }, preload: ['recordModules.cjs'] });
    if (!run.url) assert.fail(`the server did not start: ${(await run.exited).stderr}`);
    const card = await call(run.url, 'POST', '/api/tasks', { content: '# Plain files\n' });
    await call(run.url, 'POST', `/api/tasks/${card.id}/attachments`, {
      files: [{ name: 'a.txt', data: Buffer.from('x').toString('base64') }],
    });
    await call(run.url, 'POST', `/api/tasks/${card.id}/open`);
    assert.equal((await call(run.url, 'GET', '/api/storage')).card.provider, 'markdown');
    assert.equal((await run.stop()).code, 0);
    const seen = await readRecord(record);
    await fs.rm(record, { force: true });
    assert.deepEqual(seen, { loaded: [], nativeAddons: [] });
  });

  it('when the workspace is configured for SQLite, then the same probe does see better-sqlite3 load', async () => {
    // The counterpart of the test above: shows the probe notices a native module when one loads.
    await fs.writeFile(
      path.join(root, '.kanban.json'),
      JSON.stringify(configWith({ 'card.storage': { provider: 'sqlite', options: {} } })),
    );
    const record = path.join(root, '..', `${path.basename(root)}-modules.json`);
    const run = await runBuiltServer(root, { env: { RECORD_MODULES_FILE: record }, preload: ['recordModules.cjs'] });
    if (!run.url) assert.fail(`the server did not start: ${(await run.exited).stderr}`);
    assert.equal((await call(run.url, 'GET', '/api/storage')).card.provider, 'sqlite');
    await run.stop();
    const seen = await readRecord(record);
    await fs.rm(record, { force: true });
    assert.ok(seen.loaded.includes('better-sqlite3'), JSON.stringify(seen));
    assert.ok(
      seen.nativeAddons.some((file) => file.endsWith('better_sqlite3.node')),
      JSON.stringify(seen),
    );
  });

  // Without better-sqlite3 the server runs SQLite's WebAssembly build (sqliteWasm.test.ts); forced to
  // the native driver, it must say why it cannot start.
  it('when better-sqlite3 is missing and the native driver is required, then it exits non-zero with one line naming the provider, the setting and the cause', async () => {
    await fs.writeFile(
      path.join(root, '.kanban.json'),
      JSON.stringify(configWith({ 'card.storage': { provider: 'sqlite', options: {} } })),
    );
    const run = await runBuiltServer(root, {
      env: { BLOCK_MODULES: 'better-sqlite3', KANBAN_SQLITE_DRIVER: 'native' },
      preload: ['blockModules.cjs'],
    });
    assert.equal(run.url, null, 'the server started');
    const { code, stderr } = await run.exited;
    assert.equal(code, 1);
    assert.deepEqual(ownErrorLines(stderr).length, 1, stderr);
    assert.match(
      ownErrorLines(stderr)[0],
      /^kanban: cannot start: card\.storage provider "sqlite" cannot start: the native module better-sqlite3 cannot be loaded \(Cannot find module 'better-sqlite3'\).*\(setting: plugins\["card\.storage"\]\.options\.sqlitePath in \.kanban\.json\)$/,
    );
    assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  });

  it('when the MySQL server is unreachable, then it exits non-zero naming the provider, the host setting and the cause', async () => {
    const plugin = { provider: 'mysql', options: { database: 'kanban_never_created', host: '127.0.0.1', port: 1 } };
    await fs.writeFile(path.join(root, '.kanban.json'), JSON.stringify(configWith({ 'card.storage': plugin })));
    const run = await runBuiltServer(root);
    assert.equal(run.url, null, 'the server started');
    const { code, stderr } = await run.exited;
    assert.equal(code, 1);
    assert.deepEqual(ownErrorLines(stderr).length, 1, stderr);
    assert.match(
      ownErrorLines(stderr)[0],
      /card\.storage provider "mysql" cannot start: cannot reach the MySQL server at 127\.0\.0\.1:1 \(.*ECONNREFUSED.*\).*\(setting: plugins\["card\.storage"\]\.options\.host in \.kanban\.json\)$/,
    );
    assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  });

  describe('with an S3 server', () => {
    let s3: TestS3;
    beforeEach(async () => {
      s3 = await startTestS3();
    });
    afterEach(async () => {
      await s3.close();
    });

    it('when the bucket is missing, then it exits non-zero naming the provider, SVC_S3_BUCKET and the cause', async () => {
      await fs.writeFile(
        path.join(root, '.kanban.json'),
        JSON.stringify(configWith({ 'attachment.storage': { provider: 's3', options: {} } })),
      );
      const run = await runBuiltServer(root, { env: { ...s3.env, SVC_S3_BUCKET: 'no-such-bucket-here' } });
      assert.equal(run.url, null, 'the server started');
      const { code, stderr } = await run.exited;
      assert.equal(code, 1);
      assert.deepEqual(ownErrorLines(stderr).length, 1, stderr);
      assert.match(
        ownErrorLines(stderr)[0],
        /attachment\.storage provider "s3" cannot start: the bucket "no-such-bucket-here" does not exist .*\(setting: SVC_S3_BUCKET or plugins\["attachment\.storage"\]\.options\.bucket in \.kanban\.json\)$/,
      );
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
    });

    it('when the bucket exists, then the same set-up starts and stores files in it', async () => {
      await fs.writeFile(
        path.join(root, '.kanban.json'),
        JSON.stringify(configWith({ 'attachment.storage': { provider: 's3', options: {} } })),
      );
      const run = await runBuiltServer(root, { env: s3.env });
      if (!run.url) assert.fail(`the server did not start: ${(await run.exited).stderr}`);
      try {
        const card = await call(run.url, 'POST', '/api/tasks', { content: '# To the bucket\n' });
        await call(run.url, 'POST', `/api/tasks/${card.id}/attachments`, {
          files: [{ name: 'b.txt', data: Buffer.from('y').toString('base64') }],
        });
        assert.deepEqual(await s3.keys(), [`default/${card.id}/b.txt`]);
      } finally {
        await run.stop();
      }
    });
  });
});
