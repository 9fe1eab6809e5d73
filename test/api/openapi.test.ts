import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { allRoutes } from '../../server/api/routes';
import { mountedPaths } from '../../server/api/openapi';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { launchChromium } from '../ui/uiHelpers';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface ExpressLayer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: ExpressLayer[] };
}

/**
 * Every route the running server's Express app has registered, as "METHOD /api/path/{param}",
 * found by walking its router stack (nested routers included), so nothing is taken from the table.
 */
function registeredRoutes(server: TestServer): string[] {
  const app = server.running.app as unknown as { router: { stack: ExpressLayer[] } };
  const found: string[] = [];
  const walk = (stack: ExpressLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = (prefix + layer.route.path).replace(/:(\w+)/g, '{$1}');
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on) found.push(`${method.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + (layer.rawPath && layer.rawPath !== '/' ? layer.rawPath : ''));
      }
    }
  };
  walk(app.router.stack, '');
  return found;
}

/** The docs routes serve the document itself; everything else under /api must be documented. */
const isDocsRoute = (route: string) => /^GET \/api\/docs(\/|$)/.test(route);

function documentedRoutes(doc: any): string[] {
  const base = doc.servers[0].url;
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((m) => `${m.toUpperCase()} ${base}${path}`),
  );
}

function operations(doc: any): { method: string; path: string; op: any }[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((method) => ({ method, path, op: item[method] })),
  );
}

/** A concrete URL for a documented path: `default` for boards, a harmless word for other ids. */
function concrete(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'boardId' ? 'default' : 'x'));
}

/** A value of the right JSON type for each required field, so only the extra field is wrong. */
function requiredFiller(schema: any): Record<string, unknown> {
  const sample = (field: any): unknown => {
    const type = Array.isArray(field?.type) ? field.type[0] : field?.type;
    if (field?.enum) return field.enum[0];
    return type === 'array'
      ? []
      : type === 'object'
        ? {}
        : type === 'integer' || type === 'number'
          ? 0
          : type === 'boolean'
            ? false
            : 'x';
  };
  return Object.fromEntries((schema.required ?? []).map((name: string) => [name, sample(schema.properties?.[name])]));
}

/** A GET through node:http, which adds no header of its own (fetch adds Cache-Control: no-cache to a conditional request). */
function plainGet(url: string, ifNoneMatch?: string): Promise<{ status: number; etag?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {} }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
      })
      .on('error', reject);
  });
}

/** Operations whose success is a file, not the JSON envelope. */
const FILE_OPERATIONS = new Set(
  allRoutes
    .filter((r) => r.returns === 'the file bytes')
    .flatMap((r) => mountedPaths(r).map((p) => `${r.method} ${p}`)),
);

describe('API OpenAPI document and docs page', () => {
  let server: TestServer;
  let doc: any;
  before(async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/docs/json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    doc = await response.json();
  });
  after(async () => {
    await server.close();
  });

  it('when /api/docs/json is fetched, then it is an OpenAPI 3.1 document with info.version 1.0.0 and servers at /api', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(doc.info.version, '1.0.0');
    assert.equal(typeof doc.info.title, 'string');
    assert.deepEqual(
      doc.servers.map((s: { url: string }) => s.url),
      ['/api'],
    );
  });

  it('when the routes registered on the Express app are compared with the document, then every route is documented and every documented route exists', () => {
    const registered = registeredRoutes(server).filter((r) => / \/api\//.test(r) && !isDocsRoute(r));
    const documented = documentedRoutes(doc);
    assert.ok(registered.length > 80, `only ${registered.length} routes were found on the app`);
    const undocumented = registered.filter((r) => !documented.includes(r));
    const missing = documented.filter((r) => !registered.includes(r));
    assert.deepEqual(undocumented, [], 'registered but not in the OpenAPI document');
    assert.deepEqual(missing, [], 'documented but not registered');
    assert.equal(new Set(registered).size, registered.length, 'a route is registered twice');
  });

  it('when a twin route exists, then both the default-board path and its /boards/{boardId} form are documented', () => {
    for (const route of allRoutes.filter((r) => r.twin)) {
      for (const path of mountedPaths(route))
        assert.ok(doc.paths[path]?.[route.method], `${route.method.toUpperCase()} ${path} is not documented`);
    }
    for (const path of [
      '/tasks/{id}/comments',
      '/tasks/{id}/logs',
      '/tasks/{id}/attachments',
      '/tasks/{id}/attachments/{filename}',
      '/tasks/{id}/forms/{formId}/submit',
      '/tasks/{id}/actions/{action}',
      '/tasks/{id}/open',
      '/tasks/{id}/read',
    ]) {
      assert.ok(doc.paths[path] && doc.paths[`/boards/{boardId}${path}`], `${path} or its twin is missing`);
    }
  });

  it('when an operation has path parameters, then each is documented as a required string path parameter', () => {
    for (const { method, path, op } of operations(doc)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const documented = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      assert.deepEqual(
        documented.map((p: any) => p.name),
        names,
        `${method} ${path}`,
      );
      for (const p of documented)
        assert.deepEqual([p.required, p.schema.type], [true, 'string'], `${method} ${path} {${p.name}}`);
    }
  });

  it('when the task list is documented, then all its query parameters are there with their types', () => {
    const params = Object.fromEntries(
      doc.paths['/tasks'].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema.type]),
    );
    assert.deepEqual(
      {
        q: params.q,
        fuzzy: params.fuzzy,
        status: params.status,
        priority: params.priority,
        assignee: params.assignee,
        label: params.label,
        labelGroup: params.labelGroup,
        includeDeleted: params.includeDeleted,
      },
      {
        q: 'string',
        fuzzy: 'boolean',
        status: 'string',
        priority: 'string',
        assignee: 'string',
        label: 'string',
        labelGroup: 'string',
        includeDeleted: 'boolean',
      },
    );
    assert.deepEqual(
      Object.keys(params).filter((name) => !/^[\w-]+$/.test(name)),
      [],
      'a parameter name that is a pattern, not a name',
    );
    const [meta] = doc.paths['/tasks'].get['x-query-parameter-patterns'];
    assert.equal(meta.in, 'query');
    assert.ok(
      new RegExp(meta.namePattern).test('meta.sprint') && new RegExp(meta.namePattern).test('meta.links.jira'),
      meta.namePattern,
    );
    assert.ok(
      !new RegExp(meta.namePattern).test('metadata') && !new RegExp(meta.namePattern).test('meta.'),
      meta.namePattern,
    );
    assert.match(doc.paths['/tasks'].get.description, /meta\.<field>/);
    assert.deepEqual(
      doc.paths['/tasks/{id}/attachments/{filename}'].get.parameters.find((p: any) => p.name === 'download')?.in,
      'query',
    );
  });

  it('when a route validates a body, then the document shows exactly that schema as its request body', () => {
    let withBody = 0;
    for (const route of allRoutes) {
      for (const path of mountedPaths(route)) {
        const op = doc.paths[path][route.method];
        if (!route.body) {
          assert.equal(op.requestBody, undefined, `${route.method} ${path} documents a body it does not read`);
          continue;
        }
        withBody++;
        assert.deepEqual(
          op.requestBody.content['application/json'].schema,
          JSON.parse(JSON.stringify(route.body)),
          `${route.method} ${path}`,
        );
        const required = ((route.body.required as string[] | undefined) ?? []).length > 0;
        assert.equal(
          op.requestBody.required,
          required,
          `${route.method} ${path}: a body is ${required ? '' : 'not '}needed`,
        );
      }
    }
    assert.ok(withBody > 30, `only ${withBody} operations document a body`);
    assert.deepEqual(doc.paths['/tasks/{id}/comments'].post.requestBody.content['application/json'].schema.required, [
      'author',
      'content',
    ]);
    assert.deepEqual(doc.paths['/boards/{boardId}/logs'].post.requestBody.content['application/json'].schema.required, [
      'text',
    ]);
    assert.equal(doc.paths['/tasks/{id}/read'].post.requestBody.required, false, 'readThrough is optional');
  });

  it('when every documented operation is answered, then its responses use the envelope: {ok:true, data} on success, the Error schema on failure', () => {
    assert.deepEqual(doc.components.schemas.Error.required, ['ok', 'error']);
    assert.deepEqual(doc.components.schemas.Error.properties.ok, { const: false });
    for (const { method, path, op } of operations(doc)) {
      const statuses = Object.keys(op.responses);
      const answers = statuses.filter((s) => s.startsWith('2'));
      // Besides its success, a route may answer 204 when it has nothing to give (POST /tasks/pick), never with a body.
      const success = answers.length > 1 ? answers.filter((s) => s !== '204') : answers;
      assert.equal(success.length, 1, `${method} ${path} has ${success.length} success answers`);
      if (answers.length > 1)
        assert.equal(op.responses['204'].content, undefined, `${method} ${path}: its 204 has no body`);
      const answer = op.responses[success[0]];
      if (success[0] === '204') assert.equal(answer.content, undefined, `${method} ${path}: 204 has no body`);
      else if (FILE_OPERATIONS.has(`${method} ${path}`)) {
        assert.ok(Object.keys(answer.content).length > 0, `${method} ${path}: a file without a content type`);
      } else if (answer.content['application/json']) {
        const schema = answer.content['application/json'].schema;
        assert.deepEqual(
          [schema.properties.ok, schema.required],
          [{ const: true }, ['ok', 'data']],
          `${method} ${path}`,
        );
      } else {
        assert.ok(answer.content['*/*'], `${method} ${path}: a success that is neither JSON nor a file`);
      }
      assert.ok(statuses.includes('400'), `${method} ${path} documents no 400`);
      if (op.responses['304'])
        assert.equal(op.responses['304'].content, undefined, `${method} ${path}: its 304 has no body`);
      for (const status of statuses.filter((s) => !s.startsWith('2') && s !== '304')) {
        assert.deepEqual(
          op.responses[status].content['application/json'].schema,
          { $ref: '#/components/schemas/Error' },
          `${method} ${path} ${status}`,
        );
      }
    }
  });

  it('when a route answers 404 or 501, then the document lists them (attachment download, card routes)', () => {
    assert.ok(doc.paths['/tasks/{id}/attachments/{filename}'].get.responses['501']);
    assert.ok(doc.paths['/tasks/{id}/attachments/{filename}'].get.responses['404']);
    for (const path of [
      '/tasks/{id}/comments',
      '/tasks/{id}/logs',
      '/tasks/{id}/open',
      '/tasks/{id}/read',
      '/tasks/{id}/actions/{action}',
    ]) {
      assert.ok(
        Object.values(doc.paths[path]).every((op: any) => op.responses['404']),
        `${path} lacks 404`,
      );
    }
    assert.equal(Object.keys(doc.paths['/tasks/{id}/actions/{action}'].post.responses).includes('204'), true);
  });

  it('when an operation can write (any method but GET), then it declares 409, unless its route says why it cannot conflict', () => {
    const conflictFree = new Set(
      allRoutes.filter((r) => r.noConflict).flatMap((r) => mountedPaths(r).map((p) => `${r.method} ${p}`)),
    );
    const writes = operations(doc).filter(({ method }) => method !== 'get');
    assert.ok(writes.length > 80, `only ${writes.length} write operations`);
    assert.deepEqual(
      writes
        .filter(({ method, path, op }) => !op.responses['409'] && !conflictFree.has(`${method} ${path}`))
        .map(({ method, path }) => `${method} ${path}`),
      [],
    );
    for (const route of allRoutes.filter((r) => r.noConflict))
      assert.ok(route.noConflict!.length > 20, `${route.method} ${route.path}: noConflict must say why`);
  });

  it('when a GET answers JSON, then it declares If-None-Match and its 304; a real matching If-None-Match on GET /tasks/{id} gets 304', async () => {
    for (const { method, path, op } of operations(doc).filter(({ method }) => method === 'get')) {
      const json = Object.entries(op.responses).some(
        ([status, r]: [string, any]) =>
          status.startsWith('2') && r.content?.['application/json']?.schema?.properties?.ok,
      );
      assert.equal(
        Boolean(op.responses['304']),
        json,
        `${method} ${path}: 304 declared ${Boolean(op.responses['304'])}, JSON answer ${json}`,
      );
      if (json)
        assert.ok(
          op.parameters.some((p: any) => p.in === 'header' && p.name === 'If-None-Match'),
          `${method} ${path} documents no If-None-Match`,
        );
    }
    const created = await server.api('POST', '/api/tasks', { title: 'Cached' });
    const first = await fetch(`${server.url}/api/tasks/${created.body?.data.id}`);
    const again = await fetch(`${server.url}/api/tasks/${created.body?.data.id}`, {
      headers: { 'if-none-match': first.headers.get('etag') ?? '' },
    });
    assert.equal(again.status, 304);
  });

  it('when a GET that declares 304 and needs no id is read again with its ETag (as curl sends it, without no-cache), then it answers 304', async () => {
    let checked = 0;
    for (const { path, op } of operations(doc).filter(
      ({ method, path }) => method === 'get' && !/\{(?!boardId\})/.test(path),
    )) {
      if (!op.responses['304'] || op.parameters.some((p: any) => p.in === 'query' && p.required)) continue;
      const url = `${server.url}/api${concrete(path)}`;
      const first = await plainGet(url);
      assert.equal(first.status, 200, `GET ${path}`);
      assert.ok(first.etag, `GET ${path} sends no ETag`);
      assert.equal((await plainGet(url, first.etag)).status, 304, `GET ${path}`);
      checked++;
    }
    assert.ok(checked > 15, `only ${checked} operations checked`);
  });

  it('when an object schema is free-form (no properties, no variants), then it declares additionalProperties, so a generated client can set its fields', () => {
    const bare: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      const composed = schema.anyOf || schema.oneOf || schema.allOf || schema.$ref;
      if (types.includes('object') && !schema.properties && schema.additionalProperties === undefined && !composed)
        bare.push(at);
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    assert.deepEqual(bare, []);
    const card = doc.components.schemas.Task.properties;
    assert.equal(card.metadata.additionalProperties, true);
    const forms = doc.paths['/tasks'].post.requestBody.content['application/json'].schema.properties.forms.items.anyOf;
    assert.deepEqual(
      forms.map((variant: any) => [variant.type, variant.required]),
      [
        ['object', ['name']],
        ['object', ['schema']],
      ],
    );
  });

  it('when an unknown card action or form is asked for, then the server answers 404, as the document declares', async () => {
    const task = (await server.api('POST', '/api/tasks', { title: 'No actions' })).body?.data;
    for (const [path, body] of [
      [`/tasks/${task.id}/actions/nope`, undefined],
      [`/tasks/${task.id}/forms/nope/submit`, { data: {} }],
    ] as const) {
      assert.equal((await server.api('POST', `/api${path}`, body)).status, 404, path);
    }
    assert.ok(
      doc.paths['/tasks/{id}/actions/{action}'].post.responses['404'] &&
        doc.paths['/tasks/{id}/forms/{formId}/submit'].post.responses['404'],
    );
  });

  it('when operation ids are listed, then each is unique', () => {
    const ids = operations(doc).map(({ op }) => op.operationId);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('when a body breaks a required field of its documented schema, then the server answers 400 naming that field: the docs are what is enforced', async () => {
    let checked = 0;
    for (const { method, path, op } of operations(doc)) {
      const schema = op.requestBody?.content['application/json'].schema;
      if (!schema?.required?.length) continue;
      const answer = await server.api(method.toUpperCase(), `/api${concrete(path)}`, {});
      assert.equal(
        answer.status,
        400,
        `${method} ${path} accepted a body without ${schema.required[0]}: ${JSON.stringify(answer.body)}`,
      );
      assert.match(answer.body?.error ?? '', new RegExp(schema.required[0]), `${method} ${path}`);
      checked++;
    }
    assert.ok(checked > 20, `only ${checked} operations have required body fields`);
  });

  it('when a body carries a field its documented schema does not allow, then the server answers 400 naming it', async () => {
    for (const { method, path, op } of operations(doc)) {
      const schema = op.requestBody?.content['application/json'].schema;
      if (schema?.additionalProperties !== false) continue;
      const answer = await server.api(method.toUpperCase(), `/api${concrete(path)}`, {
        ...requiredFiller(schema),
        undocumentedField: 1,
      });
      assert.equal(answer.status, 400, `${method} ${path}: ${JSON.stringify(answer.body)}`);
      assert.match(answer.body?.error ?? '', /undocumentedField/, `${method} ${path}`);
    }
  });

  describe('the interactive docs at /api/docs', () => {
    it('when the page is fetched, then every script and stylesheet it loads is served by this server, none from another host', async () => {
      const response = await fetch(`${server.url}/api/docs`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      const html = await response.text();
      const assets = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"/g)].map((m) => m[1]);
      assert.ok(assets.length >= 3, `the page loads only ${assets.join(', ')}`);
      for (const asset of assets) {
        // Relative to the page, so the docs also work under a proxy's prefix (code-server's /proxy/<port>/).
        const url = new URL(asset, `${server.url}/api/docs`);
        assert.equal(url.origin, new URL(server.url).origin, `${asset} is not a path on this server`);
        const got = await fetch(url);
        assert.equal(got.status, 200, asset);
        assert.ok((await got.arrayBuffer()).byteLength > 0, `${asset} is empty`);
      }
      assert.ok(
        assets.some((a) => a.endsWith('swagger-ui-bundle.js')),
        'Swagger UI comes from swagger-ui-dist',
      );
    });

    it('when a docs asset path tries to leave the package folder, then it is not served', async () => {
      const got = await fetch(`${server.url}/api/docs/assets/..%2F..%2F..%2Fpackage.json`);
      assert.notEqual(got.status, 200);
    });

    it('when the page is opened in a real browser with every other host unreachable, then Swagger UI renders one entry per documented operation', async function () {
      this.timeout(60_000);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const ownOrigin = new URL(server.url).origin;
        const foreign: string[] = [];
        await page.route('**/*', (route) => {
          const url = route.request().url();
          if (new URL(url).origin === ownOrigin) return route.continue();
          foreign.push(url);
          return route.abort();
        });
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${server.url}/api/docs`);
        await page.waitForSelector('.opblock', { timeout: 30_000 });
        // Swagger UI shows each event of the `webhooks` section as an operation too.
        const expected = operations(doc).length + Object.keys(doc.webhooks).length;
        await page.waitForFunction((count) => document.querySelectorAll('.opblock').length >= count, expected, {
          timeout: 30_000,
        });
        assert.equal(await page.locator('.opblock').count(), expected);
        assert.match((await page.locator('.info .title').textContent()) ?? '', /1\.0\.0/);
        assert.deepEqual(foreign, [], 'the docs page reached for another host');
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });
  });
});
