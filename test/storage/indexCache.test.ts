import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { eventually } from '../helpers/waiting';
import { okData } from '../helpers/envelope';
import { readIndexCache } from '../../server/storage/markdown/indexCache';

/**
 * The card index cache (.kanban/.state/card-index.json): a restart takes unchanged cards
 * from it, and sees every file changed, added or removed while the server was down.
 */
const CACHE = path.join('.kanban', '.state', 'card-index.json');

interface Listed {
  id: string;
  title: string;
  status: string;
  position: number;
  filePath: string;
}

async function board(server: TestServer): Promise<Listed[]> {
  const answer = await server.api<Listed[]>('GET', '/api/tasks');
  assert.equal(answer.status, 200);
  return answer.body!.data!.map(({ id, title, status, position, filePath }) => ({
    id,
    title,
    status,
    position,
    filePath,
  }));
}

/** The cache's files by path, as the server will read them at its next start. */
async function cacheFiles(root: string): Promise<Record<string, { card: { content: string } }>> {
  return eventually(async () => {
    const files = readIndexCache(path.join(root, '.kanban', '.state'));
    if (files.size === 0) throw new Error('no files in the cache yet');
    return Object.fromEntries(files);
  });
}

/** The cache file as it is on disk: one array per card file, the card's Markdown at CONTENT_AT. */
async function cacheOnDisk(root: string): Promise<{ format: string; rows: unknown[][] }> {
  return JSON.parse(await fs.readFile(path.join(root, CACHE), 'utf8'));
}

const CONTENT_AT = 7;

