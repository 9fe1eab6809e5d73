import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { requiredRole } from '../../server/auth/roles';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { makeTokens, startAuthServer, stopAuthServer } from '../auth/helpers/authWorkspace';
import { Fixture, REQUESTS, type Prepared, type Scope } from '../auth/helpers/routeRequests';
import type { RouteDef } from '../../server/api/route';
import { call, MOUNTED, type Mounted, type RawCall } from '../helpers/operations';

/**
 * Every operation of the document, driven to each error status it declares, and held to declaring
 * every status it answered: the document is what a client can rely on, so a status it does not list
 * is a bug here, and so is one it lists that nothing can make it answer.
 */

interface Attempt {
  how: string;
  status: number;
  text: string;
}

function bytesOf(limit: string | undefined): number {
  const match = /^(\d+)(kb|mb)$/.exec(limit ?? '1mb');
  assert.ok(match, `unreadable body limit ${limit}`);
  return Number(match[1]) * (match[2] === 'mb' ? 1024 * 1024 : 1024);
}

/**
 * Declared statuses no request of this suite can bring about, each with where it is driven instead.
 * Keep it short: a status nothing drives is a promise nobody checks.
 */
const DRIVEN_ELSEWHERE: { status: number; route?: RegExp; where: string }[] = [
  { status: 507, where: 'a full disk: test/api/fullDiskStatuses.test.ts sends every write with a tmpfs full' },
  {
    status: 503,
    where: 'a database that is away: test/storage/mysqlUnavailable.test.ts and threeInstances.test.ts (MariaDB)',
  },
  {
    status: 501,
    route: /attachments\/\{filename\}$/,
    where: 'a provider that can neither stream nor name a file: test/api/attachmentStorage.test.ts',
  },
  {
    status: 409,
    route: /^POST \/workspace\/doctor\/fix$/,
    where: 'a card file edited between the diagnosis and the repair: a race no single request sets up',
  },
];

const drivenElsewhere = (key: string, status: number) =>
  DRIVEN_ELSEWHERE.some((d) => d.status === status && (!d.route || d.route.test(key)));

type Body = Record<string, any>;

/** A PUT that makes what its path names when it is not there yet: an unknown name is a create. */
const UPSERTS = new Set(['PUT /boards/{boardId}/actions/{key}', 'PUT /labels/{name}']);

/**
 * Route by route, a valid body changed into one that meets a rule of the board as it is: a column
 * at its WIP limit on a board that blocks (409), a card that does not exist (404), a version read
 * before a change (412).
 */
const BODY_CHANGES: Record<string, Record<string, (body: Body, scope: Scope) => Body>> = {
  'POST /tasks': {
    'a card into a full column': (body) => ({ ...body, status: 'capped' }),
    'blocked by a card that does not exist': (body) => ({ ...body, blockedBy: ['no-such-card'] }),
  },
  'POST /tasks/pick': { 'a pick moved into a full column': (body) => ({ ...body, moveTo: 'capped' }) },
  'POST /tasks/bulk': {
    'a move into a full column': (body) => ({ ...body, change: { status: 'capped' } }),
    'a card that does not exist': (body) => ({ ...body, ids: [...body.ids, 'no-such-card'] }),
    'a version read before a change': (body) => ({ ...body, versions: { [body.ids[0]]: '"stale-version"' } }),
  },
  'POST /import': {
    'into a board that does not exist': (body) => ({ ...body, board: 'no-such-board' }),
    'a card into a full column': (body) => ({ ...body, apply: true, data: 'title,status\nToo many,capped\n' }),
  },
};

/** A column that holds one card and may hold no more, on boards that refuse to go over. */
const CAPPED = { id: 'capped', name: 'Capped', wipLimit: 1 };
const COLUMNS = ['backlog', 'todo', 'in-progress', 'review', 'done'].map((id) => ({ id, name: id }));

const CONFIG = {
  version: 2,
  boards: [
    {
      id: 'default',
      name: 'Default',
      actions: { deploy: 'Deploy' },
      wipPolicy: 'block',
      columns: [...COLUMNS, CAPPED],
    },
    { id: 'ops', name: 'Operations', actions: { deploy: 'Deploy' }, wipPolicy: 'block', columns: [...COLUMNS, CAPPED] },
  ],
  labels: { urgent: { color: '#ef4444' } },
  forms: { bug: { name: 'Bug report', schema: { type: 'object', properties: { steps: { type: 'string' } } } } },
};

