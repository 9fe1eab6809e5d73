import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { cardFile, createTask, failsWith, okData } from '../helpers/envelope';
import { eventsDuring } from '../helpers/serverHooks';
import { RecordingSocket, wsUrl } from '../helpers/wsClient';
import type { CardProviderName } from '../storage/helpers/cardProviders';
import { useCardProviderServer } from '../helpers/perProvider';

const CONTENT = '# Release\n\nSteps:\n\n- [ ] build\n- [x] test\n\n```\n- [ ] not an item\n```\n';

/** Markdown and one SQL provider; each on the default board and the second board `ops`. */
const PROVIDERS: CardProviderName[] = ['markdown', 'sqlite'];
const BOARDS = [
  { name: 'the default board', base: '/api/tasks', boardId: 'default', status: 'backlog' },
  { name: 'a second board', base: '/api/boards/ops/tasks', boardId: 'ops', status: 'inbox' },
];

for (const providerName of PROVIDERS) {
  for (const board of BOARDS) {
    describe(`API checklists (${providerName}, ${board.name})`, () => {
      let server: TestServer;
      useCardProviderServer(providerName, (started) => (server = started));

      const newCard = () =>
        createTask(server, { content: CONTENT }, board.boardId === 'default' ? undefined : board.boardId);

      it('when a card has task list items, then lists carry the progress and a single GET the items', async () => {
        const card = await newCard();
        const listed = okData(await server.api('GET', board.base)).find((t: any) => t.id === card.id);
        assert.deepEqual(listed.checklist, { done: 1, total: 2 });
        assert.equal(listed.checklistItems, undefined, 'lists carry progress only');
        const single = okData(await server.api('GET', `${board.base}/${card.id}`));
        assert.deepEqual(single.checklistItems, [
          { index: 0, text: 'build', done: false },
          { index: 1, text: 'test', done: true },
        ]);
      });

      it('when an item is ticked by partial id, then the content, the progress and one task.updated event show it', async () => {
        const card = await newCard();
        let answer: any;
        const events = await eventsDuring(server, async () => {
          answer = okData(
            await server.api('PATCH', `${board.base}/${card.id.slice(0, 6)}/checklist/0`, { done: true }),
          );
        });
        assert.equal(answer.content, CONTENT.replace('- [ ] build', '- [x] build'));
        assert.deepEqual(answer.checklist, { done: 2, total: 2 });
        assert.deepEqual(
          events.map((e) => [e.event, e.boardId]),
          [['task.updated', board.boardId]],
        );
        const listed = okData(await server.api('GET', board.base)).find((t: any) => t.id === card.id);
        assert.deepEqual(listed.checklist, { done: 2, total: 2 }, 'the cached list is not stale');
      });

      it('when an item is added, reworded and removed, then the items renumber and the answer shows them', async () => {
        const card = await newCard();
        const added = okData(await server.api('POST', `${board.base}/${card.id}/checklist`, { text: 'ship' }));
        assert.deepEqual(
          added.checklistItems.map((i: any) => i.text),
          ['build', 'test', 'ship'],
        );
        assert.match(added.content, /- \[x\] test\n- \[ \] ship\n/);
        const reworded = okData(await server.api('PATCH', `${board.base}/${card.id}/checklist/2`, { text: 'ship it' }));
        assert.deepEqual(reworded.checklistItems[2], { index: 2, text: 'ship it', done: false });
        const removed = okData(await server.api('DELETE', `${board.base}/${card.id}/checklist/0`));
        assert.deepEqual(removed.checklistItems, [
          { index: 0, text: 'test', done: true },
          { index: 1, text: 'ship it', done: false },
        ]);
      });

      it('when a card has no list, then an added item goes under a new Checklist heading', async () => {
        const card = await createTask(
          server,
          { content: '# Plain\n\nText.\n' },
          board.boardId === 'default' ? undefined : board.boardId,
        );
        assert.equal(card.checklist, null);
        const added = okData(await server.api('POST', `${board.base}/${card.id}/checklist`, { text: 'first' }));
        assert.equal(added.content, '# Plain\n\nText.\n\n## Checklist\n\n- [ ] first\n');
        assert.deepEqual(added.checklist, { done: 0, total: 1 });
      });

      it('when an index is out of range or not a number, or the body is empty, then the answer says what is wrong', async () => {
        const card = await newCard();
        failsWith(
          await server.api('PATCH', `${board.base}/${card.id}/checklist/2`, { done: true }),
          404,
          /no checklist item 2: items are numbered 0 to 1/,
        );
        failsWith(await server.api('DELETE', `${board.base}/${card.id}/checklist/9`), 404, /no checklist item 9/);
        failsWith(
          await server.api('PATCH', `${board.base}/${card.id}/checklist/one`, { done: true }),
          400,
          /not a whole number/,
        );
        failsWith(await server.api('PATCH', `${board.base}/${card.id}/checklist/0`, {}), 400, /send "done"/);
        failsWith(
          await server.api('POST', `${board.base}/${card.id}/checklist`, { text: ' ' }),
          400,
          /must not be empty/,
        );
        failsWith(await server.api('POST', `${board.base}/nope-nothing/checklist`, { text: 'x' }), 404);
      });

      it('when If-Match names an older version of the card, then the change is refused with 412 and nothing changes', async () => {
        const card = await newCard();
        const read = await server.api('GET', `${board.base}/${card.id}`);
        const etag = read.headers.get('etag') as string;
        okData(await server.api('PATCH', `${board.base}/${card.id}/checklist/0`, { done: true }, { 'If-Match': etag }));
        failsWith(
          await server.api('PATCH', `${board.base}/${card.id}/checklist/1`, { done: false }, { 'If-Match': etag }),
          412,
          /changed since you read it/,
        );
        failsWith(
          await server.api('POST', `${board.base}/${card.id}/checklist`, { text: 'x' }, { 'If-Match': etag }),
          412,
        );
        const now = okData(await server.api('GET', `${board.base}/${card.id}`));
        assert.deepEqual(now.checklist, { done: 2, total: 2 });
      });
    });
  }
}

