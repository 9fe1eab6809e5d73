import { strict as assert } from 'node:assert';
import { allRoutes } from '../../server/api/routes';
import { mountedPaths } from '../../server/api/openapi';
import { requiredRole } from '../../server/auth/roles';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { send } from '../auth/helpers/authWorkspace';
import { strictAjv, walkEveryRoute } from './helpers/everyRouteWalk';
import packageJson from '../../package.json';

/** Routes that cannot be called over Markdown, with the reason. None today; a new entry must say why. */
walkEveryRoute({
  storageName: 'Markdown',
  storage: async () => ({ plugins: {}, cleanup: async () => undefined }),
  uncalled: {},
});

describe('API OpenAPI response schemas: usable on their own', () => {
  it('when each route.response is compiled alone by a strict draft 2020-12 validator (as the MCP tools use it), then it compiles', () => {
    const ajv = strictAjv();
    let compiled = 0;
    for (const route of allRoutes) {
      if (!route.response) continue;
      assert.doesNotThrow(() => ajv.compile(route.response as object), `${route.method.toUpperCase()} ${route.path}`);
      assert.ok(
        !JSON.stringify(route.response).includes('"$ref"'),
        `${route.method.toUpperCase()} ${route.path}: response holds a $ref, so it cannot stand alone`,
      );
      compiled++;
    }
    const json = allRoutes.filter((r) => (r.success ?? 200) !== 204 && r.returns !== 'the file bytes');
    assert.equal(compiled, json.length, 'every route with a JSON answer has a response schema');
  });
});

describe('API OpenAPI document: security, title and lint', function () {
  this.timeout(60_000);
  const ADMIN_TOKEN = 'tok-openapi-admin-0123456789';
  let server: TestServer;
  let doc: any;
  before(async () => {
    server = await startTestServer({
      config: {
        version: 2,
        plugins: {
          'auth.identity': {
            provider: 'token',
            options: { tokens: [{ token: ADMIN_TOKEN, subject: 'ada', role: 'admin' }] },
          },
        },
      },
    });
    doc = await (await fetch(`${server.url}/api/docs/json`)).json();
  });
  after(async () => {
    await server?.close();
  });

  it('when the document is read, then it is titled with the product name and carries its license', () => {
    assert.equal(doc.info.title, packageJson.displayName);
    assert.equal(doc.info.license.identifier, packageJson.license);
    assert.match(doc.info.description, /If-Match/);
    assert.match(doc.info.description, /412/);
    assert.match(doc.info.description, /409/);
  });

  it('when auth is on and a request carries no credential, then operations declaring bearerAuth answer 401 and those declaring security: [] do not', async () => {
    let publicOps = 0;
    for (const route of allRoutes) {
      for (const path of mountedPaths(route)) {
        const op = doc.paths[path][route.method];
        const concrete = path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'boardId' ? 'default' : 'x'));
        const answer = await send(
          server,
          route.method.toUpperCase(),
          `/api${concrete}${route.path === '/resolve-path' ? '?path=.' : ''}`,
          { body: route.body ? {} : undefined },
        );
        const where = `${route.method.toUpperCase()} ${path}`;
        if (op.security.length === 0) {
          publicOps++;
          assert.notEqual(answer.status, 401, `${where} is documented as public but asks for a credential`);
          assert.equal(requiredRole(route), 'public', where);
        } else {
          assert.deepEqual(op.security, [{ bearerAuth: [] }], where);
          assert.equal(
            answer.status,
            401,
            `${where} is documented as needing the bearer token but answered ${answer.status} without one`,
          );
          assert.ok(op.responses['401'] && op.responses['403'], `${where} does not document 401 and 403`);
        }
      }
    }
    assert.ok(publicOps >= 2, `only ${publicOps} public operations`);
    const scheme = doc.components.securitySchemes.bearerAuth;
    assert.deepEqual([scheme.type, scheme.scheme], ['http', 'bearer']);
    assert.match(scheme.description, /auth\.identity/);
  });

  it('when operations and tags are listed, then every operation id is unique camelCase and every tag has a description', () => {
    const ids: string[] = [];
    for (const item of Object.values(doc.paths) as Record<string, any>[]) {
      for (const op of Object.values(item)) {
        assert.match(op.operationId, /^[a-z][a-zA-Z0-9]*$/);
        ids.push(op.operationId);
        for (const tag of op.tags)
          assert.ok(
            doc.tags.some((t: any) => t.name === tag && t.description.length > 20),
            `tag "${tag}" has no description`,
          );
      }
    }
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(
      doc.paths['/tasks/{id}'].get.operationId,
      'getTasksById',
      'operation ids are derived from the path, so they stay stable',
    );
  });

  it('when redocly lints the served document with its recommended rules, then it reports no error and no warning', async () => {
    const { createConfig, lintFromString } = await import('@redocly/openapi-core');
    const config = await createConfig({ extends: ['recommended'] });
    const source = await (await fetch(`${server.url}/api/docs/json`)).text();
    const problems = await lintFromString({ source, absoluteRef: `${server.url}/api/docs/json`, config });
    // Nothing is left to explain: a new warning must be fixed or listed here with its reason.
    const described = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`,
    );
    assert.deepEqual(described, []);
  });
});
