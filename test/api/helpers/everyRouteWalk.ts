import { strict as assert } from 'node:assert';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { Receiver } from '../../helpers/webhookReceiver';
import { eventually } from '../../helpers/waiting';
import { MOUNTED, type Mounted } from '../../helpers/operations';
import { send } from '../../auth/helpers/authWorkspace';
import { Fixture, REQUESTS } from '../../auth/helpers/routeRequests';

/**
 * Every route of the table, called for real, its answer held to the schema the OpenAPI document
 * declares for it. The calls come from the role matrix's request table, so a new route needs one
 * request builder for every suite that walks the routes. The walk runs once per card.storage
 * provider that asks for it: a route answering well over Markdown may still fail over a database.
 */

/** Where the walk runs: the `plugins` of `.kanban.json`, and what to remove once the server is closed. */
export interface WalkStorage {
  plugins: Record<string, unknown>;
  cleanup(): Promise<void>;
}

export interface EveryRouteWalk {
  /** How the suite names its storage: "Markdown", "PostgreSQL". */
  storageName: string;
  storage(): Promise<WalkStorage>;
  /** Routes that cannot be called over this storage, each with the reason. */
  uncalled: Record<string, string>;
  /** The order the routes are called in (the route table's when absent). */
  order?(mounted: readonly Mounted[]): Mounted[];
}

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
export const strictAjv = () => new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });

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

const CONFIG = {
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
};

export function walkEveryRoute(walk: EveryRouteWalk): void {
  describe(`API OpenAPI response schemas over ${walk.storageName}: every route answers what the document declares`, function () {
    this.timeout(60_000);
    let server: TestServer;
    let storage: WalkStorage;
    let fixture: Fixture;
    let doc: any;
    let validator: ReturnType<typeof validatorsFor>;
    const receiver = new Receiver();

    before(async () => {
      await receiver.listen();
      // The first delivery fails and the rest succeed, so the delivery history holds both kinds.
      receiver.answer = (_request, countOnPath) => (countOnPath === 1 ? 500 : 200);
      storage = await walk.storage();
      server = await startTestServer({ config: { ...CONFIG, plugins: storage.plugins } });
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
      await storage?.cleanup();
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
      await fixture.admin('PUT', `/api/tasks/${card}/comments/${fixture.comment('default')}`, {
        content: 'edited once',
      });
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

    for (const mounted of walk.order?.(MOUNTED) ?? MOUNTED) {
      it(`when ${mounted.key} is called with a valid request, then its answer matches the declared response schema`, async function () {
        const method = mounted.route.method;
        if (walk.uncalled[mounted.key]) return;
        const build = REQUESTS[mounted.requestKey];
        assert.ok(
          build,
          `${mounted.key} has no request builder in test/auth/helpers/routeRequests.ts and no reason in the uncalled list`,
        );
        const { status, response } = successOf(mounted.path, method);
        const prepared = await build(fixture, mounted.scope);
        const answer = await send(server, method.toUpperCase(), prepared.path, { body: prepared.body });
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

    it('when the walk lists routes it cannot call, then each still exists and has a reason', () => {
      const keys = new Set(MOUNTED.map((m) => m.key));
      for (const [key, reason] of Object.entries(walk.uncalled)) {
        assert.ok(keys.has(key), `${key} is listed as not callable but is not a route`);
        assert.ok(reason.length > 10, `${key}: no reason given`);
      }
    });

    it(`when the walk is over, then the workspace still stores its cards as it started`, async () => {
      const expected = (storage.plugins['card.storage'] as { provider?: string } | undefined)?.provider ?? 'markdown';
      const answer = await send(server, 'GET', '/api/storage');
      assert.equal(answer.status, 200, answer.text);
      assert.equal((answer.body as any).data.card.provider, expected, answer.text.slice(0, 300));
    });
  });
}