describe('checklists in card files', () => {
  let server: TestServer;
  beforeEach(async () => (server = await startTestServer()));
  afterEach(async () => server?.close());

  it('when an item is ticked, then the card file is plain Markdown with the box ticked', async () => {
    const card = await createTask(server, { content: CONTENT });
    okData(await server.api('PATCH', `/api/tasks/${card.id}/checklist/0`, { done: true }));
    const text = await fs.readFile(cardFile(server, 'default', 'backlog', card.id), 'utf8');
    assert.ok(text.endsWith(CONTENT.replace('- [ ] build', '- [x] build')), text);
  });

  it('when a task list line is edited by hand, then a WebSocket event comes and lists and GET show the new state', async () => {
    const card = await createTask(server, { content: CONTENT });
    okData(await server.api('GET', '/api/tasks'));
    const socket = await RecordingSocket.connect(wsUrl(server.url));
    try {
      const file = cardFile(server, 'default', 'backlog', card.id);
      const text = await fs.readFile(file, 'utf8');
      await fs.writeFile(
        file,
        text.replace('- [ ] build', '- [x] build').replace('- [x] test', '- [x] test\n- [ ] by hand'),
      );
      const event = await socket.waitFor((m) => m.event === 'task.updated' && m.data?.taskId === card.id, 8000);
      assert.ok(event.revision! > 0);
      const single = okData(await server.api('GET', `/api/tasks/${card.id}`));
      assert.deepEqual(
        single.checklistItems.map((i: any) => [i.text, i.done]),
        [
          ['build', true],
          ['test', true],
          ['by hand', false],
        ],
      );
      const listed = okData(await server.api('GET', '/api/tasks')).find((t: any) => t.id === card.id);
      assert.deepEqual(listed.checklist, { done: 2, total: 3 });
    } finally {
      socket.close();
    }
  });
});
