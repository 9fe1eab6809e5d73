import { strict as assert } from 'node:assert';
import {
  boundedDistance,
  buildFuzzyIndex,
  exactTextMatch,
  flattenValues,
  metaMatches,
  parseQuery,
  typoBudget,
  valuesAt,
} from '../../server/core/search';
import { makeCard } from '../helpers/cards';

describe('search: query parsing', () => {
  it('when q holds meta tokens, then they are taken out and the rest is the free text', () => {
    const parsed = parseQuery('login meta.sprint: 12 bug');
    assert.equal(parsed.text, 'login bug');
    assert.deepEqual(parsed.meta, [{ path: ['sprint'], value: '12' }]);
  });

  it('when a meta value is quoted, then spaces inside the quotes belong to the value', () => {
    const parsed = parseQuery(`meta.team: "Core Platform" meta.owner: 'Ana María' rest`);
    assert.deepEqual(parsed.meta, [
      { path: ['team'], value: 'Core Platform' },
      { path: ['owner'], value: 'Ana María' },
    ]);
    assert.equal(parsed.text, 'rest');
  });

  it('when a meta token names a nested path, then the path is split on dots', () => {
    assert.deepEqual(parseQuery('meta.links.jira: ABC-1').meta, [{ path: ['links', 'jira'], value: 'ABC-1' }]);
  });

  it('when the colon has no space after it, then the token is still recognised', () => {
    assert.deepEqual(parseQuery('meta.sprint:12').meta, [{ path: ['sprint'], value: '12' }]);
  });

  it('when "meta." appears inside a word, then it stays free text', () => {
    const parsed = parseQuery('xmeta.sprint: 12');
    assert.deepEqual(parsed.meta, []);
    assert.equal(parsed.text, 'xmeta.sprint: 12');
  });

  it('when q has no tokens, then the text is trimmed and inner whitespace collapsed', () => {
    assert.deepEqual(parseQuery('  fix   the\tbug '), { text: 'fix the bug', meta: [] });
  });
});

describe('search: metadata paths and values', () => {
  it('when a path goes through an array of objects, then every element is searched', () => {
    const meta = { links: [{ jira: 'ABC-1' }, { jira: 'ABC-2' }, { other: 1 }] };
    assert.deepEqual(valuesAt(meta, ['links', 'jira']), ['ABC-1', 'ABC-2']);
  });

  it('when the value at a path is an array, then its items are returned one by one', () => {
    assert.deepEqual(valuesAt({ tags: ['a', 'b'] }, ['tags']), ['a', 'b']);
  });

  it('when a path does not exist, then no value is found', () => {
    assert.deepEqual(valuesAt({ a: { b: 1 } }, ['a', 'c']), []);
    assert.deepEqual(valuesAt({ a: 'text' }, ['a', 'length']), []);
  });

  it('when a path names a property every object inherits, then nothing is found', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      assert.deepEqual(valuesAt({ a: 1 }, [name]), [], name);
    assert.deepEqual(valuesAt({ list: [{ a: 1 }] }, ['list', 'constructor']), []);
  });

  it('when metadata really has a key named like an inherited property, then its value is found', () => {
    assert.deepEqual(valuesAt(JSON.parse('{"constructor":"mine","__proto__":{"x":"own"}}'), ['__proto__', 'x']), [
      'own',
    ]);
    assert.deepEqual(valuesAt(JSON.parse('{"constructor":"mine"}'), ['constructor']), ['mine']);
  });

  it('when an object tree is flattened, then every scalar appears as text and nulls are skipped', () => {
    assert.deepEqual(flattenValues({ a: 1, b: { c: true, d: [null, 'x'] }, e: null }), ['1', 'true', 'x']);
  });
});

describe('search: exact matching', () => {
  const card = makeCard({
    id: 'fix-login-2026-01-01',
    content: '# Fix Login\n\nThe OAuth redirect loops.',
    assignee: 'Ana',
    labels: ['Backend'],
    metadata: { sprint: 12, links: { jira: 'ABC-123' } },
  });

  it('when the text is in the title, content, id, assignee, a label or a metadata value, then the card matches', () => {
    for (const text of ['fix login', 'oauth REDIRECT', 'login-2026', 'ana', 'backend', 'abc-123', '12']) {
      assert.ok(exactTextMatch(card, text), text);
    }
  });

  it('when the text appears nowhere, then the card does not match', () => {
    assert.equal(exactTextMatch(card, 'logout'), false);
  });

  it('when the text is empty, then every card matches', () => {
    assert.ok(exactTextMatch(card, ''));
  });

  it('when the text has a typo, then exact search does not match', () => {
    assert.equal(exactTextMatch(card, 'fix lgoin'), false);
  });
});

describe('search: metadata filters', () => {
  const card = makeCard({ metadata: { sprint: 12, team: 'Core Platform', links: { jira: 'ABC-123' }, nothing: null } });

  it('when the filter value is a case-insensitive substring of the value at the path, then it matches', () => {
    assert.ok(metaMatches(card, { path: ['team'], value: 'core' }, false));
    assert.ok(metaMatches(card, { path: ['links', 'jira'], value: 'abc-123' }, false));
    assert.ok(metaMatches(card, { path: ['sprint'], value: '12' }, false));
  });

  it('when the value is at another path, then the filter does not match', () => {
    assert.equal(metaMatches(card, { path: ['links', 'github'], value: 'ABC' }, false), false);
    assert.equal(metaMatches(card, { path: ['nothing'], value: '' }, false), false);
  });

  it('when the value has a typo, then only fuzzy matching accepts it', () => {
    const filter = { path: ['team'], value: 'platfrom' };
    assert.equal(metaMatches(card, filter, false), false);
    assert.ok(metaMatches(card, filter, true));
  });

  it('when the value is short, then fuzzy matching allows no typo', () => {
    assert.equal(metaMatches(makeCard({ metadata: { env: 'dev' } }), { path: ['env'], value: 'dav' }, true), false);
  });
});

describe('search: edit distance', () => {
  it('when strings differ by one swap of neighbours, then the distance is 2', () => {
    assert.equal(boundedDistance('login', 'lgoin', 5), 2);
  });

  it('when the distance exceeds the bound, then max + 1 comes back early', () => {
    assert.equal(boundedDistance('abcdef', 'uvwxyz', 2), 3);
    assert.equal(boundedDistance('a', 'abcdefgh', 3), 4);
  });

  it('when the text grows, then the typo budget grows: 0 up to 3 chars, 1 up to 6, then 2', () => {
    assert.deepEqual(['abc', 'abcd', 'abcdef', 'abcdefg'].map(typoBudget), [0, 1, 1, 2]);
  });
});

describe('search: fuzzy index', () => {
  const cards = [
    makeCard({ id: 'deploy-pipeline-2026-01-01', content: '# Deploy pipeline\n' }),
    makeCard({ id: 'write-docs-2026-01-01', content: '# Write documentation\n' }),
    makeCard({ id: 'fix-login-2026-01-01', content: '# Fix login page\n', assignee: 'Beatriz' }),
  ];
  const index = buildFuzzyIndex(cards);

  it('when the query has a typo, then the intended card is found first', () => {
    const results = index.search('pipleine');
    assert.ok(results.length >= 1);
    assert.equal(results[0].item.card.id, 'deploy-pipeline-2026-01-01');
  });

  it('when the query resembles nothing, then nothing is found', () => {
    assert.deepEqual(index.search('zzqqxxv'), []);
  });

  it('when the query names an assignee with a typo, then that card is found', () => {
    assert.equal(index.search('beatirz')[0]?.item.card.id, 'fix-login-2026-01-01');
  });
});
