import { strict as assert } from 'node:assert';
import { startTestServer, listFiles, type TestServer } from '../helpers/testServer';
import { asApiAnswer, createTask, failsWith, okData, rawRequest } from '../helpers/envelope';

const json = { 'content-type': 'application/json' };

describe('API robustness against bad input', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });
  afterEach(async () => {
    // Whatever the test sent, the server still answers normally.
    okData(await server.api('GET', '/api/boards'));
  });

  describe('the envelope', () => {
    it('when a request succeeds, then the body is {ok:true, data}', async () => {
      const answer = await server.api('GET', '/api/columns');
      assert.deepEqual(Object.keys(answer.body ?? {}).sort(), ['data', 'ok']);
      assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
    });

    it('when a request fails, then the body is {ok:false, error} with a message', async () => {
      const answer = await server.api('GET', '/api/boards/nope');
      failsWith(answer, 404);
      assert.deepEqual(Object.keys(answer.body ?? {}).sort(), ['error', 'ok']);
    });

    it('when an /api route does not exist, then 404 with the envelope', async () => {
      failsWith(await server.api('GET', '/api/nothing/here'), 404, /no API route GET/);
      failsWith(await server.api('PATCH', '/api/boards'), 404, /no API route PATCH/);
      failsWith(await server.api('POST', '/api'), 404);
    });
  });

  describe('bodies', () => {
    it('when the body is malformed JSON, then 400 says so', async () => {
      failsWith(await server.raw('POST', '/api/tasks', '{"content": "# x",', json), 400, /not valid JSON/);
      failsWith(await server.raw('PUT', '/api/settings', "{'compactMode': true}", json), 400, /not valid JSON/);
    });

    it('when the body is JSON but not an object, then 400', async () => {
      failsWith(await server.raw('POST', '/api/tasks', '[1,2]', json), 400, /object/);
      failsWith(await server.raw('POST', '/api/tasks', '"# title"', json), 400);
      failsWith(await server.raw('POST', '/api/tasks', 'null', json), 400);
    });

    it('when the body is sent without a JSON content type, then it is still read as JSON', async () => {
      const answer = await server.raw('POST', '/api/tasks', '{"content":"# Sent by curl -d"}', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(okData(answer, 201).title, 'Sent by curl -d');
    });

    it('when a required body is missing, then 400 names the field', async () => {
      failsWith(await server.raw('POST', '/api/tasks', '', {}), 400, /content/);
    });

    it('when the body is over the size limit, then 413 with the envelope', async () => {
      const content = `# Big\n${'x'.repeat(1_200_000)}`;
      failsWith(await server.api('POST', '/api/tasks', { content }), 413, /too large/);
    });

    it('when the body is not UTF-8, then 415 with the envelope', async () => {
      failsWith(
        await server.raw('POST', '/api/tasks', '{"content":"# x"}', {
          'content-type': 'application/json; charset=latin1',
        }),
        415,
        /UTF-8/,
      );
    });

    it('when a body field has the wrong type, then 400 names the field and the type', async () => {
      failsWith(
        await server.api('POST', '/api/tasks', { content: '# x', labels: [1] }),
        400,
        /labels\.0 must be of type string/,
      );
      failsWith(
        await server.api('PATCH', '/api/tasks/x/move', { status: ['todo'] }),
        400,
        /status must be of type string/,
      );
      failsWith(
        await server.api('PUT', '/api/settings', { compactMode: 'yes' }),
        400,
        /compactMode must be of type boolean/,
      );
    });

    it('when metadata is nested too deeply to read back, then 400 and no card is stored', async () => {
      const nested = (levels: number) => `${'{"n":'.repeat(levels)}"leaf"${'}'.repeat(levels)}`;
      // The body is one level and metadata 63 more: the 64 the API accepts.
      const accepted = await server.raw('POST', '/api/tasks', `{"content":"# Deep ok","metadata":${nested(63)}}`, json);
      const id = okData(accepted, 201).id;
      await server.restart();
      assert.equal(
        okData(await server.api('GET', `/api/tasks/${id}`)).title,
        'Deep ok',
        'the card reads back after a restart',
      );
      okData(await server.api('DELETE', `/api/tasks/${id}/permanent`));
      for (const levels of [64, 120, 50_000]) {
        failsWith(
          await server.raw('POST', '/api/tasks', `{"content":"# Too deep","metadata":${nested(levels)}}`, json),
          400,
          /nested more than 64 levels/,
        );
      }
      failsWith(
        await server.raw('PUT', '/api/settings', `{"compactMode":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, json),
        400,
        /nested/,
      );
      assert.deepEqual(okData<any[]>(await server.api('GET', '/api/tasks?q=too%20deep')), []);
    });

    it('when a body tries prototype pollution, then nothing global changes', async () => {
      const answer = await server.raw(
        'POST',
        '/api/tasks',
        '{"content":"# Proto","__proto__":{"polluted":true}}',
        json,
      );
      failsWith(answer, 400, /__proto__/);
      const created = await createTask(server, {
        content: '# Proto meta',
        metadata: JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
      });
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const fetched = okData(await server.api('GET', `/api/tasks/${created.id}`));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      okData(await server.api('DELETE', `/api/tasks/${fetched.id}/permanent`));
    });
  });

  describe('ids in paths', () => {
    const hostileBoards = ['%2e%2e', '..', '.', '..%2f..%2fetc', 'UPPER', 'a%00b', '%2e%2e%2f', 'x'.repeat(65)];
    for (const board of hostileBoards) {
      it(`when the board id is "${board}", then 400 and no file is touched`, async () => {
        const before = await listFiles(server.root);
        failsWith(asApiAnswer(await rawRequest(server, 'GET', `/api/boards/${board}/tasks`)), 400, /board id/);
        failsWith(
          asApiAnswer(
            await rawRequest(server, 'POST', `/api/boards/${board}/tasks`, {
              headers: json,
              body: '{"content":"# x"}',
            }),
          ),
          400,
          /board id/,
        );
        assert.deepEqual(await listFiles(server.root), before);
      });
    }

    const hostileTasks = ['..%2f..%2f.kanban', '%2e%2e', '..%5c..%5cwin', 'a%00b', `${'x'.repeat(5000)}`];
    for (const id of hostileTasks) {
      it(`when a task id is "${id.slice(0, 30)}", then 404 and nothing outside is read`, async () => {
        failsWith(asApiAnswer(await rawRequest(server, 'GET', `/api/tasks/${id}`)), 404);
        failsWith(asApiAnswer(await rawRequest(server, 'DELETE', `/api/tasks/${id}/permanent`)), 404);
      });
    }

    it('when the path has a broken percent-encoding, then 400 with the envelope', async () => {
      failsWith(asApiAnswer(await rawRequest(server, 'GET', '/api/tasks/%E0%A4%A')), 400, /percent-encoding/);
      failsWith(asApiAnswer(await rawRequest(server, 'GET', '/api/boards/%zz')), 400);
    });

    it('when a label name has a slash encoded in it, then it is one name', async () => {
      const labels = okData(await server.api('PUT', '/api/labels/front%2Fback', { color: '#fff' }));
      assert.ok('front/back' in labels);
      okData(await server.api('DELETE', '/api/labels/front%2Fback'));
    });
  });

  describe('the Host header', () => {
    it('when Host names another site, then 403 with the envelope', async () => {
      const answer = asApiAnswer(await rawRequest(server, 'GET', '/api/boards', { headers: { host: 'evil.example' } }));
      failsWith(answer, 403, /evil\.example/);
      failsWith(
        asApiAnswer(
          await rawRequest(server, 'GET', '/api/boards', { headers: { host: `evil.example:${server.running.port}` } }),
        ),
        403,
      );
      failsWith(
        asApiAnswer(
          await rawRequest(server, 'POST', '/api/tasks', {
            headers: { ...json, host: 'localhost.evil.example' },
            body: '{"content":"# x"}',
          }),
        ),
        403,
      );
    });

    it('when Host is localhost or 127.0.0.1 with the port, then the request passes', async () => {
      const port = server.running.port;
      for (const host of [
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        'localhost',
        `LOCALHOST:${port}`,
        `[::1]:${port}`,
      ]) {
        const answer = await rawRequest(server, 'GET', '/api/boards', { headers: { host } });
        assert.equal(answer.status, 200, host);
      }
    });
  });

  describe('CORS', () => {
    it('when any origin asks, then the answer allows all origins', async () => {
      const answer = await server.api('GET', '/api/boards', undefined, { origin: 'http://example.com' });
      assert.equal(answer.headers.get('access-control-allow-origin'), '*');
      const failed = await server.api('GET', '/api/boards/nope', undefined, { origin: 'http://example.com' });
      assert.equal(failed.headers.get('access-control-allow-origin'), '*');
    });

    it('when a browser sends a preflight, then it is answered without error', async () => {
      const answer = await rawRequest(server, 'OPTIONS', '/api/tasks', {
        headers: {
          origin: 'http://example.com',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'content-type',
        },
      });
      assert.ok(answer.status === 204 || answer.status === 200, String(answer.status));
      assert.equal(answer.headers['access-control-allow-origin'], '*');
      assert.match(String(answer.headers['access-control-allow-methods']), /PUT/);
    });
  });

  describe('query strings', () => {
    it('when a boolean query parameter is not a boolean, then 400', async () => {
      failsWith(await server.api('GET', '/api/tasks?includeDeleted=perhaps'), 400, /includeDeleted/);
    });

    it('when query parameters use bracket syntax, then 400 naming the parameter, not a crash or an operator', async () => {
      failsWith(
        await server.api('GET', '/api/tasks?q[$ne]=x&status[]=todo'),
        400,
        /unknown query parameter "q\[\$ne\]"/,
      );
    });
  });

  describe('concurrency', () => {
    it('when twenty tasks with one title are created at once, then each gets its own id and file', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => server.api('POST', '/api/tasks', { content: '# Same at once' })),
      );
      const ids = answers.map((a) => okData(a, 201).id);
      assert.equal(new Set(ids).size, 20);
      const files = (await listFiles(server.root)).filter((f) => f.includes('same-at-once'));
      assert.equal(files.length, 20);
      await Promise.all(ids.map((id) => server.api('DELETE', `/api/tasks/${id}/permanent`)));
    });

    it('when a card is moved right after it is created, then a read at once shows the new column', async () => {
      // The file watcher sees our own writes; it must never apply a stale read over a newer API change.
      for (let i = 0; i < 10; i++) {
        const task = await createTask(server, { content: `# Quick ${i}`, status: 'todo' });
        okData(await server.api('PATCH', `/api/tasks/${task.id}/move`, { status: 'in-progress' }));
        assert.equal(okData(await server.api('GET', `/api/tasks/${task.id}`)).status, 'in-progress');
        okData(await server.api('PUT', `/api/labels/quick-${i}`, { color: '#fff' }));
        assert.ok(
          `quick-${i - 1}` in okData(await server.api('GET', '/api/labels')) || i === 0,
          'an earlier label was lost',
        );
      }
    });

    it('when moves of one column run at once, then every card ends up listed exactly once', async () => {
      const ids = [];
      for (let i = 0; i < 8; i++) ids.push((await createTask(server, { content: `# Race ${i}`, status: 'review' })).id);
      await Promise.all(
        ids.map((id, i) => server.api('PATCH', `/api/tasks/${id}/move`, { status: 'review', position: (i * 3) % 8 })),
      );
      const listed = okData<any[]>(await server.api('GET', '/api/tasks?status=review')).map((t) => t.id);
      assert.deepEqual([...listed].sort(), [...ids].sort());
      assert.deepEqual(
        okData<any[]>(await server.api('GET', '/api/tasks?status=review')).map((t) => t.position),
        [0, 1, 2, 3, 4, 5, 6, 7],
      );
    });
  });
});
