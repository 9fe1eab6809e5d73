import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createTask, failsWith, okData } from '../helpers/envelope';
import { useCardProviderServer } from '../helpers/perProvider';
import type { TestServer } from '../helpers/testServer';
import { CARD_PROVIDERS } from '../storage/helpers/cardProviders';

/** Every kind of ending and line break a client may send; each must come back exactly. */
const CONTENTS = [
  '# T\n\nbody',
  '# T\n\nbody\n',
  '# T\n\nbody\n\n',
  'no heading',
  '# crlf\r\nline\r\n',
  '# crlf\r\nno final newline',
  '# lone\rcr',
  '\n\n# late title\n',
  '# Ünïcode ✓ 🚀\n\n\tzoë 日本語\n',
];

/** Strings compared as JSON, so a failure shows the \n and \r that differ. */
function sameText(actual: unknown, expected: string, what: string): void {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), what);
}

async function contentOf(server: TestServer, id: string, boardId = 'default'): Promise<string> {
  return okData(await server.api('GET', `/api/boards/${boardId}/tasks/${id}`)).content;
}

async function exportedContents(server: TestServer, boardId: string): Promise<Map<string, string>> {
  const response = await fetch(`${server.url}/api/boards/${boardId}/export?format=json`);
  assert.equal(response.status, 200);
  const exported = JSON.parse(await response.text());
  return new Map(exported.cards.map((card: { id: string; content: string }) => [card.id, card.content]));
}

for (const providerName of CARD_PROVIDERS) {
  describe(`API content round trip (${providerName})`, () => {
    let server: TestServer;
    useCardProviderServer(providerName, (started) => (server = started));

    it('when cards are created with each content, then the answer, GET, the JSON export and a restart give it back byte for byte', async () => {
      const ids: string[] = [];
      for (const content of CONTENTS) {
        const created = await createTask(server, { content });
        sameText(created.content, content, 'the create answer');
        sameText(await contentOf(server, created.id), content, 'GET after create');
        ids.push(created.id);
      }
      const exported = await exportedContents(server, 'default');
      CONTENTS.forEach((content, i) => sameText(exported.get(ids[i]), content, 'the JSON export'));
      await server.restart();
      for (const [i, content] of CONTENTS.entries())
        sameText(await contentOf(server, ids[i]), content, 'GET after a restart (read from the store)');
    });

    it('when a card is updated to each content, then the answer, GET and a restart give it back byte for byte', async () => {
      const ids: string[] = [];
      for (const content of CONTENTS) {
        const { id } = await createTask(server, { content: '# Before\n' });
        sameText(
          okData(await server.api('PUT', `/api/tasks/${id}`, { content })).content,
          content,
          'the update answer',
        );
        sameText(await contentOf(server, id), content, 'GET after update');
        ids.push(id);
      }
      await server.restart();
      for (const [i, content] of CONTENTS.entries())
        sameText(await contentOf(server, ids[i]), content, 'GET after a restart');
    });

    it('when cards are transferred to another board, then their content is unchanged there, in its export and after a restart', async () => {
      const ids: string[] = [];
      for (const content of CONTENTS) {
        const { id } = await createTask(server, { content });
        sameText(
          okData(await server.api('POST', `/api/boards/ops/tasks/${id}/transfer`, {})).content,
          content,
          'the transfer answer',
        );
        sameText(await contentOf(server, id, 'ops'), content, 'GET on the destination board');
        ids.push(id);
      }
      const exported = await exportedContents(server, 'ops');
      CONTENTS.forEach((content, i) => sameText(exported.get(ids[i]), content, "the destination board's JSON export"));
      await server.restart();
      for (const [i, content] of CONTENTS.entries())
        sameText(await contentOf(server, ids[i], 'ops'), content, 'GET after a restart');
    });

    it('when the content is empty, then create and update are refused and the card keeps its content', async () => {
      failsWith(await server.api('POST', '/api/tasks', { content: '' }), 400, /content must not be empty/);
      const { id } = await createTask(server, { content: '# Kept' });
      failsWith(await server.api('PUT', `/api/tasks/${id}`, { content: '' }), 400, /content must not be empty/);
      sameText(await contentOf(server, id), '# Kept', 'GET after the refused update');
    });
  });
}

describe('API content round trip: Markdown card files', () => {
  let server: TestServer;
  useCardProviderServer('markdown', (started) => (server = started));

  const cardPath = (id: string) => path.join(server.root, '.kanban', 'boards', 'default', 'backlog', `${id}.md`);

  it('when a card is created, then its file is the frontmatter, a blank line and the content exactly as sent', async () => {
    for (const content of ['# T\n\nbody', '# T\n\nbody\n', '# crlf\r\nline\r\n']) {
      const { id } = await createTask(server, { content, status: 'backlog' });
      const [frontmatter, body] = (await fs.readFile(cardPath(id), 'utf8')).split('\n---\n\n');
      assert.ok(!frontmatter.includes('\r'), 'the frontmatter is LF');
      sameText(body, content, 'the text after the frontmatter');
    }
  });

  it('when a hand-written file ends with a newline, then its content keeps it, as before, and an unrelated change writes the file back the same', async () => {
    const text = '---\nid: by-hand\npriority: low\n---\n\n# By hand\n\nbody\n';
    await fs.mkdir(path.dirname(cardPath('by-hand')), { recursive: true });
    await fs.writeFile(cardPath('by-hand'), text);
    await server.restart();
    sameText(await contentOf(server, 'by-hand'), '# By hand\n\nbody\n', 'GET of the hand-written card');
    okData(await server.api('PUT', '/api/tasks/by-hand', { priority: 'high' }));
    assert.ok(
      (await fs.readFile(cardPath('by-hand'), 'utf8')).endsWith('\n---\n\n# By hand\n\nbody\n'),
      'the body is unchanged',
    );
  });

  it('when a hand-written file has CRLF lines throughout, then it reads as LF, as before', async () => {
    await fs.mkdir(path.dirname(cardPath('windows')), { recursive: true });
    await fs.writeFile(cardPath('windows'), '---\r\nid: windows\r\n---\r\n\r\n# Windows\r\n\r\nbody\r\n');
    await server.restart();
    sameText(await contentOf(server, 'windows'), '# Windows\n\nbody\n', 'GET of the CRLF card');
  });
});
