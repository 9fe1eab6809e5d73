import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { listFiles, makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { configPath, createTask, exists, okData } from '../helpers/envelope';
import { waitUntil } from '../helpers/waiting';
import { setLogSink } from '../../server/core/log';

const STATUS_PATHS = ['/workspace', '/storage', '/card-state/status', '/auth'];
const TOKEN = 'status-test-token-0123456789';

/** The `data` schema the served OpenAPI document gives for a GET route. */
async function documentedData(server: TestServer, route: string): Promise<Record<string, any>> {
  const doc = await okJson(await fetch(`${server.url}/api/docs/json`));
  const schema = doc.paths[route]?.get?.responses?.['200']?.content?.['application/json']?.schema;
  assert.ok(schema, `no documented 200 answer for GET ${route}`);
  return resolveRefs(schema.properties.data, doc.components?.schemas ?? {});
}

/** The schema with each `$ref` to a shared component replaced by that component. */
function resolveRefs(schema: any, components: Record<string, any>): any {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, components));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref) : null;
  if (ref) return resolveRefs(components[ref[1]], components);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, components)]));
}

async function okJson(response: Response): Promise<any> {
  assert.equal(response.status, 200);
  return response.json();
}

/** Every documented field is present with its documented type; fails naming the first that is not. */
async function assertMatchesDocs(server: TestServer, route: string, data: unknown): Promise<void> {
  const schema = await documentedData(server, route);
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  assert.ok(
    validate(data),
    `GET ${route} does not match its documentation: ${JSON.stringify(validate.errors)}\n${JSON.stringify(data)}`,
  );
}

/** Names of every property a schema documents, as dot paths. */
function documentedFields(schema: Record<string, any>, prefix = ''): string[] {
  return Object.entries((schema.properties ?? {}) as Record<string, any>).flatMap(([key, sub]) => [
    `${prefix}${key}`,
    ...documentedFields(sub, `${prefix}${key}.`),
  ]);
}

