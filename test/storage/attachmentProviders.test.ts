import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { listFiles, startTestServer, type TestServer } from '../helpers/testServer';
import { RecordingSocket } from '../helpers/wsClient';
import { createTask, okData } from '../helpers/envelope';
import { configWith } from './helpers/cardProviders';
import { startTestS3, withEnv, type TestS3 } from './helpers/s3';
import { createTestDatabase, mysqlPlugin } from './helpers/mysql';
import { createPostgresTestDatabase, postgresPlugin } from './helpers/postgres';

/** One attachment provider as the tests see it: its config, and a way to look at stored payloads directly. */
interface AttachmentSetup {
  plugins: Record<string, unknown>;
  /** Whether the payload of a card's file is stored, looked up behind the service's back. */
  payloadExists(root: string, boardId: string, cardId: string, filename: string): Promise<boolean>;
  cleanup(): Promise<void>;
}

let s3: TestS3 | undefined;

const PROVIDERS: Record<string, () => Promise<AttachmentSetup>> = {
  localfs: async () => ({
    plugins: {},
    payloadExists: (root, boardId, cardId, filename) =>
      fs.access(path.join(root, '.kanban', 'boards', boardId, 'attachments', cardId, filename)).then(
        () => true,
        () => false,
      ),
    cleanup: async () => undefined,
  }),
  sqlite: async () => ({
    plugins: { 'attachment.storage': { provider: 'sqlite', options: { sqlitePath: '.kanban/files.db' } } },
    async payloadExists(root, boardId, cardId, filename) {
      const db = new Database(path.join(root, '.kanban', 'files.db'), { readonly: true });
      try {
        return !!db
          .prepare('SELECT 1 FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?')
          .get(boardId, cardId, filename);
      } finally {
        db.close();
      }
    },
    cleanup: async () => undefined,
  }),
  // No attachment.storage: over a shared card database, the files live in it.
  mysql: async () => {
    const database = await createTestDatabase();
    return {
      plugins: { 'card.storage': mysqlPlugin(database.name) },
      payloadExists: async (_root, boardId, cardId, filename) =>
        (
          await database.query('SELECT 1 FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?', [
            boardId,
            cardId,
            filename,
          ])
        ).length > 0,
      cleanup: () => database.drop(),
    };
  },
  postgres: async () => {
    const database = await createPostgresTestDatabase();
    return {
      plugins: { 'card.storage': postgresPlugin(database.name) },
      payloadExists: async (_root, boardId, cardId, filename) =>
        (
          await database.query('SELECT 1 FROM kanban_attachments WHERE board_id = ? AND card_id = ? AND filename = ?', [
            boardId,
            cardId,
            filename,
          ])
        ).length > 0,
      cleanup: () => database.drop(),
    };
  },
  s3: async () => {
    s3 = await startTestS3();
    const restoreEnv = withEnv(s3.env);
    const server = s3;
    return {
      // Everything comes from the environment: no setting at all in .kanban.json.
      plugins: { 'attachment.storage': { provider: 's3', options: {} } },
      payloadExists: (_root, boardId, cardId, filename) => server.objectExists(`${boardId}/${cardId}/${filename}`),
      async cleanup() {
        restoreEnv();
        await server.close();
        s3 = undefined;
      },
    };
  },
};

const upload = (server: TestServer, cardId: string, files: { name: string; data: Buffer; contentType?: string }[]) =>
  server.api('POST', `/api/tasks/${cardId}/attachments`, {
    files: files.map((f) => ({
      name: f.name,
      data: f.data.toString('base64'),
      ...(f.contentType ? { contentType: f.contentType } : {}),
    })),
  });

async function download(
  server: TestServer,
  urlPath: string,
): Promise<{ status: number; bytes: Buffer; type: string | null }> {
  const response = await fetch(server.url + urlPath);
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  };
}

