import { strict as assert } from 'node:assert';
import type { Card } from '../../server/core/model';
import { FuzzyBoardIndex, exactPieces, maxErrors } from '../../server/core/fuzzyIndex';
import { buildFuzzyIndex } from '../../server/core/search';

const WORDS = [
  'deploy',
  'pipeline',
  'webhook',
  'login',
  'page',
  'Über',
  'café',
  'documentation',
  'retry',
  'timeout',
  'cache',
  'invalidate',
  'sqlite',
  'migration',
  'column',
  'order',
  'key',
  'fuzzy',
  'search',
  'board',
  'a',
  'io',
  'ΣΟΦΙΑ',
];
const PEOPLE = ['alice', 'bob', 'Beatriz', 'chen', undefined];

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function makeCards(count: number, seed: number): Card[] {
  const next = random(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  return Array.from({ length: count }, (_, i) => ({
    id: `card-${i}-${pick(WORDS).toLowerCase()}`,
    boardId: 'default',
    status: 'todo',
    content: `# ${words(3)}\n\n${words(Math.floor(next() * 40))}\n`,
    priority: 'medium',
    assignee: pick(PEOPLE),
    labels: next() < 0.5 ? [pick(WORDS).toLowerCase()] : [],
    metadata: next() < 0.5 ? { sprint: `S${i % 7}`, links: { jira: `${pick(WORDS)}-${i}` } } : {},
    forms: [],
    formData: {},
    attachments: [],
    comments: [],
    order: '',
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
  }));
}

/** Typo variants of a word: dropped, doubled, swapped and replaced letters, other case. */
function variants(word: string): string[] {
  const out = [word, word.toUpperCase()];
  for (let i = 0; i < word.length; i++) {
    out.push(word.slice(0, i) + word.slice(i + 1));
    out.push(word.slice(0, i) + word[i] + word.slice(i));
    out.push(word.slice(0, i) + 'x' + word.slice(i + 1));
    if (i + 1 < word.length) out.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  return out.filter((v) => v.trim() !== '');
}

const QUERIES = [
  // Every third variant keeps the test quick while still covering each kind of typo and word.
  ...WORDS.flatMap(variants).filter((_, i) => i % 3 === 0),
  'deploy pipeline',
  'webhok retyr',
  'bob',
  'beatirz',
  'card-12',
  's3',
  'jira',
  'zzqqxxv',
  'a much longer query that is over thirty-two characters long',
  'documentation timeout cache invalidate',
];

function answer(results: { item: { card: Card }; score?: number }[]): string[] {
  return results.map((r) => `${r.item.card.id}@${r.score}`);
}

describe('fuzzy board index', () => {
  it('when a pattern allows k typos, then it is cut into k + 1 pieces that rebuild it', () => {
    assert.deepEqual([1, 2, 3, 6, 7, 20].map(maxErrors), [0, 0, 1, 2, 2, 7]);
    assert.deepEqual(exactPieces('webhok'), ['we', 'bh', 'ok']);
    assert.equal(exactPieces('webhok')!.join(''), 'webhok');
    assert.equal(exactPieces('x'.repeat(33)), null);
  });

  it('when searched, then every query answers exactly what fuse.js over the whole board answers, scores and order included', () => {
    const cards = makeCards(250, 7);
    const board = new FuzzyBoardIndex(cards);
    const reference = buildFuzzyIndex(cards);
    for (const query of QUERIES)
      assert.deepEqual(answer(board.search(query)), answer(reference.search(query)), `query "${query}"`);
  });

  it('when cards change one by one, then the answers still equal a fuse.js index rebuilt from the board', () => {
    const cards = new Map(makeCards(200, 11).map((card) => [card.id, card]));
    const board = new FuzzyBoardIndex(cards.values());
    const replacements = makeCards(200, 23);
    let step = 0;
    for (const [id, card] of [...cards].slice(0, 120)) {
      if (step++ % 3 === 0) {
        board.remove(card);
        cards.delete(id);
      } else {
        const changed = { ...card, content: replacements[step].content, labels: replacements[step].labels };
        board.put(changed);
        // A rebuild from a Map sees a changed card last, as the card index's board map does.
        cards.delete(id);
        cards.set(id, changed);
      }
    }
    const reference = buildFuzzyIndex([...cards.values()]);
    for (const query of QUERIES)
      assert.deepEqual(answer(board.search(query)), answer(reference.search(query)), `query "${query}"`);
  });
});
