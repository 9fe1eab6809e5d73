import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { configPath, createTask, failsWith, okData, readConfig } from '../helpers/envelope';
import { Receiver } from '../helpers/webhookReceiver';

const LEGACY_ID = 'wh_0123456789abcdef';

function hmac(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Run `action` while collecting what the server writes to console.warn (its logger). */
async function collectWarnings(action: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  try {
    await action();
  } finally {
    console.warn = original;
  }
  return lines;
}

describe('webhooks: literal secrets stay out of .kanban.json', () => {
  let server: TestServer | null = null;
  let receiver: Receiver;
  const savedBackoff = process.env.KANBAN_WEBHOOK_BACKOFF_MS;

  beforeEach(async () => {
    process.env.KANBAN_WEBHOOK_BACKOFF_MS = '20';
    receiver = new Receiver();
    await receiver.listen();
  });

  afterEach(async () => {
    if (savedBackoff === undefined) delete process.env.KANBAN_WEBHOOK_BACKOFF_MS;
    else process.env.KANBAN_WEBHOOK_BACKOFF_MS = savedBackoff;
    await server?.close();
    server = null;
    await receiver.close();
  });

  const secretsFile = (s: TestServer) => path.join(s.root, '.kanban', '.state', 'secrets.json');
  const configText = (s: TestServer) => fs.readFile(configPath(s), 'utf8');
  const storedSecrets = async (s: TestServer) => JSON.parse(await fs.readFile(secretsFile(s), 'utf8'));

  /** Creates a task and answers the signature header of the delivery it caused at `hookPath`. */
  async function signatureOfNextDelivery(
    s: TestServer,
    hookPath: string,
  ): Promise<{ signature: unknown; rawBody: string }> {
    const before = receiver.on(hookPath).length;
    await createTask(s, `Signed ${before}`);
    await receiver.until(() => receiver.on(hookPath).length > before, `a delivery at ${hookPath}`);
    const got = receiver.on(hookPath)[before];
    return { signature: got.headers['x-webhook-signature'], rawBody: got.rawBody };
  }

  it('when a webhook is created with a literal secret, then .kanban.json holds a reference, the git-ignored state file holds the secret with mode 0600, and deliveries are signed with it', async () => {
    server = await startTestServer();
    const hook = okData(
      await server.api('POST', '/api/webhooks', {
        url: receiver.url('/signed'),
        events: ['task.created'],
        secret: 's3cr3t',
      }),
      201,
    );
    const text = await configText(server);
    assert.ok(!text.includes('s3cr3t'), text);
    assert.equal((await readConfig(server)).webhooks[0].secret, `\${secret:${hook.id}}`);
    assert.deepEqual(await storedSecrets(server), { [hook.id]: 's3cr3t' });
    assert.equal((await fs.stat(secretsFile(server))).mode & 0o777, 0o600);
    assert.match(await fs.readFile(path.join(server.root, '.kanban', '.gitignore'), 'utf8'), /^\.state\/$/m);
    assert.equal(okData(await server.api('GET', '/api/webhooks'))[0].hasSecret, true);
    const { signature, rawBody } = await signatureOfNextDelivery(server, '/signed');
    assert.equal(signature, hmac('s3cr3t', rawBody));
  });

  it('when the secret is rotated with PUT, then the new one signs, also after a restart, and neither is in .kanban.json', async () => {
    server = await startTestServer();
    const hook = okData(
      await server.api('POST', '/api/webhooks', {
        url: receiver.url('/rotated'),
        events: ['task.created'],
        secret: 'first-key',
      }),
      201,
    );
    okData(await server.api('PUT', `/api/webhooks/${hook.id}`, { secret: 'second-key' }));
    const text = await configText(server);
    assert.ok(!text.includes('first-key') && !text.includes('second-key'), text);
    assert.deepEqual(await storedSecrets(server), { [hook.id]: 'second-key' });
    assert.equal((await fs.stat(secretsFile(server))).mode & 0o777, 0o600);
    let delivery = await signatureOfNextDelivery(server, '/rotated');
    assert.equal(delivery.signature, hmac('second-key', delivery.rawBody));
    await server.restart();
    delivery = await signatureOfNextDelivery(server, '/rotated');
    assert.equal(delivery.signature, hmac('second-key', delivery.rawBody));
  });

  it('when a secret is set to null or its webhook deleted, then the stored secret is removed too', async () => {
    server = await startTestServer();
    const unsigned = okData(
      await server.api('POST', '/api/webhooks', { url: receiver.url('/a'), events: ['*'], secret: 'key-a' }),
      201,
    );
    const deleted = okData(
      await server.api('POST', '/api/webhooks', { url: receiver.url('/b'), events: ['*'], secret: 'key-b' }),
      201,
    );
    const kept = okData(
      await server.api('POST', '/api/webhooks', { url: receiver.url('/c'), events: ['*'], secret: 'key-c' }),
      201,
    );
    assert.deepEqual(Object.keys(await storedSecrets(server)).sort(), [unsigned.id, deleted.id, kept.id].sort());
    okData(await server.api('PUT', `/api/webhooks/${unsigned.id}`, { secret: null }));
    okData(await server.api('DELETE', `/api/webhooks/${deleted.id}`));
    assert.deepEqual(await storedSecrets(server), { [kept.id]: 'key-c' });
    assert.equal(
      (await readConfig(server)).webhooks.find((h: { id: string }) => h.id === unsigned.id).secret,
      undefined,
    );
  });

  it('when a client sends a ${secret:...} reference, then 400: only the service writes those', async () => {
    server = await startTestServer();
    const victim = okData(
      await server.api('POST', '/api/webhooks', { url: receiver.url('/v'), events: ['*'], secret: 'victim-key' }),
      201,
    );
    failsWith(
      await server.api('POST', '/api/webhooks', {
        url: receiver.url('/x'),
        events: ['*'],
        secret: `\${secret:${victim.id}}`,
      }),
      400,
      /written by the service/,
    );
    failsWith(
      await server.api('PUT', `/api/webhooks/${victim.id}`, { secret: `\${secret:${victim.id}}` }),
      400,
      /written by the service/,
    );
  });

  it('when .kanban.json holds a literal secret from an older version, then it signs until the next config change moves it out with a log line', async () => {
    const config = {
      webhooks: [
        {
          id: LEGACY_ID,
          url: receiver.url('/legacy'),
          events: ['task.created'],
          secret: 'legacy-literal',
          active: true,
        },
      ],
    };
    server = await startTestServer({ config });
    let delivery = await signatureOfNextDelivery(server, '/legacy');
    assert.equal(delivery.signature, hmac('legacy-literal', delivery.rawBody));
    assert.ok((await configText(server)).includes('legacy-literal'), 'a card change does not rewrite .kanban.json');
    const s = server;
    const warnings = await collectWarnings(async () => {
      okData(await s.api('POST', '/api/columns', { id: 'qa', name: 'QA' }), 201);
    });
    assert.ok(
      warnings.some((line) => line.includes(LEGACY_ID) && line.includes('secrets.json')),
      JSON.stringify(warnings),
    );
    const text = await configText(server);
    assert.ok(!text.includes('legacy-literal'), text);
    assert.equal((await readConfig(server)).webhooks[0].secret, `\${secret:${LEGACY_ID}}`);
    assert.ok(
      (await readConfig(server)).boards[0].columns.some((c: { id: string }) => c.id === 'qa'),
      'the change itself was written',
    );
    assert.deepEqual(await storedSecrets(server), { [LEGACY_ID]: 'legacy-literal' });
    delivery = await signatureOfNextDelivery(server, '/legacy');
    assert.equal(delivery.signature, hmac('legacy-literal', delivery.rawBody));
  });
});