describe('API status routes', () => {
  describe('without auth', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await startTestServer();
    });
    afterEach(async () => {
      await server.close();
    });

    for (const route of STATUS_PATHS) {
      it(`when GET ${route} is called, then 200 and the answer holds every field its OpenAPI entry documents, with a description for each`, async () => {
        const data = okData(await server.api('GET', `/api${route}`));
        await assertMatchesDocs(server, route, data);
        const schema = await documentedData(server, route);
        const names = documentedFields(schema);
        assert.ok(names.length >= 4, `GET ${route} documents only ${names.join(', ')}`);
        const undocumented = Object.keys(data).filter((key) => !names.includes(key));
        assert.deepEqual(undocumented, [], `GET ${route} answers fields its documentation does not name`);
        for (const [key, sub] of Object.entries(schema.properties as Record<string, any>)) {
          assert.ok(sub.description || sub.properties, `field "${key}" of GET ${route} has no description`);
        }
      });
    }

    it('when GET /workspace is called, then it gives the root, the real port, the built-in providers and active watcher support', async () => {
      const data = okData(await server.api('GET', '/api/workspace'));
      assert.equal(data.root, path.resolve(server.root));
      assert.equal(data.configPath, configPath(server));
      assert.equal(data.kanbanDir, path.join(path.resolve(server.root), '.kanban'));
      assert.equal(data.port, server.running.port);
      assert.equal(data.defaultBoard, 'default');
      assert.deepEqual(data.boards, ['default']);
      assert.equal(data.configExists, false);
      assert.deepEqual(
        {
          card: data.providers.card.provider,
          attachment: data.providers.attachment.provider,
          cardState: data.providers.cardState.provider,
        },
        { card: 'markdown', attachment: 'localfs', cardState: 'file' },
      );
      assert.deepEqual(data.auth, { provider: null, enabled: false });
      assert.deepEqual(data.watcher, { supported: true, active: true });
      assert.deepEqual(data.invalidFiles, []);
    });

    it('when cards and boards are added, then cardCount, boards, configExists and revision follow', async () => {
      const before = okData(await server.api('GET', '/api/workspace'));
      okData(await server.api('POST', '/api/boards', { id: 'ops', name: 'Operations' }), 201);
      await createTask(server, 'One');
      await createTask(server, 'Two', 'ops');
      const after = okData(await server.api('GET', '/api/workspace'));
      assert.equal(after.cardCount, before.cardCount + 2);
      assert.deepEqual(after.boards, ['default', 'ops']);
      assert.equal(after.configExists, true);
      assert.equal(after.revision, before.revision + 3);
    });

    it('when status routes are read, then nothing is written to the workspace', async () => {
      // The server notes itself in .kanban/.state/server.json at start (for the kanban command);
      // reading status must add nothing to that.
      const before = await listFiles(server.root);
      for (const route of STATUS_PATHS) okData(await server.api('GET', `/api${route}`));
      assert.equal(await exists(configPath(server)), false);
      assert.deepEqual(await listFiles(server.root), before);
    });

    it('when a card file is edited by hand into something that does not parse, then /workspace lists it with a reason and it is left untouched', async () => {
      const task = await createTask(server, 'Soon broken');
      const file = path.join(server.root, '.kanban', 'boards', 'default', 'backlog', `${task.id}.md`);
      await fs.writeFile(file, '---\npriority: [unclosed\n---\n\n# Broken\n');
      await server.running.watcher?.settled();
      const { invalidFiles } = okData(await server.api('GET', '/api/workspace'));
      assert.equal(invalidFiles.length, 1, JSON.stringify(invalidFiles));
      assert.equal(invalidFiles[0].path, `.kanban/boards/default/backlog/${task.id}.md`);
      assert.match(invalidFiles[0].reason, /YAML|frontmatter/i);
      assert.equal(await fs.readFile(file, 'utf8'), '---\npriority: [unclosed\n---\n\n# Broken\n');
    });

    it('when GET /storage is called, then it names the active card, attachment, webhook and card-state providers and the watch state', async () => {
      const data = okData(await server.api('GET', '/api/storage'));
      assert.equal(data.card.provider, 'markdown');
      assert.equal(data.attachment.provider, 'localfs');
      assert.equal(data.webhook.provider, 'built-in');
      assert.equal(data.cardState.provider, 'file');
      assert.equal(data.filesystem.kanbanDir, path.join(path.resolve(server.root), '.kanban'));
      assert.equal(data.filesystem.watch, true);
    });

    it('when GET /card-state/status is called without auth, then it reports the file backend and that the default actor is used', async () => {
      const data = okData(await server.api('GET', '/api/card-state/status'));
      assert.equal(data.provider, 'file');
      assert.equal(data.backend, 'file');
      assert.equal(data.available, true);
      assert.equal(data.defaultActor.id, 'default');
      assert.match(data.defaultActor.usedWhen, /no auth/);
      assert.equal(data.actor, 'default');
      assert.deepEqual(data.identity, { provider: null, required: false, available: true, error: null, since: null });
    });

    it('when GET /auth is called with a bearer token although auth is off, then it says auth is off and never echoes the token', async () => {
      const answer = await fetch(`${server.url}/api/auth`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const text = await answer.text();
      assert.equal(answer.status, 200);
      assert.ok(!text.includes(TOKEN), 'the token was echoed');
      const { data } = JSON.parse(text);
      assert.equal(data.enabled, false);
      assert.equal(data.provider, null);
      assert.equal(data.credential.present, true);
      assert.equal(data.credential.source, 'header');
    });
  });

  describe('with token auth', () => {
    let server: TestServer;
    beforeEach(async () => {
      server = await startTestServer({
        config: {
          version: 2,
          plugins: {
            'auth.identity': {
              provider: 'token',
              options: { tokens: [{ token: TOKEN, subject: 'carol', role: 'editor' }] },
            },
          },
        },
      });
    });
    afterEach(async () => {
      await server.close();
    });

    it('when the card-state status is asked without a credential, then it still answers: identity required, no actor', async () => {
      const data = okData(await server.api('GET', '/api/card-state/status'));
      assert.equal(data.identity.required, true);
      assert.equal(data.identity.provider, 'token');
      assert.equal(data.identity.available, true);
      assert.equal(data.actor, null);
      await assertMatchesDocs(server, '/card-state/status', data);
    });

    it('when the card-state status is asked with a known token, then the actor is its subject', async () => {
      assert.equal(
        okData(await server.api('GET', '/api/card-state/status', undefined, { authorization: `Bearer ${TOKEN}` }))
          .actor,
        'carol',
      );
    });

    it('when GET /auth carries a known token, then it reports the subject and role and never the token; an unknown token is not recognised', async () => {
      const known = await fetch(`${server.url}/api/auth`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const text = await known.text();
      assert.ok(!text.includes(TOKEN));
      const { data } = JSON.parse(text);
      assert.deepEqual(
        {
          provider: data.provider,
          enabled: data.enabled,
          subject: data.subject,
          role: data.role,
          recognised: data.credential.recognised,
        },
        { provider: 'token', enabled: true, subject: 'carol', role: 'editor', recognised: true },
      );
      await assertMatchesDocs(server, '/auth', data);
      const unknown = okData(
        await server.api('GET', '/api/auth', undefined, { authorization: 'Bearer not-a-known-token' }),
      );
      assert.equal(unknown.credential.recognised, false);
      assert.equal(unknown.subject, null);
    });

    it('when GET /workspace is called by an identified caller, then it reports the token provider as enabled', async () => {
      const data = okData(await server.api('GET', '/api/workspace', undefined, { authorization: `Bearer ${TOKEN}` }));
      assert.deepEqual(data.auth, { provider: 'token', enabled: true });
      await assertMatchesDocs(server, '/workspace', data);
    });
  });

  it('when the workspace starts with a card file that does not parse, then /workspace reports it from the first request', async () => {
    const root = await makeTempDir();
    const dir = path.join(root, '.kanban', 'boards', 'default', 'todo');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'hand-made.md'), 'no frontmatter here\n');
    const server = await startTestServer({ root });
    try {
      const { invalidFiles } = okData(await server.api('GET', '/api/workspace'));
      assert.deepEqual(
        invalidFiles.map((f: any) => f.path),
        ['.kanban/boards/default/todo/hand-made.md'],
      );
      assert.match(invalidFiles[0].reason, /frontmatter/);
    } finally {
      await server.close();
    }
  });
});

