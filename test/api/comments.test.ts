import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import type { TestServer } from '../helpers/testServer';
import { cardFile, createTask, failsWith, okData } from '../helpers/envelope';
import { eventsDuring, startServerWithOpsBoard } from '../helpers/serverHooks';

/** Events the workspace emits while `action` runs. */
/** Comment bodies that a naive frontmatter writer or reader would mangle. */
const HOSTILE_TEXTS: Record<string, string> = {
  'Markdown with headings, lists and code':
    '# Heading\n\n- item\n- [ ] todo\n\n```js\nconst a = "b";\n```\n\n> quoted\n',
  'a bare --- line': 'before\n---\nafter',
  'a frontmatter-looking block': '---\nid: hijack\npriority: critical\n---\n\n# Not a title',
  'only ---': '---',
  'quotes and backslashes': `it's "quoted" and \`ticked\` \\ back\\slash \\n not a newline`,
  'YAML indicators':
    '- not a list\n? not a key\n: not a value\n| not a block\n> not folded\n& anchor *alias !tag %directive @ `',
  'YAML scalars that change type': 'null',
  'a number': '0x1F',
  'a boolean word': 'yes',
  'a colon pair': 'key: value',
  'a comment marker': '# only a heading # with hash',
  'leading and trailing whitespace': '   indented start\n\n  \ttabbed\ntrailing spaces   \n\n\n',
  'leading newlines': '\n\nstarts after blank lines',
  'CRLF line ends': 'line one\r\nline two\r\n',
  'a lone carriage return': 'a\rb',
  'Unicode: emoji, RTL, combining marks, CJK': 'Zoë 🚀👩🏽‍💻 مرحبا שלום e\u0301 日本語テキスト',
  'Unicode line and paragraph separators': 'one\u2028two\u2029three\u0085four',
  'zero-width and BOM characters': '\ufeffzero\u200bwidth\u200d joiner',
  'control characters': 'bell\u0007 escape\u001b[31m red \u0000 nul',
  'a YAML document end marker': 'text\n...\nmore',
  'a very long line': 'x'.repeat(20000),
};

