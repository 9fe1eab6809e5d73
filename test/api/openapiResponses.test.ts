import { strict as assert } from 'node:assert';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { allRoutes } from '../../server/api/routes';
import { mountedPaths } from '../../server/api/openapi';
import { requiredRole } from '../../server/auth/roles';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { Receiver } from '../helpers/webhookReceiver';
import { eventually } from '../helpers/waiting';
import { send } from '../auth/helpers/authWorkspace';
import { Fixture, REQUESTS, type Scope } from '../auth/helpers/routeRequests';
import packageJson from '../../package.json';

/**
 * Every route of the table, called for real, its answer held to the schema the OpenAPI document
 * declares for it. The calls come from the role matrix's request table, so a new route needs one
 * request builder for both suites.
 */

/** Routes that cannot be called here, with the reason. None today; a new entry must say why. */
const UNCALLED: Record<string, string> = {};

const COMPONENT_BASE = 'https://repo-kanban.invalid/components/';

/**
 * The schema with every object that lists its properties closed to other ones, unless it says
 * otherwise: the published schemas stay open so clients survive new fields, but an answer carrying
 * a field the document does not describe must fail here.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, closed(value)]),
  );
  if (typeof copy.$ref === 'string') copy.$ref = copy.$ref.replace('#/components/schemas/', COMPONENT_BASE);
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/** A strict draft 2020-12 validator (OpenAPI 3.1's dialect), as a host reusing the schemas would build. */
const strictAjv = () => new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });

function validatorsFor(doc: any) {
  const ajv = strictAjv();
  for (const [name, schema] of Object.entries(doc.components.schemas))
    ajv.addSchema(closed(schema) as object, COMPONENT_BASE + name);
  const compiled = new Map<string, ValidateFunction>();
  return (key: string, schema: unknown) => {
    if (!compiled.has(key)) compiled.set(key, ajv.compile(closed(schema) as object));
    return compiled.get(key)!;
  };
}

const MOUNTED = allRoutes.flatMap((route) =>
  mountedPaths(route).map((mounted) => ({
    route,
    key: `${route.method.toUpperCase()} ${mounted}`,
    method: route.method,
    path: mounted,
    requestKey: `${route.method.toUpperCase()} ${route.path}`,
    scope: (mounted === route.path
      ? { board: 'default', prefix: '/api' }
      : { board: 'ops', prefix: '/api/boards/ops' }) as Scope,
  })),
);