for (const [name, setUp] of Object.entries(PROVIDERS)) {
  describe(`attachment.storage ${name}: the same HTTP behaviour`, function () {
    this.timeout(30_000);
    let setup: AttachmentSetup;
    let server: TestServer;

    beforeEach(async () => {
      setup = await setUp();
      server = await startTestServer({ config: configWith(setup.plugins) });
    });
    afterEach(async () => {
      await server?.close();
      await setup?.cleanup();
    });

    it('when the storage is asked for, then it names this attachment provider', async () => {
      assert.equal(okData(await server.api('GET', '/api/storage')).attachment.provider, name);
    });

    it('when a large binary file is uploaded, then it downloads byte for byte, also after a restart', async () => {
      const card = await createTask(server, 'Binary');
      const bytes = randomBytes(700 * 1024);
      okData(
        await upload(server, card.id, [{ name: 'blob.bin', data: bytes, contentType: 'application/octet-stream' }]),
      );
      assert.equal(await setup.payloadExists(server.root, 'default', card.id, 'blob.bin'), true);
      await server.restart();
      const got = await download(server, `/api/tasks/${card.id}/attachments/blob.bin`);
      assert.equal(got.status, 200);
      assert.equal(got.bytes.length, bytes.length);
      assert.ok(got.bytes.equals(bytes), 'the downloaded bytes are the uploaded bytes');
    });

    it('when two cards hold files of the same name, then each downloads its own', async () => {
      const first = await createTask(server, 'First');
      const second = await createTask(server, 'Second');
      okData(await upload(server, first.id, [{ name: 'same.txt', data: Buffer.from('one') }]));
      okData(await upload(server, second.id, [{ name: 'same.txt', data: Buffer.from('two') }]));
      assert.equal(String((await download(server, `/api/tasks/${first.id}/attachments/same.txt`)).bytes), 'one');
      assert.equal(String((await download(server, `/api/tasks/${second.id}/attachments/same.txt`)).bytes), 'two');
    });

    it('when an attachment is deleted, then its payload is removed from the store and the download is 404', async () => {
      const card = await createTask(server, 'Delete one');
      okData(
        await upload(server, card.id, [
          { name: 'a.txt', data: Buffer.from('a') },
          { name: 'b.txt', data: Buffer.from('b') },
        ]),
      );
      const after = okData(await server.api('DELETE', `/api/tasks/${card.id}/attachments/a.txt`));
      assert.deepEqual(after.attachments, ['b.txt']);
      assert.equal(await setup.payloadExists(server.root, 'default', card.id, 'a.txt'), false);
      assert.equal(await setup.payloadExists(server.root, 'default', card.id, 'b.txt'), true);
      assert.equal((await download(server, `/api/tasks/${card.id}/attachments/a.txt`)).status, 404);
    });

    it('when a card is deleted for good, then every payload of it is removed', async () => {
      const card = await createTask(server, 'Delete all');
      okData(
        await upload(server, card.id, [
          { name: 'a.txt', data: Buffer.from('a') },
          { name: 'b.txt', data: Buffer.from('b') },
        ]),
      );
      okData(await server.api('DELETE', `/api/tasks/${card.id}/permanent`));
      for (const file of ['a.txt', 'b.txt'])
        assert.equal(await setup.payloadExists(server.root, 'default', card.id, file), false, file);
    });

    it('when a card is transferred to another board, then its files move with it and still download', async () => {
      const card = await createTask(server, 'Travelling files');
      okData(await upload(server, card.id, [{ name: 'map.txt', data: Buffer.from('the map') }]));
      okData(await server.api('POST', `/api/boards/ops/tasks/${card.id}/transfer`, {}));
      assert.equal(
        String((await download(server, `/api/boards/ops/tasks/${card.id}/attachments/map.txt`)).bytes),
        'the map',
      );
      assert.equal(await setup.payloadExists(server.root, 'ops', card.id, 'map.txt'), true);
      assert.equal(await setup.payloadExists(server.root, 'default', card.id, 'map.txt'), false);
    });
  });
}

