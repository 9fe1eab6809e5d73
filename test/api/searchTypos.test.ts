import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createTask, okData } from '../helpers/envelope';
import { startServerWithOpsBoard } from '../helpers/serverHooks';
import type { TestServer } from '../helpers/testServer';

interface Corpus {
  cards: { title: string; body: string; comment?: string }[];
  typos: { typed: string; finds: string; kind: string }[];
  unrelated: string[];
}

const corpus = JSON.parse(
  readFileSync(path.join(__dirname, '..', 'fixtures', 'search', 'typos.json'), 'utf8'),
) as Corpus;

/** Search over comment bodies and typo tolerance, on the default board and a second one. */
describe('API search: comments and real typos', () => {
  let server: TestServer;

  before(async () => {
    server = await startServerWithOpsBoard();
    for (const board of ['default', 'ops']) {
      for (const card of corpus.cards) {
        const created = await createTask(server, { content: `# ${card.title}\n\n${card.body}\n` }, board);
        if (card.comment)
          okData(
            await server.api('POST', `/api/boards/${board}/tasks/${created.id}/comments`, {
              author: 'tester',
              content: card.comment,
            }),
            201,
          );
      }
    }
  });
  after(async () => server?.close());

  for (const board of ['default', 'ops']) {
    describe(`on board ${board}`, () => {
      const titles = async (query: string) =>
        okData<any[]>(await server.api('GET', `/api/boards/${board}/tasks?${query}`)).map((t) => t.title);

      it('when an exact search names a word only a comment holds, then the card with that comment is found', async () => {
        assert.deepEqual(await titles('q=receipt%20email'), ['Payment retries']);
        assert.deepEqual(await titles('q=GOOGLE'), ['Calendar integration']);
      });

      for (const typo of corpus.typos) {
        it(`when "${typo.typed}" (${typo.kind}) is searched with fuzzy=true, then "${typo.finds}" is found first`, async () => {
          const found = await titles(`fuzzy=true&q=${encodeURIComponent(typo.typed)}`);
          assert.equal(found[0], typo.finds, `found ${JSON.stringify(found)}`);
        });
      }

      it('when the typos are searched without fuzzy, then exact search stays exact and finds none of them', async () => {
        for (const typo of corpus.typos)
          assert.deepEqual(await titles(`q=${encodeURIComponent(typo.typed)}`), [], typo.typed);
      });

      it('when unrelated words are searched with fuzzy=true, then nothing is found', async () => {
        for (const word of corpus.unrelated) assert.deepEqual(await titles(`fuzzy=true&q=${word}`), [], word);
      });
    });
  }

  describe('after changes', () => {
    it('when a comment is added, then a typo of its words finds the card; when the card is deleted for good, then nothing does', async () => {
      const card = await createTask(server, { content: '# Plain card\n' });
      okData(
        await server.api('POST', `/api/tasks/${card.id}/comments`, { author: 'tester', content: 'Flaky on Firefox' }),
        201,
      );
      assert.deepEqual(
        okData<any[]>(await server.api('GET', '/api/tasks?fuzzy=true&q=firefxo')).map((t) => t.id),
        [card.id],
      );
      okData(await server.api('DELETE', `/api/tasks/${card.id}/permanent`));
      assert.deepEqual(okData<any[]>(await server.api('GET', '/api/tasks?fuzzy=true&q=firefxo')), []);
    });
  });
});