describe('API OpenAPI response schemas: every route answers what the document declares', function () {
  this.timeout(60_000);
  let server: TestServer;
  let fixture: Fixture;
  let doc: any;
  let validator: ReturnType<typeof validatorsFor>;
  const receiver = new Receiver();

  before(async () => {
    await receiver.listen();
    // The first delivery fails and the rest succeed, so the delivery history holds both kinds.
    receiver.answer = (_request, countOnPath) => (countOnPath === 1 ? 500 : 200);
    server = await startTestServer({
      config: {
        version: 2,
        boards: [
          { id: 'default', name: 'Default', actions: { deploy: 'Deploy' } },
          { id: 'ops', name: 'Operations', description: 'the second board', actions: { deploy: 'Deploy' } },
        ],
        labels: { urgent: { color: '#ef4444', group: 'severity' }, later: { color: '#6b7280' } },
        forms: {
          bug: {
            name: 'Bug report',
            schema: { type: 'object', properties: { steps: { type: 'string' } } },
            data: { steps: '' },
          },
        },
      },
    });
    doc = await (await fetch(`${server.url}/api/docs/json`)).json();
    validator = validatorsFor(doc);
    fixture = new Fixture(server, '');
    await fixture.seed();
    await enrich();
  });

  after(async () => {
    await server?.close();
    await receiver.close();
    await fixture?.dropDatabases();
  });

  /** Fields that are null or absent on a fresh card get values, so both branches of the schemas are met. */
  async function enrich() {
    const card = fixture.card('default');
    await fixture.admin('PUT', `/api/webhooks/${fixture.webhookId}`, { url: receiver.url('/hook'), events: ['*'] });
    await fixture.admin('PUT', `/api/tasks/${card}`, {
      assignee: 'ada',
      dueDate: '2026-12-01',
      labels: ['urgent'],
      metadata: { sprint: 's12', links: { jira: 'ABC-1' } },
      actions: { deploy: 'Deploy', rollback: 'Roll back' },
      forms: [{ name: 'bug' }, { id: 'inline', name: 'Inline', schema: { type: 'object' }, data: { a: 1 } }],
    });
    await fixture.admin('POST', `/api/tasks/${card}/logs`, { text: 'built', source: 'ci', object: { build: 42 } });
    await fixture.admin('POST', '/api/boards/ops/logs', { text: 'deployed', object: { version: '1.2.3' } });
    await fixture.admin('PUT', `/api/tasks/${card}/comments/${fixture.comment('default')}`, { content: 'edited once' });
    await fixture.admin('POST', `/api/tasks/${card}/forms/bug/submit`, { data: { steps: 'open it' } });
    await fixture.admin('POST', `/api/tasks/${card}/open`);
    await fixture.admin('POST', `/api/tasks/${card}/read`, { readThrough: { at: new Date().toISOString() } });
    await eventually(async () => {
      const statuses = (
        (await fixture.admin('GET', `/api/webhooks/${fixture.webhookId}/deliveries`)) as { status: string }[]
      ).map((d) => d.status);
      assert.ok(
        statuses.includes('retrying') && statuses.includes('delivered'),
        `deliveries so far: ${statuses.join(', ')}`,
      );
    });
  }

  /** The envelope schema of an operation's success answer, from the document. */
  function successOf(path: string, method: string): { status: string; response: any } {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method.toUpperCase()} ${path} is not in the document`);
    const [status] = Object.keys(op.responses).filter((s) => s.startsWith('2'));
    return { status, response: op.responses[status] };
  }

  for (const mounted of MOUNTED) {
    it(`when ${mounted.key} is called with a valid request, then its answer matches the declared response schema`, async function () {
      if (UNCALLED[mounted.key]) {
        assert.ok(UNCALLED[mounted.key].length > 10, `${mounted.key} is listed as not callable without a reason`);
        return;
      }
      const build = REQUESTS[mounted.requestKey];
      assert.ok(
        build,
        `${mounted.key} has no request builder in test/auth/helpers/routeRequests.ts and no reason in UNCALLED`,
      );
      const { status, response } = successOf(mounted.path, mounted.method);
      const prepared = await build(fixture, mounted.scope);
      const answer = await send(server, mounted.method.toUpperCase(), prepared.path, { body: prepared.body });
      assert.equal(
        String(answer.status),
        status,
        `${mounted.key} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
      );
      if (status === '204') {
        assert.equal(answer.text, '', `${mounted.key}: a 204 with a body`);
        return;
      }
      if (mounted.route.returns === 'the file bytes') {
        assertFileMatches(mounted.key, response, answer);
        return;
      }
      const json = response.content['application/json'];
      assert.ok(json, `${mounted.key}: the success is neither JSON nor a file`);
      const data = json.schema.properties.data;
      assert.ok(data && Object.keys(data).length > 0, `${mounted.key} declares no schema for its data`);
      assertMatches(mounted.key, json.schema, answer);
    });
  }

  function assertMatches(key: string, schema: unknown, answer: { body: unknown; text: string }) {
    const validate = validator(key, schema);
    assert.ok(
      validate(answer.body),
      `${key}: the answer does not match the declared schema: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}\nanswer: ${answer.text.slice(0, 600)}`,
    );
  }

  /** A file is held to the schema declared for the content type it came as, when its format has one. */
  function assertFileMatches(
    key: string,
    response: any,
    answer: { body: unknown; text: string; headers: Record<string, string> },
  ) {
    assert.ok(answer.text.length > 0, `${key}: the file is empty`);
    const type = (answer.headers['content-type'] ?? '').split(';')[0];
    const declared = response.content[type] ?? response.content['*/*'];
    assert.ok(declared, `${key}: answered ${type}, which the document does not declare`);
    if (type === 'application/json') assertMatches(`${key} ${type}`, declared.schema, answer);
  }

  for (const path of ['/export', '/boards/{boardId}/export']) {
    it(`when GET ${path}?format=json is called, then the file matches the schema declared for application/json`, async () => {
      const answer = await send(server, 'GET', `/api${path.replace('{boardId}', 'ops')}?format=json`);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.ok(
        Array.isArray((answer.body as { cards: unknown[] }).cards) &&
          (answer.body as { cards: unknown[] }).cards.length > 0,
        'the export holds cards',
      );
      assertFileMatches(`GET ${path}`, successOf(path, 'get').response, answer);
    });
  }

  it('when the test lists routes it cannot call, then each still exists and has a reason', () => {
    const keys = new Set(MOUNTED.map((m) => m.key));
    for (const [key, reason] of Object.entries(UNCALLED)) {
      assert.ok(keys.has(key), `${key} is listed as not callable but is not a route`);
      assert.ok(reason.length > 10, `${key}: no reason given`);
    }
  });
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
