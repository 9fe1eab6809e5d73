import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { allRoutes } from '../../server/api/routes';
import { mountedPaths } from '../../server/api/openapi';
import type { ServiceEvent } from '../../server/core/events';
import { listFiles, startTestServer, type TestServer } from '../helpers/testServer';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import {
  CALLERS,
  ConsoleCapture,
  VIEWER_TOKEN_ENV,
  authConfig,
  findSecrets,
  makeTokens,
  send,
  type Answer,
  type Caller,
} from './helpers/authWorkspace';
import { EXPECTED_ROLE, deniedStatus } from './helpers/roleTable';
import { Fixture, REQUESTS, type Scope } from './helpers/routeRequests';

/** Every mounted route: its table key, the unscoped key of its request builder, and its board scope. */
const MOUNTED = allRoutes.flatMap((route) =>
  mountedPaths(route).map((mounted) => ({
    key: `${route.method.toUpperCase()} ${mounted}`,
    method: route.method.toUpperCase(),
    requestKey: `${route.method.toUpperCase()} ${route.path}`,
    scope: (mounted === route.path
      ? { board: 'default', prefix: '/api' }
      : { board: 'ops', prefix: '/api/boards/ops' }) as Scope,
  })),
);

describe('Auth: every route times every kind of caller', function () {
  this.timeout(120_000);
  const tokens = makeTokens();
  const captured = new ConsoleCapture();
  const answers: { label: string; answer: Answer }[] = [];
  const events: ServiceEvent[] = [];
  let server: TestServer;
  let fixture: Fixture;
  let socket: RecordingSocket;
  let stopEvents: () => void;

  const tokenOf = (caller: Caller) => (caller === 'none' ? undefined : tokens[caller]);

  before(async () => {
    process.env[VIEWER_TOKEN_ENV] = tokens.viewer;
    captured.start();
    server = await startTestServer({ config: authConfig(tokens) });
    fixture = new Fixture(server, tokens.admin);
    await fixture.seed();
    stopEvents = server.running.workspace.events.on((event) => void events.push(event));
    socket = await RecordingSocket.connect(`${wsUrl(server.url)}?token=${tokens.viewer}`);
  });

  after(async () => {
    socket?.close();
    stopEvents?.();
    await server?.close();
    captured.stop();
    await fixture?.dropDatabases();
    delete process.env[VIEWER_TOKEN_ENV];
  });

  it('when the role table is compared with the mounted routes, then it names every route and nothing else', () => {
    const mounted = MOUNTED.map((m) => m.key).sort();
    assert.deepEqual(
      Object.keys(EXPECTED_ROLE).sort(),
      mounted,
      'add new routes to test/auth/helpers/roleTable.ts with the role they need',
    );
    const unscoped = [...new Set(MOUNTED.map((m) => m.requestKey))].sort();
    assert.deepEqual(
      Object.keys(REQUESTS).sort(),
      unscoped,
      'add a request for new routes to test/auth/helpers/routeRequests.ts',
    );
  });

  for (const { key, method, requestKey, scope } of MOUNTED) {
    it(`when ${key} is called with no token, an unknown token, and as viewer, editor and admin, then each gets what the role table says`, async () => {
      const need = EXPECTED_ROLE[key];
      assert.ok(need, `no expected role for ${key}`);
      for (const caller of CALLERS) {
        const request = await REQUESTS[requestKey](fixture, scope);
        const revisionBefore = server.running.workspace.events.revision;
        const answer = await send(server, method, request.path, { token: tokenOf(caller), body: request.body });
        answers.push({ label: `${caller} ${method} ${request.path}`, answer });
        const denied = deniedStatus(need, caller);
        const context = `${caller} ${method} ${request.path}: ${answer.status} ${answer.text.slice(0, 200)}`;
        if (denied) {
          assert.equal(answer.status, denied, context);
          assert.equal(answer.body?.ok, false, context);
          assert.ok(typeof answer.body?.error === 'string' && answer.body.error.length > 0, context);
          assert.equal(
            server.running.workspace.events.revision,
            revisionBefore,
            `a refused call changed something: ${context}`,
          );
        } else {
          assert.equal(answer.status, request.success, context);
          if (request.success !== 204 && answer.headers['content-type']?.includes('json'))
            assert.equal(answer.body?.ok, true, context);
        }
      }
    });
  }

  it('when every answer, header, event, WebSocket message, log line and .kanban file of the matrix is scanned, then no token or webhook secret appears', async () => {
    assert.equal(answers.length, MOUNTED.length * CALLERS.length, 'the scan needs the whole matrix to have run first');
    // Literal webhook secrets are kept in this one private, git-ignored file; nowhere else.
    const secretStore = '.state/secrets.json';
    const files = (await listFiles(path.join(server.root, '.kanban'))).filter((file) => file !== secretStore);
    if (
      await fs.stat(path.join(server.root, '.kanban', secretStore)).then(
        () => true,
        () => false,
      )
    ) {
      assert.equal(
        (await fs.stat(path.join(server.root, '.kanban', secretStore))).mode & 0o777,
        0o600,
        'the secret store is private',
      );
    }
    const haystacks = [
      ...answers.map(({ label, answer }) => ({ label, text: `${JSON.stringify(answer.headers)}\n${answer.text}` })),
      ...events.map((event) => ({ label: `event ${event.event}`, text: JSON.stringify(event) })),
      ...socket.messages.map((message) => ({ label: `WebSocket ${message.type}`, text: JSON.stringify(message) })),
      ...captured.lines.map((line) => ({ label: 'console', text: line })),
      // A file listed a moment ago may be gone: a temp file renamed into place (its content is in
      // the file it became) or a delivered webhook batch.
      ...(await Promise.all(
        files.map(async (file) => ({
          label: `.kanban/${file}`,
          text: await fs
            .readFile(path.join(server.root, '.kanban', file), 'latin1')
            .catch((error) => (error.code === 'ENOENT' ? '' : Promise.reject(error))),
        })),
      )),
    ];
    assert.ok(events.length > 50, `the matrix should have changed things (${events.length} events)`);
    assert.ok(
      socket.events().length > 50,
      `the viewer's socket should have seen the changes (${socket.events().length})`,
    );
    assert.deepEqual(
      findSecrets(haystacks, [tokens.viewer, tokens.editor, tokens.admin, tokens.bad, fixture.webhookSecret]),
      [],
    );
  });
});
