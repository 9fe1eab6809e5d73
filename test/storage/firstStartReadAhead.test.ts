import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/testServer';
import { okData } from '../helpers/envelope';

/**
 * A start that has many files to read (no card index cache: a first start, a fresh clone) reads
 * them on a worker thread while the main thread parses; the board it serves must be the one the
 * files hold, byte for byte, with broken files listed as on any other start.
 */
const CARDS = 2_500;
const STATUSES = ['backlog', 'todo', 'in-progress', 'review', 'done'];

function cardText(n: number): string {
  const lines = [`id: card-${n}`, `status: ${STATUSES[n % 5]}`, `order: a${String(n).padStart(5, '0')}`];
  if (n % 7 === 0) lines.push('labels:', '  - bug');
  // Non-ASCII text and CRLF line ends in some files: read as bytes, decoded once, as before.
  const body = n % 11 === 0 ? `# Café ${n}\r\n\r\nÜber alles.\r\n` : `# Card ${n}\n\nPlain text ${n}.\n`;
  return `---\n${lines.join('\n')}\ncreated: 2026-01-01T00:00:00.000Z\n---\n\n${body}`;
}

interface Listed {
  id: string;
  title: string;
  status: string;
  labels: string[];
  content: string;
}

describe('First start over many card files (read ahead on a worker)', function () {
  this.timeout(120_000);
  let server: TestServer | undefined;

  afterEach(() => server?.close());

  it('when 2,500 card files and a broken one are read at start, then every card is served as its file says and the broken one is listed', async () => {
    const root = await makeTempDir();
    for (const status of STATUSES)
      await fs.mkdir(path.join(root, '.kanban', 'boards', 'default', status), { recursive: true });
    for (let n = 0; n < CARDS; n++)
      await fs.writeFile(path.join(root, '.kanban', 'boards', 'default', STATUSES[n % 5], `card-${n}.md`), cardText(n));
    const broken = path.join(root, '.kanban', 'boards', 'default', 'todo', 'broken-card.md');
    await fs.writeFile(broken, '---\nid: broken-card\nstatus: [todo\n---\n\n# Broken\n');

    server = await startTestServer({ root });
    const listed = okData<Listed[]>(await server.api('GET', '/api/tasks?fields=id,title,status,labels,content'));
    assert.equal(listed.length, CARDS);
    const byId = new Map(listed.map((card) => [card.id, card]));
    for (const n of [0, 1, 7, 11, 1234, CARDS - 1]) {
      const card = byId.get(`card-${n}`)!;
      assert.equal(card.status, STATUSES[n % 5]);
      assert.equal(card.title, n % 11 === 0 ? `Café ${n}` : `Card ${n}`);
      assert.deepEqual(card.labels, n % 7 === 0 ? ['bug'] : []);
      assert.equal(card.content, cardText(n).split('---\n\n')[1]);
    }
    const workspace = okData<{ invalidFiles: { path: string }[] }>(await server.api('GET', '/api/workspace'));
    assert.deepEqual(
      workspace.invalidFiles.map((file) => file.path),
      ['.kanban/boards/default/todo/broken-card.md'],
    );

    // The fingerprints taken on the worker are the ones a write checks: a card edited through the
    // API right after the start is written (no "changed on disk" refusal), and its file says so.
    const updated = await server.api('PUT', '/api/tasks/card-1', { priority: 'high' });
    assert.equal(updated.status, 200);
    assert.match(
      await fs.readFile(path.join(root, '.kanban', 'boards', 'default', 'todo', 'card-1.md'), 'utf8'),
      /priority: high/,
    );
  });
});
