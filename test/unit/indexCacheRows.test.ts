import { strict as assert } from 'node:assert';
import type { Card } from '../../server/core/model';
import { entriesOf, rowOf, type CachedFile } from '../../server/storage/markdown/indexCacheRows';

/** A card's way through the index cache: written as a row, read back as the same card. */
function throughTheCache(card: Card): Card {
  const written = JSON.parse(JSON.stringify([rowOf('b/todo/x.md', { size: 10, mtimeMs: 1.5, hash: 'h', card })]));
  const read = new Map<string, CachedFile>();
  entriesOf(written, read);
  assert.deepEqual([...read.keys()], ['b/todo/x.md']);
  const entry = read.get('b/todo/x.md')!;
  assert.deepEqual([entry.size, entry.mtimeMs, entry.hash], [10, 1.5, 'h']);
  return entry.card;
}

/** The card as JSON keeps it: an undefined field is the same as an absent one. */
const defined = (card: Card) => JSON.parse(JSON.stringify(card)) as Card;

const plain: Card = {
  id: 'x',
  boardId: 'b',
  status: 'todo',
  content: '# Plain\n',
  priority: 'medium',
  assignee: undefined,
  dueDate: undefined,
  labels: [],
  metadata: {},
  forms: [],
  formData: {},
  actions: undefined,
  attachments: [],
  comments: [],
  order: '',
  created: '2026-01-01T00:00:00.000Z',
  modified: '2026-01-01T00:00:00.000Z',
  completedAt: undefined,
};

describe('index cache rows', () => {
  it('when a card with only its defaults goes through the cache, then it comes back equal', () => {
    assert.deepEqual(defined(throughTheCache(plain)), defined(plain));
  });

  it('when a card with every field set (empty strings among them) goes through the cache, then it comes back equal', () => {
    const full: Card = {
      ...plain,
      content: '---\nnot: frontmatter\n---\n\n# Ünïcode ✓\r\n',
      priority: 'critical',
      assignee: '',
      dueDate: '2026-02-01',
      labels: ['bug', 'ui'],
      metadata: { sprint: 'S1', estimate: 3, nested: { a: [1, null] } },
      forms: [{ name: 'triage' } as unknown as Card['forms'][number]],
      formData: { triage: { severity: 2 } },
      actions: { deploy: 'npm run deploy' },
      attachments: ['shot.png'],
      comments: [{ id: 'c_1', author: 'Ana', content: 'hi', created: '2026-01-02T00:00:00.000Z' }],
      order: 'a0',
      completedAt: '2026-01-03T00:00:00.000Z',
      blockedBy: ['y'],
      parent: 'p',
      relatesTo: ['r'],
      duplicateOf: ['d'],
      archivedAt: '2026-01-04T00:00:00.000Z',
      deletedFrom: 'doing',
      columnHistory: ['2026-01-01T00:00:00.000Z todo'],
    };
    assert.deepEqual(defined(throughTheCache(full)), defined(full));
  });

  it('when two cards come back, then their collections are their own (a change to one leaves the other)', () => {
    const read = new Map<string, CachedFile>();
    const row = (key: string) => rowOf(key, { size: 1, mtimeMs: 1, hash: 'h', card: plain });
    entriesOf(JSON.parse(JSON.stringify([row('a'), row('b')])), read);
    read.get('a')!.card.labels.push('only-a');
    read.get('a')!.card.metadata.only = 'a';
    assert.deepEqual(read.get('b')!.card.labels, []);
    assert.deepEqual(read.get('b')!.card.metadata, {});
  });

  it('when rows are of the wrong shape, then only those are left out', () => {
    const good = rowOf('good', { size: 1, mtimeMs: 1, hash: 'h', card: plain });
    const read = new Map<string, CachedFile>();
    const wrongId = [...good];
    wrongId[4] = 5;
    entriesOf([null, 'row', ['short'], { 0: 'good' }, wrongId, JSON.parse(JSON.stringify(good))], read);
    assert.deepEqual([...read.keys()], ['good']);
  });
});