describe('API statuses: each declared error is answered, and only declared ones', function () {
  this.timeout(120_000);
  let server: TestServer;
  let authServer: TestServer;
  let fixture: Fixture;
  let doc: any;
  const tokens = makeTokens();

  before(async () => {
    server = await startTestServer({ config: CONFIG });
    authServer = await startAuthServer(tokens);
    doc = await (await fetch(`${server.url}/api/docs/json`)).json();
    fixture = new Fixture(server, '');
    await fixture.seed();
    for (const board of ['default', 'ops'])
      await fixture.admin('POST', `/api/boards/${board}/tasks`, {
        content: '# Fills the capped column',
        status: 'capped',
      });
  });

  after(async () => {
    await server?.close();
    await stopAuthServer(authServer);
    await fixture?.dropDatabases();
  });

  /** Claim the card a `/tasks/{id}...` path names, for `agent`. */
  async function claimAs(sentPath: string, agent: string): Promise<void> {
    const [, scope, id] = /^(.*)\/tasks\/([^/?]+)/.exec(sentPath)!;
    const claim = (prefix: string) =>
      call(server, {
        method: 'POST',
        path: `${prefix}/tasks/${id}/claim`,
        body: '{}',
        headers: { 'x-kanban-agent': agent },
      });
    let answer = await claim(scope);
    // A transfer names the board the card goes to, not the one it is on.
    if (answer.status === 404) answer = await claim('/api');
    // The claim route itself, given a card nobody holds yet, is what is being tried: its claim may exist.
    assert.ok(answer.status === 200 || answer.status === 409, `claiming ${id}: ${answer.status} ${answer.text}`);
  }

  let configText: string | null = null;

  /** .kanban.json as a hand edit gone wrong leaves it: not JSON. Put back by `mendConfig`. */
  async function breakConfig(): Promise<void> {
    const file = path.join(server.root, '.kanban.json');
    configText = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, '{ "version": 2, "boards": [');
  }

  async function mendConfig(): Promise<void> {
    if (configText === null) return;
    await fs.writeFile(path.join(server.root, '.kanban.json'), configText);
    configText = null;
  }

  function declaredOf(mounted: Mounted): Set<number> {
    const op = doc.paths[mounted.path]?.[mounted.route.method];
    assert.ok(op, `${mounted.key} is not in the document`);
    return new Set(Object.keys(op.responses).map(Number));
  }

  async function prepare(mounted: Mounted): Promise<Prepared> {
    const build = REQUESTS[mounted.requestKey];
    assert.ok(build, `${mounted.key} has no request builder in test/auth/helpers/routeRequests.ts`);
    return build(fixture, mounted.scope);
  }

  /** The valid request of the route, changed by `change`, sent to `target` (the open server unless said). */
  async function attempt(
    mounted: Mounted,
    how: string,
    change: (raw: RawCall, prepared: Prepared) => RawCall | Promise<RawCall>,
    target: TestServer = server,
  ): Promise<Attempt> {
    const prepared = await prepare(mounted);
    const raw: RawCall = {
      method: mounted.route.method.toUpperCase(),
      path: prepared.path,
      body: prepared.body === undefined ? undefined : JSON.stringify(prepared.body),
    };
    let answer;
    try {
      answer = await call(target, await change(raw, prepared));
    } finally {
      await mendConfig();
    }
    return { how, status: answer.status, text: answer.text.slice(0, 200) };
  }

  /** The attempts, one after another: a destructive route's throwaway object is made for each. */
  function attemptsFor(mounted: Mounted, declared: Set<number>): (() => Promise<Attempt>)[] {
    const route: RouteDef = mounted.route;
    const writes = route.method !== 'get';
    const list: (() => Promise<Attempt>)[] = [];
    const add = (how: string, change: (raw: RawCall, p: Prepared) => RawCall | Promise<RawCall>, target?: TestServer) =>
      list.push(() => attempt(mounted, how, change, target));
    add('an agent name that breaks the rule', (raw) => ({ ...raw, headers: { 'x-kanban-agent': 'not a name!' } }));
    add('a Host header naming another site', (raw) => ({ ...raw, headers: { host: 'evil.example' } }));
    if (writes)
      add('a write from a foreign browser Origin', (raw) => ({ ...raw, headers: { origin: 'http://evil.example' } }));
    if (route.body) {
      add('a JSON array as the body', (raw) => ({ ...raw, body: '[]' }));
      add('a body over the limit', (raw) => ({
        ...raw,
        body: JSON.stringify({ content: 'x'.repeat(bytesOf(route.bodyLimit)) }),
      }));
      add('a body in another charset', (raw) => ({
        ...raw,
        body: raw.body ?? '{}',
        headers: { 'content-type': 'application/json; charset=latin1' },
      }));
    }
    for (const param of mounted.path.match(/\{[^}]+\}/g) ?? [])
      if (!(UPSERTS.has(mounted.requestKey) && mounted.path.endsWith(param)))
        add(`an unknown ${param}`, (raw) => ({ ...raw, path: swapParam(mounted.path, raw.path, param) }));
    if (declared.has(304))
      add('If-None-Match with the current ETag', async (raw) => {
        const first = await call(server, raw);
        return { ...raw, headers: { 'if-none-match': first.etag ?? '"none"' } };
      });
    if (route.version && writes)
      add('If-Match naming an old version', (raw) => ({ ...raw, headers: { 'if-match': '"stale-version"' } }));
    if (writes && /\/tasks\/\{id\}/.test(mounted.path))
      add('the card claimed by another agent', async (raw, prepared) => {
        await claimAs(raw.path, 'holder-agent');
        // A body naming its agent speaks for itself; a second name in the header would be a 400.
        const named = typeof prepared.body === 'object' && prepared.body !== null && 'agent' in prepared.body;
        return named ? raw : { ...raw, headers: { 'x-kanban-agent': 'intruder-agent' } };
      });
    else if (writes)
      add('.kanban.json broken on disk', async (raw) => {
        await breakConfig();
        return raw;
      });
    if (mounted.requestKey === 'POST /columns/{columnId}/archive')
      add('a card in the column claimed by another agent', async (raw) => {
        const column = /\/columns\/([^/]+)\/archive/.exec(raw.path)![1];
        const cards = await fixture.admin('GET', `${mounted.scope.prefix}/tasks?status=${column}`);
        await claimAs(`${mounted.scope.prefix}/tasks/${cards[0].id}`, 'holder-agent');
        return { ...raw, headers: { 'x-kanban-agent': 'intruder-agent' } };
      });
    for (const [how, change] of Object.entries(BODY_CHANGES[mounted.requestKey] ?? {}))
      add(how, (raw, prepared) => ({ ...raw, body: JSON.stringify(change(prepared.body as Body, mounted.scope)) }));
    if (route.query?.some((q) => q.name === 'board'))
      add('an unknown board in the query', (raw) => ({
        ...raw,
        path: raw.path + (raw.path.includes('?') ? '&' : '?') + 'board=no-such-board',
      }));
    if (requiredRole(route) !== 'public') {
      add('no credential, auth on', (raw) => raw, authServer);
      if (requiredRole(route) !== 'viewer')
        add(
          'a viewer, auth on',
          (raw) => ({ ...raw, headers: { authorization: `Bearer ${tokens.viewer}` } }),
          authServer,
        );
    }
    // Last: a destructive call (a migration) changes what the attempts before it would meet.
    add('as sent', (raw) => raw);
    return list;
  }

  for (const mounted of MOUNTED) {
    it(`when ${mounted.key} is driven to each error it declares, then it answers each, and nothing undeclared`, async () => {
      const declared = declaredOf(mounted);
      const attempts: Attempt[] = [];
      for (const next of attemptsFor(mounted, declared)) attempts.push(await next());
      const shown = attempts.map((a) => `  ${a.how}: ${a.status} ${a.text}`).join('\n');
      const undeclared = attempts.filter((a) => !declared.has(a.status));
      assert.deepEqual(
        undeclared.map((a) => `${a.status} (${a.how})`),
        [],
        `${mounted.key} answered statuses its document does not declare:\n${shown}`,
      );
      const unknownStatus = (how: string) =>
        how === 'an unknown {boardId}' && mounted.route.unknownBoardStatus === 400 ? 400 : 404;
      const misnamed = attempts.filter((a) => a.how.startsWith('an unknown {') && a.status !== unknownStatus(a.how));
      assert.deepEqual(
        misnamed.map((a) => `${a.status} (${a.how})`),
        [],
        `${mounted.key}: an unknown object in the path is not a 404:\n${shown}`,
      );
      const answered = new Set(attempts.map((a) => a.status));
      const undriven = [...declared].filter((s) => s >= 300 && !answered.has(s) && !drivenElsewhere(mounted.key, s));
      assert.deepEqual(undriven, [], `${mounted.key} declares statuses nothing here made it answer:\n${shown}`);
    });
  }
});

/** The sent path with the value of `param` (by its place in the mounted template) replaced by an unknown one. */
function swapParam(template: string, sent: string, param: string): string {
  const [pathPart, query] = sent.split('?');
  const names = template.split('/');
  const values = pathPart.split('/');
  const at = names.indexOf(param) + (values.length - names.length);
  const unknown: Record<string, string> = { '{boardId}': 'no-such-board', '{index}': '9999' };
  values[at] = unknown[param] ?? `no-such-${param.slice(1, -1).toLowerCase()}`;
  return values.join('/') + (query === undefined ? '' : `?${query}`);
}
