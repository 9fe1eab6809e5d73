import { strict as assert } from 'node:assert';
import type { TestServer } from '../helpers/testServer';
import { VIEWER_TOKEN_ENV, makeTokens, send, startAuthServer, stopAuthServer } from './helpers/authWorkspace';

describe('Auth: credentials and GET /api/auth', () => {
  const tokens = makeTokens();
  let server: TestServer;

  const authWith = async (headers: Record<string, string>) => {
    const response = await fetch(`${server.url}/api/auth`, { headers });
    const text = await response.text();
    for (const token of Object.values(tokens)) assert.ok(!text.includes(token), 'GET /api/auth echoed a token');
    return JSON.parse(text).data;
  };

  beforeEach(async () => {
    server = await startAuthServer(tokens);
  });
  afterEach(() => stopAuthServer(server));

  it('when GET /api/auth carries no credential, then it reports the provider, that auth is on, and no caller', async () => {
    assert.deepEqual(await authWith({}), {
      provider: 'token',
      enabled: true,
      credential: { present: false, source: null, recognised: false },
      subject: null,
      role: null,
      identityError: null,
    });
  });

  for (const role of ['viewer', 'editor', 'admin'] as const) {
    it(`when GET /api/auth carries the ${role} token, then it reports the header as the source, the subject and the role, never the token`, async () => {
      const data = await authWith({ authorization: `Bearer ${tokens[role]}` });
      assert.deepEqual(data.credential, { present: true, source: 'header', recognised: true });
      assert.deepEqual([data.subject, data.role], [{ viewer: 'vera', editor: 'eddie', admin: 'ada' }[role], role]);
    });
  }

  it('when GET /api/auth carries an unknown token, then it says a credential came but was not recognised', async () => {
    const data = await authWith({ authorization: `Bearer ${tokens.bad}` });
    assert.deepEqual(data.credential, { present: true, source: 'header', recognised: false });
    assert.equal(data.subject, null);
  });

  it('when the scheme is written "bearer" or padded with spaces, then the token is still read', async () => {
    assert.equal((await authWith({ authorization: `bearer ${tokens.editor}` })).subject, 'eddie');
    assert.equal((await authWith({ authorization: `  BEARER   ${tokens.editor}  ` })).subject, 'eddie');
  });

  it('when the token is sent another way (Basic scheme, bare header, ?token= on an HTTP route), then it is not a credential', async () => {
    for (const authorization of [`Basic ${tokens.admin}`, tokens.admin, `Bearer`, `Bearer ${tokens.admin} extra`]) {
      const withHeader = await fetch(`${server.url}/api/tasks`, { headers: { authorization } });
      assert.equal(withHeader.status, 401, `"${authorization.slice(0, 12)}..." was accepted`);
    }
    // ?token= is for the WebSocket only: on HTTP it would end up in proxy logs and browser history.
    assert.equal((await send(server, 'GET', `/api/tasks?token=${tokens.admin}`)).status, 401);
    // Not even read: a route refuses a query parameter it does not declare.
    const refused = await send(server, 'GET', `/api/auth?token=${tokens.admin}`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /unknown query parameter "token"/);
  });

  it('when a token differs from a configured one by a prefix, a suffix or letter case, then it is unknown', async () => {
    const near = [
      tokens.admin.slice(0, -1),
      `${tokens.admin}x`,
      tokens.admin.toUpperCase(),
      ` ${tokens.admin.slice(1)}`,
    ];
    for (const token of near)
      assert.equal(
        (await send(server, 'GET', '/api/boards', { token })).status,
        401,
        `near miss "${token.slice(0, 10)}..." was accepted`,
      );
  });

  it('when the environment variable behind the viewer token changes, then the old value stops working and the new one works, without a restart', async () => {
    assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.viewer })).status, 200);
    const rotated = `${tokens.viewer}-rotated`;
    process.env[VIEWER_TOKEN_ENV] = rotated;
    assert.equal((await send(server, 'GET', '/api/boards', { token: tokens.viewer })).status, 401);
    const answer = await send(server, 'GET', '/api/auth', { token: rotated });
    assert.deepEqual([answer.body.data.subject, answer.body.data.role], ['vera', 'viewer']);
    assert.ok(!answer.text.includes(rotated));
  });

  it('when a 401 or 403 is answered, then the message tells the caller what to do and the envelope has no data', async () => {
    const missing = await send(server, 'POST', '/api/tasks', { body: { content: '# X' } });
    assert.deepEqual([missing.status, missing.body.ok, 'data' in missing.body], [401, false, false]);
    assert.match(missing.body.error, /Authorization: Bearer <token>/);
    const forbidden = await send(server, 'PUT', '/api/settings', { token: tokens.editor, body: { compactMode: true } });
    assert.equal(forbidden.status, 403);
    assert.match(forbidden.body.error, /role "editor" may not PUT \/settings; it needs the "admin" role/);
  });

  it('when an unauthenticated request is also invalid, then the answer is 401 and reveals nothing of the validation', async () => {
    const answer = await send(server, 'POST', '/api/tasks', { body: { bogus: true } });
    assert.equal(answer.status, 401);
    assert.doesNotMatch(answer.body.error, /bogus|content/);
  });
});
