import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { configPath, failsWith, okData, readConfig } from '../helpers/envelope';

const HOOK_URL = 'http://127.0.0.1:9/hook';

describe('API webhooks: registration', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function register(body: Record<string, unknown>) {
    return okData(await server.api('POST', '/api/webhooks', body), 201);
  }

  it('when a webhook is registered, then 201 gives its wh_ id, it is active, and it is listed and saved', async () => {
    const hook = await register({ url: HOOK_URL, events: ['task.created', 'column.*'] });
    assert.match(hook.id, /^wh_[0-9a-f]{16}$/);
    assert.deepEqual(hook, {
      id: hook.id,
      url: HOOK_URL,
      events: ['task.created', 'column.*'],
      active: true,
      hasSecret: false,
    });
    assert.deepEqual(okData(await server.api('GET', '/api/webhooks')), [hook]);
    const saved = (await readConfig(server)).webhooks;
    assert.deepEqual(saved, [{ id: hook.id, url: HOOK_URL, events: ['task.created', 'column.*'], active: true }]);
  });

  it('when a webhook has a secret, then no answer ever shows it, only hasSecret', async () => {
    const secret = 'very-secret-value-123';
    const created = await register({ url: HOOK_URL, events: ['*'], secret });
    const updated = okData(await server.api('PUT', `/api/webhooks/${created.id}`, { url: 'https://example.com/x' }));
    const listed = okData(await server.api('GET', '/api/webhooks'));
    const deliveries = okData(await server.api('GET', `/api/webhooks/${created.id}/deliveries`));
    for (const answer of [created, updated, listed, deliveries])
      assert.ok(!JSON.stringify(answer).includes(secret), JSON.stringify(answer));
    assert.equal(created.hasSecret, true);
    assert.equal(updated.hasSecret, true);
    assert.equal(listed[0].hasSecret, true);
  });

  it('when a secret is given as ${NAME}, then the file keeps the reference, never a resolved value', async () => {
    process.env.KANBAN_TEST_HOOK_SECRET = 'resolved-value-456';
    try {
      await register({ url: HOOK_URL, events: ['*'], secret: '${KANBAN_TEST_HOOK_SECRET}' });
      const text = await fs.readFile(configPath(server), 'utf8');
      assert.ok(text.includes('${KANBAN_TEST_HOOK_SECRET}'));
      assert.ok(!text.includes('resolved-value-456'));
    } finally {
      delete process.env.KANBAN_TEST_HOOK_SECRET;
    }
  });

  const badBodies: [string, Record<string, unknown>, RegExp][] = [
    ['the url is ftp', { url: 'ftp://example.com/x', events: ['*'] }, /http or https/],
    ['the url is not absolute', { url: '/hook', events: ['*'] }, /not an absolute URL/],
    ['the url holds a password', { url: 'http://user:pw@example.com/', events: ['*'] }, /user name or password/],
    ['the url is missing', { events: ['*'] }, /required field "url"/],
    ['an event name is unknown', { url: HOOK_URL, events: ['task.created', 'task.exploded'] }, /"task\.exploded"/],
    ['a prefix matches no event', { url: HOOK_URL, events: ['nope.*'] }, /"nope\.\*"/],
    ['events is empty', { url: HOOK_URL, events: [] }, /at least one/],
    ['events is a string', { url: HOOK_URL, events: '*' }, /events must be of type array/],
    ['the secret is empty', { url: HOOK_URL, events: ['*'], secret: '' }, /secret must not be empty/],
    ['the secret names a bad variable', { url: HOOK_URL, events: ['*'], secret: '${1 bad}' }, /environment variable/],
    [
      'an unknown field is sent',
      { url: HOOK_URL, events: ['*'], active: false },
      /unknown or read-only field "active"/,
    ],
  ];
  for (const [what, body, message] of badBodies) {
    it(`when ${what}, then 400 and nothing is registered`, async () => {
      failsWith(await server.api('POST', '/api/webhooks', body), 400, message);
      assert.deepEqual(okData(await server.api('GET', '/api/webhooks')), []);
    });
  }

  it('when a webhook is updated, then only the given fields change and null removes the secret', async () => {
    const hook = await register({ url: HOOK_URL, events: ['*'], secret: 's3cret' });
    const paused = okData(
      await server.api('PUT', `/api/webhooks/${hook.id}`, { active: false, events: ['task.*', 'task.*'] }),
    );
    assert.deepEqual(paused, { ...hook, active: false, events: ['task.*'] });
    const unsigned = okData(await server.api('PUT', `/api/webhooks/${hook.id}`, { secret: null }));
    assert.equal(unsigned.hasSecret, false);
    assert.equal((await readConfig(server)).webhooks[0].secret, undefined);
  });

  it('when an update is invalid, then 400 and the webhook is unchanged', async () => {
    const hook = await register({ url: HOOK_URL, events: ['*'] });
    failsWith(
      await server.api('PUT', `/api/webhooks/${hook.id}`, { url: 'javascript:alert(1)' }),
      400,
      /http or https/,
    );
    failsWith(await server.api('PUT', `/api/webhooks/${hook.id}`, { events: ['bogus'] }), 400, /"bogus"/);
    failsWith(
      await server.api('PUT', `/api/webhooks/${hook.id}`, { active: 'no' }),
      400,
      /active must be of type boolean/,
    );
    assert.deepEqual(okData(await server.api('GET', '/api/webhooks')), [hook]);
  });

  it('when a webhook is deleted, then it is gone from the list and the file', async () => {
    const keep = await register({ url: HOOK_URL, events: ['*'] });
    const drop = await register({ url: HOOK_URL, events: ['task.created'] });
    assert.deepEqual(okData(await server.api('DELETE', `/api/webhooks/${drop.id}`)), drop);
    assert.deepEqual(okData(await server.api('GET', '/api/webhooks')), [keep]);
    assert.deepEqual(
      (await readConfig(server)).webhooks.map((h: { id: string }) => h.id),
      [keep.id],
    );
  });

  it('when the id is unknown, then update, delete and deliveries answer 404', async () => {
    failsWith(
      await server.api('PUT', '/api/webhooks/wh_0000000000000000', { active: false }),
      404,
      /webhook "wh_0000000000000000" not found/,
    );
    failsWith(await server.api('DELETE', '/api/webhooks/wh_0000000000000000'), 404, /not found/);
    failsWith(await server.api('GET', '/api/webhooks/nope/deliveries'), 404, /not found/);
  });

  it('when webhooks are created, changed and deleted, then no event is emitted', async () => {
    const seen: string[] = [];
    const off = server.running.workspace.events.on((e) => seen.push(e.event));
    try {
      const hook = await register({ url: HOOK_URL, events: ['*'], secret: 'x' });
      okData(await server.api('PUT', `/api/webhooks/${hook.id}`, { active: false }));
      okData(await server.api('DELETE', `/api/webhooks/${hook.id}`));
    } finally {
      off();
    }
    assert.deepEqual(seen, []);
  });

  it('when the server restarts, then the registrations are still there', async () => {
    const hook = await register({ url: HOOK_URL, events: ['board.*'], secret: 'k' });
    await server.restart();
    assert.deepEqual(okData(await server.api('GET', '/api/webhooks')), [hook]);
  });
});