describe('API status: unknown keys of .kanban.json', () => {
  let server: TestServer | undefined;
  let restoreLog: (() => void) | undefined;
  afterEach(async () => {
    restoreLog?.();
    await server?.close();
    server = restoreLog = undefined;
  });

  it('when .kanban.json has a misspelled key, then the server starts, logs it once and /workspace lists it until the file is fixed', async () => {
    const logged: string[] = [];
    restoreLog = setLogSink((level, message) => logged.push(`${level} ${message}`));
    const config = { version: 2, boards: [{ id: 'default', columns: [{ id: 'todo', wipLimt: 3 }, { id: 'done' }] }] };
    server = await startTestServer({ config });
    const warning = '.kanban.json: unknown key $.boards[0].columns[0].wipLimt (did you mean "wipLimit"?)';
    assert.deepEqual(okData(await server.api('GET', '/api/workspace')).configWarnings, [warning]);
    assert.deepEqual(
      logged.filter((line) => line.includes('wipLimt')),
      [`warn kanban: ${warning}`],
    );
    assert.deepEqual(
      okData(await server.api('GET', '/api/columns')).map((c: { id: string }) => c.id),
      ['todo', 'done'],
      'the file is still used',
    );

    const fixed = { version: 2, boards: [{ id: 'default', columns: [{ id: 'todo', wipLimit: 3 }, { id: 'done' }] }] };
    await fs.writeFile(configPath(server), JSON.stringify(fixed, null, 2));
    await waitUntil(
      async () => okData(await server!.api('GET', '/api/workspace')).configWarnings.length === 0,
      10_000,
      'the warning to go once the file is fixed',
    );
  });

  it('when the service rewrites .kanban.json, then the nested unknown keys it drops leave the warnings, and a top-level near miss stays', async () => {
    const config = {
      version: 2,
      lables: {},
      boards: [{ id: 'default', columns: [{ id: 'todo', wipLimt: 3 }, { id: 'done' }] }],
    };
    server = await startTestServer({ config });
    assert.equal(okData(await server.api('GET', '/api/workspace')).configWarnings.length, 2);
    okData(await server.api('PUT', '/api/labels/bug', { color: '#ef4444' }));
    assert.deepEqual(okData(await server.api('GET', '/api/workspace')).configWarnings, [
      '.kanban.json: unknown key $.lables (did you mean "labels"?)',
    ]);
  });
});