describe('attachment.storage s3: settings and start-up', function () {
  this.timeout(30_000);
  let server: TestS3;
  let restoreEnv: () => void = () => undefined;
  beforeEach(async () => {
    server = await startTestS3();
  });
  afterEach(async () => {
    restoreEnv();
    await server.close();
  });

  it('when endpoint, bucket and region come from the provider config, then they are used (credentials still from the environment)', async () => {
    restoreEnv = withEnv({
      ...server.env,
      SVC_S3_BUCKET: undefined,
      SVC_S3_ENDPOINT: undefined,
      SVC_S3_FORCE_PATH_STYLE: undefined,
      SVC_S3_REGION: undefined,
    });
    const options = { endpoint: server.endpoint, bucket: server.bucket, region: 'eu-west-1', forcePathStyle: true };
    const kanban = await startTestServer({ config: configWith({ 'attachment.storage': { provider: 's3', options } }) });
    try {
      const card = await createTask(kanban, 'Configured');
      okData(await upload(kanban, card.id, [{ name: 'c.txt', data: Buffer.from('config') }]));
      assert.deepEqual(await server.keys(), [`default/${card.id}/c.txt`]);
      const { attachment } = okData(await kanban.api('GET', '/api/storage'));
      assert.deepEqual(
        [attachment.provider, attachment.bucket, attachment.region, attachment.endpoint, attachment.forcePathStyle],
        ['s3', server.bucket, 'eu-west-1', server.endpoint, true],
      );
    } finally {
      await kanban.close();
    }
  });

  it('when the older storage/config layout names endpoint, bucket and region, then they are used', async () => {
    restoreEnv = withEnv({
      ...server.env,
      SVC_S3_BUCKET: undefined,
      SVC_S3_ENDPOINT: undefined,
      SVC_S3_REGION: undefined,
    });
    const config = {
      ...configWith({}),
      storage: {
        'attachment.storage': {
          provider: 's3',
          config: { endpoint: server.endpoint, bucket: server.bucket, region: 'eu-north-1' },
        },
      },
    };
    const kanban = await startTestServer({ config });
    try {
      const card = await createTask(kanban, 'Older layout');
      okData(await upload(kanban, card.id, [{ name: 'o.txt', data: Buffer.from('older') }]));
      assert.deepEqual(await server.keys(), [`default/${card.id}/o.txt`]);
      const { attachment } = okData(await kanban.api('GET', '/api/storage'));
      assert.deepEqual([attachment.provider, attachment.region], ['s3', 'eu-north-1']);
    } finally {
      await kanban.close();
    }
  });

  it('when the region is only in AWS_REGION, then the provider uses it', async () => {
    restoreEnv = withEnv({
      ...server.env,
      SVC_S3_REGION: undefined,
      AWS_REGION: 'ap-south-1',
      AWS_DEFAULT_REGION: undefined,
    });
    const kanban = await startTestServer({
      config: configWith({ 'attachment.storage': { provider: 's3', options: {} } }),
    });
    try {
      assert.equal(okData(await kanban.api('GET', '/api/storage')).attachment.region, 'ap-south-1');
    } finally {
      await kanban.close();
    }
  });

  it('when SVC_S3_BUCKET and the config both name a bucket, then the environment wins', async () => {
    restoreEnv = withEnv(server.env);
    const kanban = await startTestServer({
      config: configWith({ 'attachment.storage': { provider: 's3', options: { bucket: 'bucket-from-config' } } }),
    });
    try {
      const card = await createTask(kanban, 'Env bucket');
      okData(await upload(kanban, card.id, [{ name: 'e.txt', data: Buffer.from('env') }]));
      assert.deepEqual(await server.keys(), [`default/${card.id}/e.txt`]);
      assert.equal(okData(await kanban.api('GET', '/api/storage')).attachment.bucket, server.bucket);
    } finally {
      await kanban.close();
    }
  });

  it('when the service writes .kanban.json, then no credential or secret ends up in it', async () => {
    restoreEnv = withEnv(server.env);
    const kanban = await startTestServer({
      config: configWith({ 'attachment.storage': { provider: 's3', options: {} } }),
    });
    try {
      okData(await kanban.api('PUT', '/api/settings', { compactMode: true }));
      const text = await fs.readFile(path.join(kanban.root, '.kanban.json'), 'utf8');
      assert.ok(text.includes('"compactMode": true'), 'the config was written');
      for (const secret of ['S3RVER', server.endpoint, 'secretAccessKey', 'accessKeyId'])
        assert.ok(!text.includes(secret), `${secret} is in .kanban.json`);
    } finally {
      await kanban.close();
    }
  });

  async function startFailure(options: Record<string, unknown>): Promise<string> {
    const error = await startTestServer({
      config: configWith({ 'attachment.storage': { provider: 's3', options } }),
    }).then(
      async (kanban) => {
        await kanban.close();
        return null;
      },
      (e: Error) => e,
    );
    assert.ok(error, 'the server started');
    return error.message;
  }

  it('when the bucket does not exist, then start-up fails naming the provider, SVC_S3_BUCKET and the cause', async () => {
    restoreEnv = withEnv({ ...server.env, SVC_S3_BUCKET: 'no-such-bucket-here' });
    const message = await startFailure({});
    assert.match(
      message,
      /attachment\.storage provider "s3" cannot start: the bucket "no-such-bucket-here" does not exist/,
    );
    assert.match(message, /SVC_S3_BUCKET or plugins\["attachment\.storage"\]\.options\.bucket/);
  });

  it('when the endpoint cannot be reached, then start-up fails naming SVC_S3_ENDPOINT', async () => {
    restoreEnv = withEnv({ ...server.env, SVC_S3_ENDPOINT: 'http://127.0.0.1:1' });
    const message = await startFailure({});
    assert.match(message, /cannot reach http:\/\/127\.0\.0\.1:1/);
    assert.match(message, /SVC_S3_ENDPOINT/);
  });

  it('when no bucket is set anywhere, then start-up fails saying so', async () => {
    restoreEnv = withEnv({ ...server.env, SVC_S3_BUCKET: undefined });
    assert.match(
      await startFailure({}),
      /no bucket is set \(setting: SVC_S3_BUCKET or plugins\["attachment\.storage"\]\.options\.bucket/,
    );
  });

  it('when credentials are put in .kanban.json, then start-up refuses them', async () => {
    restoreEnv = withEnv(server.env);
    const message = await startFailure({ accessKeyId: 'AKIA', secretAccessKey: 'x' });
    assert.match(message, /credentials are never read from \.kanban\.json/);
    assert.match(message, /options\.accessKeyId/);
  });
});

describe('attachment.storage s3: secrets stay in the environment', function () {
  this.timeout(30_000);
  // Distinctive values, so finding one anywhere cannot be a coincidence.
  const tag = randomBytes(6).toString('hex');
  const credentials = { accessKeyId: `AKIAKANBAN${tag.toUpperCase()}`, secretAccessKey: `kanban-secret-${tag}` };
  const sessionToken = `kanban-session-${tag}`;
  const secrets = [credentials.accessKeyId, credentials.secretAccessKey, sessionToken];
  let s3Server: TestS3;
  let kanban: TestServer | undefined;
  let restoreEnv: () => void = () => undefined;

  beforeEach(async () => {
    s3Server = await startTestS3(credentials);
    restoreEnv = withEnv({ ...s3Server.env, AWS_SESSION_TOKEN: sessionToken });
  });
  afterEach(async () => {
    await kanban?.close();
    kanban = undefined;
    restoreEnv();
    await s3Server.close();
  });

  it('when credentials are set in the environment and files go through S3, then no response, event or workspace file contains them', async () => {
    kanban = await startTestServer({
      config: configWith({ 'attachment.storage': { provider: 's3', options: { region: 'eu-central-1' } } }),
    });
    const server = kanban;
    const socket = await RecordingSocket.connect(`${server.url.replace(/^http/, 'ws')}/ws`);
    const seen: string[] = [];
    const call = async (method: string, urlPath: string, body?: unknown) => {
      const answer = await server.api(method, urlPath, body);
      seen.push(JSON.stringify(answer.body), JSON.stringify([...answer.headers]));
      return answer;
    };
    try {
      const card = okData(await call('POST', '/api/tasks', { content: '# Secret-free\n' }), 201);
      okData(
        await call('POST', `/api/tasks/${card.id}/attachments`, {
          files: [{ name: 'a.txt', data: Buffer.from('through s3').toString('base64') }],
        }),
      );
      assert.equal(
        await s3Server.objectExists(`default/${card.id}/a.txt`),
        true,
        'the upload reached S3 with the environment credentials',
      );
      const download = await fetch(`${server.url}/api/tasks/${card.id}/attachments/a.txt`);
      seen.push(await download.text(), JSON.stringify([...download.headers]));
      okData(await call('PUT', '/api/settings', { compactMode: true }));
      for (const route of [
        '/api/storage',
        '/api/workspace',
        '/api/card-state/status',
        '/api/auth',
        `/api/tasks/${card.id}`,
        '/api/docs/json',
      ])
        await call('GET', route);
      okData(await call('DELETE', `/api/tasks/${card.id}/attachments/a.txt`));
      await socket.waitFor((m) => m.event === 'attachment.removed');
      const storage = okData(await call('GET', '/api/storage'));
      assert.equal(storage.attachment.provider, 's3');
      seen.push(...socket.messages.map((m) => JSON.stringify(m)));
    } finally {
      socket.socket.close();
    }
    for (const file of await listFiles(server.root))
      seen.push(await fs.readFile(path.join(server.root, file), 'latin1'));
    assert.ok(
      seen.some((text) => text.includes('attachment.added')),
      'the events were collected',
    );
    for (const secret of secrets) {
      const leaks = seen.filter((text) => text.includes(secret));
      assert.deepEqual(leaks, [], `${secret} leaked`);
    }
    const config = JSON.parse(await fs.readFile(path.join(server.root, '.kanban.json'), 'utf8'));
    assert.deepEqual(
      config.plugins['attachment.storage'],
      { provider: 's3', options: { region: 'eu-central-1' } },
      'the provider entry is kept as written',
    );
  });
});
