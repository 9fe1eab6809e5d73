import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { TestServer } from '../helpers/testServer';
import { createTask, exists, failsWith, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';

function taskLogFile(server: TestServer, boardId: string, cardId: string): string {
  return path.join(server.root, '.kanban', 'boards', boardId, 'logs', `${cardId}.jsonl`);
}

function boardLogFile(server: TestServer, boardId: string): string {
  return path.join(server.root, '.kanban', 'boards', boardId, 'board.jsonl');
}

/** The JSON Lines file as parsed entries; fails when any line is not one JSON object. */
async function jsonLines(file: string): Promise<unknown[]> {
  const text = await fs.readFile(file, 'utf8');
  assert.ok(text.endsWith('\n'), 'a JSON Lines file ends with a newline');
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Log texts that could break a line-based file or a naive parser. */
const HOSTILE_LOG_TEXTS: Record<string, string> = {
  'several lines and a fake next entry': 'line one\n{"text":"forged","source":"evil"}\nline three',
  'CRLF and a lone CR': 'a\r\nb\rc',
  'Unicode line separators': 'one\u2028two\u2029three\u0085four',
  'JSON punctuation and escapes': '"},{"text": "x"} \\" \\\\ \\u0000',
  'control characters and NUL': 'nul\u0000 bell\u0007 esc\u001b[0m',
  'Markdown with a --- line': '# Deploy\n\n---\n\n- [x] done\n> quote',
  'emoji and right-to-left text': '🚀 deployed to مرحبا שלום ✅',
};

describe('API logs', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => {
    await server.close();
  });

  // Task-level logs: the default-board routes and their board-scoped twins.
  for (const board of [undefined, 'ops']) {
    const boardId = board ?? 'default';
    const base = board ? `/api/boards/${board}/tasks` : '/api/tasks';

    describe(`task logs ${board ? `on board "${board}"` : 'on the default board'}`, () => {
      let task: any;
      beforeEach(async () => {
        task = await createTask(server, 'Logged card', board);
      });

      it('when an entry with only text is posted, then 201 with source "default" and a generated ISO 8601 timestamp', async () => {
        const before = Date.now();
        const entry = okData(await server.api('POST', `${base}/${task.id}/logs`, { text: 'built' }), 201);
        const after = Date.now();
        assert.deepEqual(Object.keys(entry).sort(), ['source', 'text', 'timestamp']);
        assert.equal(entry.text, 'built');
        assert.equal(entry.source, 'default');
        assert.match(entry.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
        const at = Date.parse(entry.timestamp);
        assert.ok(at >= before - 1 && at <= after + 1, `${entry.timestamp} is not the time of the request`);
      });

      it('when an entry with every field is posted, then it comes back exactly as sent, in the list and on disk', async () => {
        const sent = {
          text: 'Deployed **v2**',
          source: 'ci/github-actions',
          object: {
            run: 42,
            ok: true,
            tags: ['a', 'b'],
            nested: { empty: {}, none: null, ratio: 0.5 },
            'odd key': 'ü',
          },
          timestamp: '2026-05-01T12:00:00+02:00',
        };
        const entry = okData(await server.api('POST', `${base}/${task.id}/logs`, sent), 201);
        assert.deepEqual(entry, sent);
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/logs`)), [sent]);
        assert.deepEqual(await jsonLines(taskLogFile(server, boardId, task.id)), [sent]);
      });

      it('when several entries are posted, then the list gives them oldest first, one JSON line each', async () => {
        const posted = [];
        for (const text of ['one', 'two', 'three'])
          posted.push(okData(await server.api('POST', `${base}/${task.id}/logs`, { text }), 201));
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/logs`)), posted);
        assert.deepEqual(await jsonLines(taskLogFile(server, boardId, task.id)), posted);
      });

      it('when a card has no log, then the list is empty and no file is created', async () => {
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/logs`)), []);
        assert.equal(await exists(taskLogFile(server, boardId, task.id)), false);
      });

      it('when an entry is posted, then exactly one log.added event carries the entry and the card', async () => {
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('POST', `${base}/${task.id}/logs`, { text: 'ran tests', source: 'ci' });
        });
        const entry = okData(answer, 201);
        assert.deepEqual(
          events.map((e) => e.event),
          ['log.added'],
        );
        assert.equal(events[0].boardId, boardId);
        assert.deepEqual(events[0].data.entry, entry);
        assert.equal(events[0].data.taskId, task.id);
        assert.equal(events[0].card?.id, task.id);
      });

      it('when the log is cleared, then 200, the list is empty, other cards keep theirs, and one log.cleared event is emitted', async () => {
        const other = await createTask(server, 'Other logged card', board);
        okData(await server.api('POST', `${base}/${task.id}/logs`, { text: 'a' }), 201);
        okData(await server.api('POST', `${base}/${task.id}/logs`, { text: 'b' }), 201);
        const kept = okData(await server.api('POST', `${base}/${other.id}/logs`, { text: 'keep' }), 201);
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('DELETE', `${base}/${task.id}/logs`);
        });
        okData(answer);
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/logs`)), []);
        assert.deepEqual(okData(await server.api('GET', `${base}/${other.id}/logs`)), [kept]);
        assert.deepEqual(
          events.map((e) => e.event),
          ['log.cleared'],
        );
        assert.equal(events[0].card?.id, task.id);
        // Appending after a clear starts a fresh log.
        const fresh = okData(await server.api('POST', `${base}/${task.id}/logs`, { text: 'after clear' }), 201);
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/logs`)), [fresh]);
      });

      it('when the card does not exist, then list, append and clear give 404 and no file appears', async () => {
        failsWith(await server.api('GET', `${base}/no-such-card/logs`), 404, /no-such-card/);
        failsWith(await server.api('POST', `${base}/no-such-card/logs`, { text: 'x' }), 404, /no-such-card/);
        failsWith(await server.api('DELETE', `${base}/no-such-card/logs`), 404, /no-such-card/);
        assert.equal(await exists(path.join(server.root, '.kanban', 'boards', boardId, 'logs')), false);
      });
    });
  }

  // Validation is shared by task and board logs: check both routes.
  const badBodies: [string, unknown, RegExp][] = [
    ['text is missing', { source: 'ci' }, /text/],
    ['text is empty', { text: '   ' }, /text/],
    ['text is not a string', { text: 5 }, /text/],
    ['source is not a string', { text: 'x', source: ['a'] }, /source/],
    ['object is an array', { text: 'x', object: [1, 2] }, /object/],
    ['object is a string', { text: 'x', object: '{"a":1}' }, /object/],
    ['timestamp is not ISO 8601', { text: 'x', timestamp: 'yesterday at noon' }, /timestamp/],
    ['timestamp names a day that does not exist', { text: 'x', timestamp: '2026-02-30T10:00:00Z' }, /timestamp/],
    ['timestamp has an impossible hour', { text: 'x', timestamp: '2026-05-01T25:00:00Z' }, /timestamp/],
    ['timestamp is a number', { text: 'x', timestamp: 1714564800000 }, /timestamp/],
    ['an unknown field is sent', { text: 'x', level: 'info' }, /level/],
  ];
  for (const [what, body, message] of badBodies) {
    it(`when ${what}, then a task log and a board log both answer 400 naming the field and store nothing`, async () => {
      const task = await createTask(server, 'Validated');
      failsWith(await server.api('POST', `/api/tasks/${task.id}/logs`, body), 400, message);
      failsWith(await server.api('POST', '/api/boards/default/logs', body), 400, message);
      assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}/logs`)), []);
      assert.deepEqual(okData(await server.api('GET', '/api/boards/default/logs')), []);
    });
  }

  for (const timestamp of [
    '2026-05-01',
    '2026-05-01T12:00Z',
    '2026-05-01T12:00:00.123456Z',
    '2026-05-01T12:00:00-05:30',
  ]) {
    it(`when the timestamp is the valid ISO 8601 form "${timestamp}", then it is kept exactly as sent`, async () => {
      const entry = okData(await server.api('POST', '/api/boards/default/logs', { text: 'x', timestamp }), 201);
      assert.equal(entry.timestamp, timestamp);
      assert.equal(okData(await server.api('GET', '/api/boards/default/logs'))[0].timestamp, timestamp);
    });
  }

  it('when a card on another board is addressed through the default-board route, then 404 and its log is untouched', async () => {
    const task = await createTask(server, 'Ops card', 'ops');
    const entry = okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/logs`, { text: 'ops' }), 201);
    failsWith(await server.api('DELETE', `/api/tasks/${task.id}/logs`), 404);
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${task.id}/logs`)), [entry]);
  });

  it('when a card moves to another column, then its log stays with it', async () => {
    const task = await createTask(server, 'Moving');
    const entry = okData(await server.api('POST', `/api/tasks/${task.id}/logs`, { text: 'before move' }), 201);
    okData(await server.api('PATCH', `/api/tasks/${task.id}/move`, { status: 'done' }));
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}/logs`)), [entry]);
  });

  it('when a card is transferred to another board, then its log goes with it', async () => {
    const task = await createTask(server, 'Travelling');
    const entry = okData(await server.api('POST', `/api/tasks/${task.id}/logs`, { text: 'on default' }), 201);
    okData(await server.api('POST', `/api/boards/ops/tasks/${task.id}/transfer`, {}));
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${task.id}/logs`)), [entry]);
    assert.equal(await exists(taskLogFile(server, 'default', task.id)), false);
    assert.equal(await exists(taskLogFile(server, 'ops', task.id)), true);
  });

  it('when a card is deleted for good, then its log file is removed too', async () => {
    const task = await createTask(server, 'Doomed');
    okData(await server.api('POST', `/api/tasks/${task.id}/logs`, { text: 'last words' }), 201);
    okData(await server.api('DELETE', `/api/tasks/${task.id}/permanent`));
    assert.equal(await exists(taskLogFile(server, 'default', task.id)), false);
  });

  // Board-level logs exist only in the /boards/{boardId}/logs form.
  for (const boardId of ['default', 'ops']) {
    describe(`board logs of "${boardId}"`, () => {
      it('when entries are posted, then 201, they list oldest first, each exactly as posted, and the file is JSON Lines', async () => {
        const first = okData(await server.api('POST', `/api/boards/${boardId}/logs`, { text: 'release started' }), 201);
        assert.equal(first.source, 'default');
        assert.ok(!Number.isNaN(Date.parse(first.timestamp)));
        const second = {
          text: 'release done',
          source: 'deployer',
          object: { version: '2.0.0', hosts: ['a', 'b'] },
          timestamp: '2026-05-01T12:00:00Z',
        };
        assert.deepEqual(okData(await server.api('POST', `/api/boards/${boardId}/logs`, second), 201), second);
        assert.deepEqual(okData(await server.api('GET', `/api/boards/${boardId}/logs`)), [first, second]);
        assert.deepEqual(await jsonLines(boardLogFile(server, boardId)), [first, second]);
      });

      it('when an entry is posted, then exactly one board.log.added event carries it', async () => {
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('POST', `/api/boards/${boardId}/logs`, { text: 'note' });
        });
        const entry = okData(answer, 201);
        assert.deepEqual(
          events.map((e) => e.event),
          ['board.log.added'],
        );
        assert.equal(events[0].boardId, boardId);
        assert.deepEqual(events[0].data.entry, entry);
      });

      it('when the board log is cleared, then 200, it is empty, the other board keeps its log and one board.log.cleared event is emitted', async () => {
        const otherBoard = boardId === 'default' ? 'ops' : 'default';
        okData(await server.api('POST', `/api/boards/${boardId}/logs`, { text: 'gone soon' }), 201);
        const kept = okData(await server.api('POST', `/api/boards/${otherBoard}/logs`, { text: 'stays' }), 201);
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('DELETE', `/api/boards/${boardId}/logs`);
        });
        okData(answer);
        assert.deepEqual(okData(await server.api('GET', `/api/boards/${boardId}/logs`)), []);
        assert.deepEqual(okData(await server.api('GET', `/api/boards/${otherBoard}/logs`)), [kept]);
        assert.deepEqual(
          events.map((e) => e.event),
          ['board.log.cleared'],
        );
      });

      it('when the board log is empty, then the list is empty and clearing it still answers 200', async () => {
        assert.deepEqual(okData(await server.api('GET', `/api/boards/${boardId}/logs`)), []);
        okData(await server.api('DELETE', `/api/boards/${boardId}/logs`));
      });
    });
  }

  it('when the board does not exist, then the board log routes answer 404 and write nothing', async () => {
    failsWith(await server.api('GET', '/api/boards/nope/logs'), 404, /nope/);
    failsWith(await server.api('POST', '/api/boards/nope/logs', { text: 'x' }), 404, /nope/);
    failsWith(await server.api('DELETE', '/api/boards/nope/logs'), 404, /nope/);
    assert.equal(await exists(path.join(server.root, '.kanban', 'boards', 'nope')), false);
  });

  it('when the board id is not a valid id, then 400 and nothing is written outside the workspace', async () => {
    failsWith(await server.api('POST', '/api/boards/..%2F..%2Fetc/logs', { text: 'x' }), 400, /board id/);
  });

  describe('round trip of hostile text', () => {
    for (const [what, text] of Object.entries(HOSTILE_LOG_TEXTS)) {
      it(`when a log entry holds ${what}, then after a restart it reads back exactly and the file keeps one line per entry`, async () => {
        const task = await createTask(server, 'Hostile log');
        const sent = { text, source: text, object: { text, [text]: [text] } };
        const entries = [
          okData(await server.api('POST', `/api/tasks/${task.id}/logs`, sent), 201),
          okData(await server.api('POST', `/api/tasks/${task.id}/logs`, { text: 'next' }), 201),
        ];
        const boardEntry = okData(await server.api('POST', '/api/boards/default/logs', sent), 201);
        await server.restart();
        const listed = okData(await server.api('GET', `/api/tasks/${task.id}/logs`));
        assert.deepEqual(listed, entries);
        assert.deepEqual({ text: listed[0].text, source: listed[0].source, object: listed[0].object }, sent);
        assert.deepEqual(okData(await server.api('GET', '/api/boards/default/logs')), [boardEntry]);
        assert.equal((await jsonLines(taskLogFile(server, 'default', task.id))).length, 2);
      });
    }
  });

  it('when a line of the log file was cut short by a crash, then the intact entries still list and the next append is not lost', async () => {
    const task = await createTask(server, 'Crashed');
    const entry = okData(await server.api('POST', `/api/tasks/${task.id}/logs`, { text: 'intact' }), 201);
    await fs.appendFile(taskLogFile(server, 'default', task.id), '{"text":"cut sh');
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}/logs`)), [entry]);
    const next = okData(await server.api('POST', `/api/tasks/${task.id}/logs`, { text: 'after the crash' }), 201);
    assert.deepEqual(okData(await server.api('GET', `/api/tasks/${task.id}/logs`)), [entry, next]);
  });

  it('when the object holds a "__proto__" key, then it is stored and returned as a plain key', async () => {
    const answer = await server.raw(
      'POST',
      '/api/boards/default/logs',
      '{"text":"x","object":{"__proto__":{"polluted":true},"a":1}}',
      { 'content-type': 'application/json' },
    );
    const entry = okData(answer, 201);
    assert.deepEqual(Object.keys(entry.object), ['__proto__', 'a']);
    assert.equal(({} as any).polluted, undefined);
    const [listed] = okData(await server.api('GET', '/api/boards/default/logs'));
    assert.equal(JSON.stringify(listed.object), '{"__proto__":{"polluted":true},"a":1}');
  });
});
