import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { allRoutes } from '../../server/api/routes';
import { mountedPaths } from '../../server/api/openapi';
import { startTestServer, type TestServer } from '../helpers/testServer';

/** Path segments a hostile or careless caller may send where an id belongs. */
const HOSTILE_IDS = [
  '..',
  '%2e%2e%2f%2e%2e%2fsweep-escape',
  '..%2Fsweep-escape',
  'x'.repeat(3000),
  '%00',
  '__proto__',
  'constructor',
  '%F0%9F%92%A9',
  '%ZZ',
  '%20',
  'default',
];
/** Bodies of the wrong shape, wrong types, traversal attempts and oversized fields. */
const HOSTILE_BODIES: string[] = [
  'null',
  '1',
  '"x"',
  '[]',
  '{}',
  '{"__proto__":{"admin":true}}',
  '{"content":123}',
  '{"title":null,"status":{}}',
  '{"files":[{"name":"../sweep-escape","data":"!!"}]}',
  '{"columnIds":"x"}',
  '{"position":-1e308,"status":"todo"}',
  '{"text":{"a":1}}',
  '{"actions":[1]}',
  '{"url":"javascript:alert(1)","events":["*"]}',
  JSON.stringify({ name: 'x'.repeat(100_000) }),
  '{"newName":""}',
  '{"boardId":"../../sweep-escape"}',
  '{',
  '[1,',
  '\u0000',
  '{"a":' + '['.repeat(5000),
  '{"sqlitePath":"../../sweep-escape.db"}',
];
const HOSTILE_QUERY = '?q=%ZZ&fuzzy=maybe&meta.x=1&meta.__proto__=1&position=abc&includeDeleted=2&download=%00';

interface Finding {
  /** The operation as the document names it: `get /tasks/{id}`. */
  operation: string;
  request: string;
  status: number;
  text: string;
}

async function send(
  server: TestServer,
  operation: string,
  method: string,
  url: string,
  body?: string,
): Promise<Finding> {
  const answer = await fetch(server.url + url, { method, headers: { 'content-type': 'application/json' }, body });
  return {
    operation,
    request: `${method} ${url.slice(0, 90)} ${body?.slice(0, 50) ?? ''}`,
    status: answer.status,
    text: await answer.text(),
  };
}

describe('API: every route against hostile input', function () {
  this.timeout(120_000);
  let server: TestServer;
  const answers: Finding[] = [];

  before(async () => {
    server = await startTestServer();
    const seed = await server.api('POST', '/api/tasks', { content: '# Seed card' });
    // Hostile ids go to every path parameter (with an empty body), and hostile bodies go to real
    // paths, where they reach validation and the handlers instead of stopping at a 404.
    const realParams: Record<string, string> = {
      boardId: 'default',
      id: seed.body!.data.id,
      columnId: 'todo',
      name: 'bug',
    };
    const requests: { operation: string; method: string; url: string; body?: string }[] = [];
    for (const route of allRoutes) {
      const method = route.method.toUpperCase();
      const takesBody = method !== 'GET' && method !== 'DELETE';
      const query = method === 'GET' ? HOSTILE_QUERY : '';
      for (const mounted of mountedPaths(route)) {
        const operation = `${route.method} ${mounted}`;
        for (const id of HOSTILE_IDS)
          requests.push({
            operation,
            method,
            url: '/api' + mounted.replace(/\{[^}]+\}/g, id) + query,
            body: takesBody ? '{}' : undefined,
          });
        if (!takesBody) continue;
        const real = '/api' + mounted.replace(/\{([^}]+)\}/g, (_m, name: string) => realParams[name] ?? 'x');
        for (const body of HOSTILE_BODIES) requests.push({ operation, method, url: real, body });
      }
    }
    // Several callers at once, as a hostile client would send them: the sweep then also looks for
    // answers that only go wrong when requests overlap, and it does not wait on one write at a time.
    let next = 0;
    const caller = async () => {
      while (next < requests.length) {
        const { operation, method, url, body } = requests[next++];
        answers.push(await send(server, operation, method, url, body));
      }
    };
    await Promise.all(Array.from({ length: 8 }, caller));
  });
  after(async () => {
    await server?.close();
  });

  it('when every route gets hostile ids, bodies and queries, then no answer is a server error', () => {
    assert.ok(answers.length > 1500, `the sweep sent ${answers.length} requests`);
    const failures = answers
      .filter((a) => a.status >= 500)
      .map((a) => `${a.status} ${a.request} -> ${a.text.slice(0, 120)}`);
    assert.deepEqual(failures.slice(0, 20), []);
  });

  it('when a hostile request is refused, then the answer is the {ok:false,error} envelope with a message', () => {
    const refusals = answers.filter((a) => a.status >= 400);
    assert.ok(refusals.length > 1000, `${refusals.length} refusals`);
    const malformed = refusals.filter((a) => {
      try {
        const body = JSON.parse(a.text);
        return body.ok !== false || typeof body.error !== 'string' || body.error.length < 8;
      } catch {
        return true;
      }
    });
    assert.deepEqual(
      malformed.slice(0, 20).map((a) => `${a.status} ${a.request} -> ${a.text.slice(0, 120)}`),
      [],
    );
  });

  it('when a hostile request is refused, then its status is one the document declares for that operation', async () => {
    const doc = await (await fetch(`${server.url}/api/docs/json`)).json();
    const undeclared = answers.filter((a) => {
      // A `..` segment is resolved by the client before sending: that request named no operation.
      if (a.status === 404 && a.text.includes('no API route')) return false;
      const [method, path] = a.operation.split(' ');
      return !(String(a.status) in doc.paths[path][method].responses);
    });
    assert.deepEqual(
      undeclared.slice(0, 20).map((a) => `${a.status} ${a.request} -> ${a.text.slice(0, 100)}`),
      [],
    );
  });

  it('when ids and bodies try to leave the workspace, then nothing is written beside it', () => {
    const outside = path.dirname(server.root);
    for (const name of ['sweep-escape', 'sweep-escape.db'])
      assert.equal(existsSync(path.join(outside, name)), false, name);
    assert.equal(existsSync(path.join(server.root, '..', '..', 'sweep-escape.db')), false);
  });
});