describe('API comments', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServerWithOpsBoard();
  });
  afterEach(async () => {
    await server.close();
  });

  for (const board of [undefined, 'ops']) {
    const where = board
      ? `on board "${board}" (/api/boards/${board}/tasks/...)`
      : 'on the default board (/api/tasks/...)';
    const base = board ? `/api/boards/${board}/tasks` : '/api/tasks';

    describe(where, () => {
      let task: any;
      beforeEach(async () => {
        task = await createTask(server, 'Discussed card', board);
      });

      it('when a comment is created, then 201 with id, author, content and time, and exactly one comment.created event carries the card', async () => {
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('POST', `${base}/${task.id}/comments`, {
            author: 'ana',
            content: 'Looks **good**',
          });
        });
        const comment = okData(answer, 201);
        assert.match(comment.id, /^c_[a-z0-9]{10}$/);
        assert.equal(comment.author, 'ana');
        assert.equal(comment.content, 'Looks **good**');
        assert.ok(!Number.isNaN(Date.parse(comment.created)), comment.created);
        assert.equal(events.length, 1, events.map((e) => e.event).join(', '));
        assert.equal(events[0].event, 'comment.created');
        assert.equal(events[0].boardId, board ?? 'default');
        assert.deepEqual(events[0].data.comment, comment);
        assert.equal(events[0].card?.id, task.id);
        assert.deepEqual(events[0].card?.comments, [comment]);
      });

      it('when several comments are created, then the list gives them in the order they were posted', async () => {
        const posted = [];
        for (const text of ['first', 'second', 'third']) {
          posted.push(
            okData(await server.api('POST', `${base}/${task.id}/comments`, { author: 'bo', content: text }), 201),
          );
        }
        const listed = okData(await server.api('GET', `${base}/${task.id}/comments`));
        assert.deepEqual(listed, posted);
        const read = okData(await server.api('GET', `${base}/${task.id}`));
        assert.deepEqual(
          read.comments.map((c: any) => c.content),
          ['first', 'second', 'third'],
        );
        assert.equal(read.commentCount, 3);
      });

      it('when a card has no comments, then the list is empty', async () => {
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/comments`)), []);
      });

      it('when a comment is updated, then 200 with the new content, the others are untouched and one comment.updated event is emitted', async () => {
        const first = okData(
          await server.api('POST', `${base}/${task.id}/comments`, { author: 'ana', content: 'v1' }),
          201,
        );
        const second = okData(
          await server.api('POST', `${base}/${task.id}/comments`, { author: 'bo', content: 'other' }),
          201,
        );
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('PUT', `${base}/${task.id}/comments/${first.id}`, { content: 'v2' });
        });
        const updated = okData(answer);
        assert.equal(updated.id, first.id);
        assert.equal(updated.author, 'ana');
        assert.equal(updated.content, 'v2');
        assert.equal(updated.created, first.created);
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/comments`)), [updated, second]);
        assert.deepEqual(
          events.map((e) => e.event),
          ['comment.updated'],
        );
        assert.equal(events[0].card?.comments?.[0].content, 'v2');
      });

      it('when a comment is deleted, then 200, it is gone from the list and the card file, and one comment.deleted event is emitted', async () => {
        const keep = okData(
          await server.api('POST', `${base}/${task.id}/comments`, { author: 'ana', content: 'keep me' }),
          201,
        );
        const drop = okData(
          await server.api('POST', `${base}/${task.id}/comments`, { author: 'ana', content: 'drop me' }),
          201,
        );
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = await server.api('DELETE', `${base}/${task.id}/comments/${drop.id}`);
        });
        okData(answer);
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/comments`)), [keep]);
        const file = await fs.readFile(cardFile(server, board ?? 'default', 'backlog', task.id), 'utf8');
        assert.ok(file.includes(keep.id) && !file.includes(drop.id), file);
        assert.deepEqual(
          events.map((e) => e.event),
          ['comment.deleted'],
        );
        assert.equal(events[0].data.commentId, drop.id);
        assert.deepEqual(events[0].card?.comments, [keep]);
      });

      it('when comments are deleted and new ones added, then no id is ever given twice', async () => {
        const ids = new Set<string>();
        for (let round = 0; round < 5; round++) {
          const c = okData(
            await server.api('POST', `${base}/${task.id}/comments`, { author: 'ana', content: `round ${round}` }),
            201,
          );
          assert.ok(!ids.has(c.id), `id ${c.id} was given again`);
          ids.add(c.id);
          okData(await server.api('DELETE', `${base}/${task.id}/comments/${c.id}`));
        }
        assert.equal(ids.size, 5);
      });

      it('when the card id is a unique prefix, then the comment routes find the card', async () => {
        const prefix = task.id.slice(0, 8);
        okData(await server.api('POST', `${base}/${prefix}/comments`, { author: 'ana', content: 'via prefix' }), 201);
        assert.equal(okData(await server.api('GET', `${base}/${prefix}/comments`)).length, 1);
      });

      const badBodies: [string, unknown, RegExp][] = [
        ['author is missing', { content: 'text' }, /author/],
        ['content is missing', { author: 'ana' }, /content/],
        ['author is empty', { author: '  ', content: 'text' }, /author/],
        ['content is empty', { author: 'ana', content: '' }, /content/],
        ['content is not text', { author: 'ana', content: 42 }, /content/],
        ['an unknown field is sent', { author: 'ana', content: 'x', id: 'c_mine' }, /id/],
        ['the body is not an object', ['ana', 'text'], /body/],
      ];
      for (const [what, body, message] of badBodies) {
        it(`when a comment is created and ${what}, then 400 naming the problem and nothing is stored`, async () => {
          failsWith(await server.api('POST', `${base}/${task.id}/comments`, body), 400, message);
          assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/comments`)), []);
        });
      }

      it('when a comment is updated without content or with empty content, then 400 and the text is unchanged', async () => {
        const c = okData(
          await server.api('POST', `${base}/${task.id}/comments`, { author: 'ana', content: 'original' }),
          201,
        );
        failsWith(await server.api('PUT', `${base}/${task.id}/comments/${c.id}`, {}), 400, /content/);
        failsWith(await server.api('PUT', `${base}/${task.id}/comments/${c.id}`, { content: ' ' }), 400, /content/);
        failsWith(
          await server.api('PUT', `${base}/${task.id}/comments/${c.id}`, { content: 'x', author: 'mallory' }),
          400,
          /author/,
        );
        assert.deepEqual(okData(await server.api('GET', `${base}/${task.id}/comments`)), [c]);
      });

      it('when the card does not exist, then every comment route gives 404', async () => {
        failsWith(await server.api('GET', `${base}/no-such-card/comments`), 404, /no-such-card/);
        failsWith(
          await server.api('POST', `${base}/no-such-card/comments`, { author: 'a', content: 'b' }),
          404,
          /no-such-card/,
        );
        failsWith(
          await server.api('PUT', `${base}/no-such-card/comments/c_0000000000`, { content: 'b' }),
          404,
          /no-such-card/,
        );
        failsWith(await server.api('DELETE', `${base}/no-such-card/comments/c_0000000000`), 404, /no-such-card/);
      });

      it('when the comment does not exist, then update and delete give 404 and emit nothing', async () => {
        const events = await eventsDuring(server, async () => {
          failsWith(
            await server.api('PUT', `${base}/${task.id}/comments/c_0000000000`, { content: 'b' }),
            404,
            /c_0000000000/,
          );
          failsWith(await server.api('DELETE', `${base}/${task.id}/comments/c_0000000000`), 404, /c_0000000000/);
        });
        assert.deepEqual(events, []);
      });
    });
  }

  it('when a card lives on another board, then the default-board comment routes do not reach it (404)', async () => {
    const task = await createTask(server, 'Ops only', 'ops');
    failsWith(await server.api('POST', `/api/tasks/${task.id}/comments`, { author: 'a', content: 'b' }), 404);
    failsWith(await server.api('GET', `/api/tasks/${task.id}/comments`), 404);
    assert.deepEqual(okData(await server.api('GET', `/api/boards/ops/tasks/${task.id}/comments`)), []);
  });

  it('when the board of a twin route does not exist, then 404', async () => {
    failsWith(await server.api('GET', '/api/boards/nope/tasks/x/comments'), 404, /nope/);
  });

  describe('round trip of hostile text through the card file', () => {
    for (const [what, text] of Object.entries(HOSTILE_TEXTS)) {
      it(`when a comment holds ${what}, then after a server restart it reads back byte for byte and the card is intact`, async () => {
        const task = await createTask(server, { content: '# Host card\n\nbody stays\n' });
        const created = okData(
          await server.api('POST', `/api/tasks/${task.id}/comments`, {
            author: `author ${text.slice(0, 40)}`,
            content: text,
          }),
          201,
        );
        assert.equal(created.content, text);
        await server.restart();
        const comments = okData(await server.api('GET', `/api/tasks/${task.id}/comments`));
        assert.equal(comments.length, 1);
        assert.equal(comments[0].content, text);
        assert.equal(comments[0].author, `author ${text.slice(0, 40)}`);
        const read = okData(await server.api('GET', `/api/tasks/${task.id}`));
        assert.equal(read.title, 'Host card');
        assert.equal(read.content, '# Host card\n\nbody stays\n');
        assert.equal(read.priority, 'medium');
        assert.deepEqual(okData(await server.api('GET', '/api/workspace')).invalidFiles, []);
      });
    }

    it('when a hostile comment is edited to other hostile text, then the edit also survives a restart', async () => {
      const task = await createTask(server, 'Edited');
      const c = okData(
        await server.api('POST', `/api/tasks/${task.id}/comments`, {
          author: 'ana',
          content: HOSTILE_TEXTS['a bare --- line'],
        }),
        201,
      );
      okData(
        await server.api('PUT', `/api/tasks/${task.id}/comments/${c.id}`, {
          content: HOSTILE_TEXTS['a frontmatter-looking block'],
        }),
      );
      await server.restart();
      const [comment] = okData(await server.api('GET', `/api/tasks/${task.id}/comments`));
      assert.equal(comment.content, HOSTILE_TEXTS['a frontmatter-looking block']);
    });
  });
});