describe('Card index cache across restarts (markdown)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let ids: string[];

  beforeEach(async () => {
    server = await startTestServer();
    ids = [];
    for (const title of ['Alpha card', 'Beta card', 'Gamma card']) {
      const created = await server.api('POST', '/api/tasks', { content: `# ${title}\n\nSome text.` });
      assert.equal(created.status, 201);
      ids.push(created.body!.data.id);
    }
    // The first start had no files to read; this one reads the three and writes the cache.
    await server.restart();
    await eventually(async () => assert.equal(Object.keys(await cacheFiles(server.root)).length, 3));
  });

  afterEach(() => server.close());

  /** Stop the server, run `whileDown`, and start a new one over the same folder. */
  async function restartAfter(whileDown: () => Promise<void>): Promise<void> {
    await server.running.close();
    await whileDown();
    const root = server.root;
    server = await startTestServer({ root });
  }

  it('when the server restarts over unchanged files, then it shows the same board, taking the cards from the cache', async () => {
    const before = await board(server);
    await restartAfter(async () => undefined);
    assert.deepEqual(await board(server), before);
    // Proof the cache answered: a card changed only in the cache shows, since its file's size and mtime still match.
    const file = path.join(server.root, CACHE);
    const cached = await cacheOnDisk(server.root);
    const gamma = cached.rows.find((row) => String(row[CONTENT_AT]).includes('# Gamma card'))!;
    gamma[CONTENT_AT] = String(gamma[CONTENT_AT]).replace('# Gamma card', '# Gamma card from the cache');
    await restartAfter(async () => {
      await fs.writeFile(file, JSON.stringify(cached));
    });
    assert.equal((await board(server)).find((card) => card.id === ids[2])?.title, 'Gamma card from the cache');
  });

  it('when cards with every kind of field restart from the cache, then each reads exactly as before', async () => {
    const rich = okData<{ id: string }>(
      await server.api('POST', '/api/tasks', {
        content: '# Rich card ✓\r\n\nWith Ünïcode.',
        priority: 'critical',
        assignee: 'ana',
        dueDate: '2026-12-24',
        labels: ['bug', 'ui'],
        metadata: { sprint: 'S1', estimate: 3, nested: { list: [1, null] } },
        blockedBy: [ids[0]],
      }),
      201,
    );
    okData(await server.api('POST', `/api/tasks/${rich.id}/comments`, { author: 'ana', content: 'A comment' }), 201);
    okData(await server.api('POST', `/api/tasks/${ids[1]}/archive`));
    const detail = async (id: string) => okData(await server.api('GET', `/api/tasks/${id}`));
    const before = await Promise.all([rich.id, ...ids].map(detail));
    // A restart reads the files (they changed), writes the cache; the next one takes the cards from it.
    await restartAfter(async () => undefined);
    await eventually(async () => assert.equal(Object.keys(await cacheFiles(server.root)).length, 4));
    // Proof the cache answered: its copy of the comment is what the card now shows.
    const cached = await cacheOnDisk(server.root);
    const row = cached.rows.find((r) => String(r[CONTENT_AT]).startsWith('# Rich card'))!;
    const rest = row[row.length - 1] as { comments: { content: string }[] };
    rest.comments[0].content = 'A comment (from the cache)';
    await restartAfter(() => fs.writeFile(path.join(server.root, CACHE), JSON.stringify(cached)));
    const after = await Promise.all([rich.id, ...ids].map(detail));
    assert.equal(after[0].comments[0].content, 'A comment (from the cache)');
    after[0].comments[0].content = 'A comment';
    assert.deepEqual(after, before);
  });

  it('when a card file is edited, another added and another deleted while the server is down, then the restarted server shows all three changes', async () => {
    const before = await board(server);
    const [edited, kept, deleted] = ids.map((id) => before.find((card) => card.id === id)!);
    await restartAfter(async () => {
      const editedFile = path.join(server.root, edited.filePath);
      const text = await fs.readFile(editedFile, 'utf8');
      await fs.writeFile(editedFile, text.replace('# Alpha card', '# Alpha card, edited by hand'));
      const keptText = await fs.readFile(path.join(server.root, kept.filePath), 'utf8');
      const added = path.join(path.dirname(path.join(server.root, kept.filePath)), 'added-by-hand.md');
      await fs.writeFile(
        added,
        keptText.replace('# Beta card', '# Added by hand').replace(/^id: .*$/m, 'id: added-by-hand'),
      );
      await fs.rm(path.join(server.root, deleted.filePath));
    });
    const after = await board(server);
    assert.equal(after.find((card) => card.id === edited.id)?.title, 'Alpha card, edited by hand');
    assert.equal(after.find((card) => card.id === 'added-by-hand')?.title, 'Added by hand');
    assert.equal(
      after.find((card) => card.id === deleted.id),
      undefined,
    );
    assert.equal(after.find((card) => card.id === kept.id)?.title, 'Beta card');
    // The cache follows: the next start knows the three files as they are now.
    await eventually(async () => {
      const files = await cacheFiles(server.root);
      assert.equal(Object.keys(files).length, 3);
      assert.ok(Object.values(files).some((entry) => entry.card.content.includes('edited by hand')));
    });
  });

  it('when the cache was written by an earlier version (format 1 read CRs in the body as LF), then every file is read again', async () => {
    const file = path.join(server.root, CACHE);
    const cached = await cacheOnDisk(server.root);
    for (const row of cached.rows) row[CONTENT_AT] += ' (as the old cache had it)';
    await restartAfter(async () => {
      await fs.writeFile(file, JSON.stringify({ ...cached, format: 'kanban-card-index/1' }));
    });
    const titles = ['Alpha card', 'Beta card', 'Gamma card'];
    for (const [i, id] of ids.entries())
      assert.equal(okData(await server.api('GET', `/api/tasks/${id}`)).content, `# ${titles[i]}\n\nSome text.`);
  });

  for (const [what, text] of [
    ['corrupt', '{"format":"kanban-card-index/3","rows":[["x", '],
    ['of another format', JSON.stringify({ format: 'kanban-card-index/0', files: {} })],
    [
      'holding entries of the wrong shape',
      JSON.stringify({ format: 'kanban-card-index/3', rows: [['nonsense', 'big'], { size: 1 }, null] }),
    ],
  ] as const) {
    it(`when the cache is ${what}, then the server reads every file, shows the same board and writes a good cache`, async () => {
      const before = await board(server);
      await restartAfter(async () => {
        await fs.writeFile(path.join(server.root, CACHE), text);
      });
      assert.deepEqual(await board(server), before);
      await eventually(async () => assert.equal(Object.keys(await cacheFiles(server.root)).length, 3));
    });
  }
});
