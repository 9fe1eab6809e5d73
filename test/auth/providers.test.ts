import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startServer } from '../../server/server';
import { makeTempDir, startTestServer } from '../helpers/testServer';
import { send } from './helpers/authWorkspace';

/** A provider package installed in the workspace's node_modules, exporting only what the contract asks. */
async function installPackage(root: string, name: string, source: string): Promise<void> {
  const dir = path.join(root, 'node_modules', name);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
  await fs.writeFile(path.join(dir, 'index.js'), source);
}

const HEADER_PACKAGE = `
// Trusts a shared key and maps users to roles; gets the workspace root in the context.
exports.createIdentityProvider = (options, context) => {
  if (!options.key) throw new Error('options.key is required');
  return {
    id: 'shared-key',
    identify(credential) {
      const [key, user] = credential.token.split(':');
      if (key !== options.key) return null;
      const role = options.roles[user];
      return role ? { subject: user + '@' + require('node:path').basename(context.root), role } : null;
    },
  };
};
`;

function configWith(provider: string, options: Record<string, unknown>) {
  return JSON.stringify({ version: 2, plugins: { 'auth.identity': { provider, options } } });
}

describe('Auth: identity provider packages and configuration errors', () => {
  let root: string;

  beforeEach(async () => {
    root = await makeTempDir();
  });
  afterEach(async () => fs.rm(root, { recursive: true, force: true }));

  async function startFails(config: string, message: RegExp, secret?: string): Promise<void> {
    await fs.writeFile(path.join(root, '.kanban.json'), config);
    await assert.rejects(startServer({ root, port: 0, watch: false }), (error: Error) => {
      assert.match(error.message, message);
      if (secret) assert.ok(!error.message.includes(secret), 'the start-up error quotes a token');
      return true;
    });
  }

  it('when a package name is configured as the provider, then it is loaded from the workspace and its identities and roles apply', async () => {
    await installPackage(root, 'kanban-auth-shared-key', HEADER_PACKAGE);
    const server = await startTestServer({
      root,
      config: JSON.parse(configWith('kanban-auth-shared-key', { key: 'k3y', roles: { lee: 'editor', kim: 'viewer' } })),
    });
    try {
      const auth = await send(server, 'GET', '/api/auth', { token: 'k3y:lee' });
      assert.deepEqual(
        [auth.body.data.provider, auth.body.data.subject, auth.body.data.role],
        ['shared-key', `lee@${path.basename(root)}`, 'editor'],
      );
      assert.equal(
        (await send(server, 'POST', '/api/tasks', { token: 'k3y:lee', body: { content: '# By lee' } })).status,
        201,
      );
      assert.equal(
        (await send(server, 'POST', '/api/tasks', { token: 'k3y:kim', body: { content: '# By kim' } })).status,
        403,
      );
      assert.equal((await send(server, 'GET', '/api/tasks', { token: 'wrong:lee' })).status, 401);
    } finally {
      await server.close();
    }
  });

  it('when the provider package is missing, then start-up fails naming the provider and the setting', async () => {
    await startFails(
      configWith('kanban-auth-not-installed', {}),
      /auth\.identity provider "kanban-auth-not-installed" cannot be loaded \(plugins\["auth\.identity"\]\.provider\)/,
    );
  });

  it('when the module does not export createIdentityProvider, then start-up fails saying what is missing', async () => {
    await fs.writeFile(path.join(root, 'not-a-provider.js'), 'exports.somethingElse = 1;');
    await startFails(configWith('./not-a-provider.js', {}), /does not export createIdentityProvider/);
  });

  it('when createIdentityProvider returns something without identify(), then start-up fails saying so', async () => {
    await fs.writeFile(path.join(root, 'half-provider.js'), 'exports.createIdentityProvider = () => ({ id: "half" });');
    await startFails(configWith('./half-provider.js', {}), /must return an object with identify\(credential\)/);
  });

  it('when the package rejects its options, then start-up fails with its reason and the options setting', async () => {
    await installPackage(root, 'kanban-auth-shared-key', HEADER_PACKAGE);
    await startFails(
      configWith('kanban-auth-shared-key', { roles: {} }),
      /refused its options \(plugins\["auth\.identity"\]\.options\): options\.key is required/,
    );
  });

  it('when the token provider has no tokens, then start-up fails naming the setting', async () => {
    await startFails(configWith('token', {}), /options\.tokens must be a non-empty list of \{token, subject, role\}/);
    await startFails(configWith('token', { tokens: [] }), /options\.tokens must be a non-empty list/);
  });

  it('when a token entry lacks a subject or a token, then start-up fails naming the entry', async () => {
    await startFails(
      configWith('token', {
        tokens: [
          { token: 'a-long-token-1', subject: 'x', role: 'viewer' },
          { token: 'a-long-token-2', role: 'viewer' },
        ],
      }),
      /tokens\[1\]\.subject must be a non-empty string/,
    );
    await startFails(
      configWith('token', { tokens: [{ token: '', subject: 'x', role: 'viewer' }] }),
      /tokens\[0\]\.token must be a non-empty string/,
    );
  });

  it('when two entries share one token, then start-up fails naming both entries and not the token', async () => {
    const secret = 'shared-secret-token-91b2';
    await startFails(
      configWith('token', {
        tokens: [
          { token: secret, subject: 'a', role: 'viewer' },
          { token: secret, subject: 'b', role: 'admin' },
        ],
      }),
      /tokens\[1\]\.token repeats tokens\[0\]\.token/,
      secret,
    );
  });
});
