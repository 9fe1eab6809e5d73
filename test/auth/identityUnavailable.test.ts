import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { ConsoleCapture, findSecrets, send } from './helpers/authWorkspace';

/**
 * A provider package as a user would write one, without importing anything from the server: it
 * looks callers up in `users`, and `directory.json` in the workspace says whether its backend is
 * "up", "down" (it throws an error named IdentityUnavailableError), "coded" (an error with code
 * IDENTITY_UNAVAILABLE), "broken" (a plain error quoting the token) or "garbage" (a bad answer).
 */
const PROVIDER_SOURCE = `
const fs = require('node:fs');
const path = require('node:path');
exports.createIdentityProvider = (options, context) => ({
  id: 'directory',
  async identify(credential) {
    const { mode } = JSON.parse(fs.readFileSync(path.join(context.root, 'directory.json'), 'utf8'));
    if (mode === 'down') {
      const error = new Error('the directory server at ldap://10.0.0.9 does not answer');
      error.name = 'IdentityUnavailableError';
      throw error;
    }
    if (mode === 'coded') throw Object.assign(new Error('directory quota exhausted'), { code: 'IDENTITY_UNAVAILABLE' });
    if (mode === 'broken') throw new TypeError('cannot read user record for ' + credential.token);
    if (mode === 'garbage') return { subject: 'mallory', role: 'root' };
    return options.users[credential.token] || null;
  },
});
`;

const TOKEN = 'directory-token-7f3a9c2e51d04b86';

describe('Auth: an identity provider that cannot identify callers', () => {
  let server: TestServer;
  let root: string;

  const setMode = (mode: string) => fs.writeFile(path.join(root, 'directory.json'), JSON.stringify({ mode }));

  beforeEach(async () => {
    root = await makeTempDir();
    await fs.writeFile(path.join(root, 'auth-provider.js'), PROVIDER_SOURCE);
    await setMode('up');
    server = await startTestServer({
      root,
      config: {
        version: 2,
        plugins: {
          'auth.identity': {
            provider: './auth-provider.js',
            options: { users: { [TOKEN]: { subject: 'dana', role: 'editor' } } },
          },
        },
      },
    });
  });
  afterEach(async () => server.close());

  async function card(): Promise<string> {
    const created = await send(server, 'POST', '/api/tasks', { token: TOKEN, body: { content: '# Needs an actor' } });
    assert.equal(created.status, 201, created.text);
    return created.body.data.id;
  }

  it('when the provider answers, then the workspace-relative provider module identifies the caller', async () => {
    const auth = await send(server, 'GET', '/api/auth', { token: TOKEN });
    assert.deepEqual(
      {
        provider: auth.body.data.provider,
        subject: auth.body.data.subject,
        role: auth.body.data.role,
        identityError: auth.body.data.identityError,
      },
      { provider: 'directory', subject: 'dana', role: 'editor', identityError: null },
    );
    const id = await card();
    assert.equal((await send(server, 'POST', `/api/tasks/${id}/open`, { token: TOKEN })).body.data.actor, 'dana');
  });

  it('when the provider reports it is down, then card-state calls fail with 400 "identity unavailable" and the status says so, until it is back', async () => {
    const id = await card();
    const captured = new ConsoleCapture().start();
    try {
      await setMode('down');
      for (const action of ['open', 'read']) {
        const refused = await send(server, 'POST', `/api/tasks/${id}/${action}`, { token: TOKEN, body: {} });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.body.ok, false);
        assert.match(refused.body.error, /identity unavailable.*"directory".*does not answer/);
      }
      const status = await send(server, 'GET', '/api/card-state/status');
      assert.equal(status.status, 200, status.text);
      assert.equal(status.body.data.identity.available, false);
      assert.match(status.body.data.identity.error, /identity unavailable.*does not answer/);
      assert.ok(!Number.isNaN(Date.parse(status.body.data.identity.since)));

      // Other routes cannot authenticate the caller either, and say why.
      const list = await send(server, 'GET', '/api/tasks', { token: TOKEN });
      assert.equal(list.status, 401);
      assert.match(list.body.error, /identity unavailable/);
      const auth = await send(server, 'GET', '/api/auth', { token: TOKEN });
      assert.equal(auth.status, 200);
      assert.match(auth.body.data.identityError, /does not answer/);
      assert.equal(auth.body.data.subject, null);

      await setMode('up');
      assert.equal((await send(server, 'POST', `/api/tasks/${id}/open`, { token: TOKEN })).status, 200);
      assert.equal((await send(server, 'GET', '/api/card-state/status')).body.data.identity.available, true);
    } finally {
      captured.stop();
    }
    assert.equal(
      captured.lines.filter((line) => /identity unavailable/.test(line)).length,
      1,
      'one log line per new failure, not one per request',
    );
  });

  it('when the provider signals unavailability by code instead of by name, then it is recognised the same way', async () => {
    const id = await card();
    await setMode('coded');
    const refused = await send(server, 'POST', `/api/tasks/${id}/open`, { token: TOKEN });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /identity unavailable.*quota exhausted/);
  });

  it('when the provider throws a plain error that quotes the token, then card state answers 400 and neither the answer nor the log nor the status holds the token', async () => {
    const id = await card();
    const captured = new ConsoleCapture().start();
    const answers: string[] = [];
    try {
      await setMode('broken');
      const refused = await send(server, 'POST', `/api/tasks/${id}/open`, { token: TOKEN });
      answers.push(refused.text);
      assert.equal(refused.status, 400);
      assert.match(refused.body.error, /identity unavailable.*cannot read user record/);
      const status = await send(server, 'GET', '/api/card-state/status', { token: TOKEN });
      answers.push(status.text);
      assert.equal(status.body.data.identity.available, false);
      answers.push((await send(server, 'GET', '/api/auth', { token: TOKEN })).text);
    } finally {
      captured.stop();
    }
    const haystacks = [
      ...answers.map((text, i) => ({ label: `answer ${i}`, text })),
      ...captured.lines.map((text) => ({ label: 'console', text })),
    ];
    assert.deepEqual(findSecrets(haystacks, [TOKEN]), []);
  });

  it('when the provider answers with a role that does not exist, then the caller gets no role at all', async () => {
    const id = await card();
    await setMode('garbage');
    const refused = await send(server, 'PUT', `/api/tasks/${id}`, { token: TOKEN, body: { priority: 'low' } });
    assert.equal(refused.status, 401);
    assert.match(refused.body.error, /identity unavailable/);
    assert.equal((await send(server, 'POST', `/api/tasks/${id}/open`, { token: TOKEN })).status, 400);
  });

  it('when the request carries no credential while the provider is down, then it is a plain 401, not identity-unavailable', async () => {
    const id = await card();
    await setMode('down');
    const refused = await send(server, 'POST', `/api/tasks/${id}/open`);
    assert.equal(refused.status, 401);
    assert.match(refused.body.error, /Authorization: Bearer/);
  });
});
