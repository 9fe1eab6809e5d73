import { strict as assert } from 'node:assert';
import * as yaml from 'js-yaml';
import { plainFrontmatter } from '../../server/storage/plainFrontmatter';
import { serializeCard } from '../../server/storage/cardFile';
import { generateCards } from '../../bench/dataset';
import { makeCard } from '../helpers/cards';

const CORE = { schema: yaml.CORE_SCHEMA };
const REFUSED = Symbol('js-yaml refused it');

function jsYaml(fm: string): unknown {
  try {
    return yaml.load(fm, CORE);
  } catch {
    return REFUSED;
  }
}

/** The frontmatter text of a serialized card (between the two `---` lines). */
function frontmatterOf(text: string): string {
  return text.slice(4, text.indexOf('\n---\n') + 1);
}

/** Whether the plain reader took the text; when it did, its answer must be js-yaml's. */
function agrees(fm: string): boolean {
  const plain = plainFrontmatter(fm);
  if (plain === undefined) return false;
  assert.deepEqual(plain, jsYaml(fm), `the plain reader disagrees with js-yaml on:\n${fm}`);
  return true;
}

describe('plain frontmatter reader', () => {
  it('when cards the service wrote are read, then it reads nearly all of them and gives what js-yaml gives', () => {
    const cards = generateCards(3000);
    cards.push(
      makeCard({
        comments: [{ id: 'c1', author: 'ana', content: "It's done: see #12", created: '2026-01-01T00:00:00.000Z' }],
        metadata: { estimate: -3, ratio: 0.5, flag: true, none: null, text: 'true', code: '0x1F', list: ['a', 'b'] },
        labels: ['needs design', 'ci'],
        assignee: 'Zoë',
      }),
    );
    const taken = cards.filter((card) => agrees(frontmatterOf(serializeCard(card)))).length;
    assert.ok(taken >= cards.length * 0.9, `only ${taken} of ${cards.length} were read without js-yaml`);
  });

  it('when a value would read as another type or needs quoting, then it gives js-yaml’s value or leaves it to js-yaml', () => {
    const values: unknown[] = [
      'true',
      'True',
      'null',
      '~',
      '',
      ' lead',
      'trail ',
      '12',
      '-3',
      '+5',
      '0x1F',
      '0o17',
      '1e3',
      '.inf',
      '-.5',
      '.NaN',
      '012',
      '2026-01-01',
      '2026-01-01T00:00:00.000Z',
      'a: b',
      'a #b',
      '#x',
      '- x',
      '[x]',
      '{x}',
      'x, y',
      "it's",
      'a"b',
      'http://x.y/z?a=b#c',
      'Zoë',
      '😀',
      'multi\nline',
      'tab\there',
      'colon:',
      '@at',
      '`tick',
      '%pct',
      '&anchor',
      '*alias',
      '!tag',
      '|pipe',
      '>fold',
      '?q',
      12,
      -7,
      1.5,
      1e21,
      true,
      false,
      null,
      [],
      {},
      ['a', 1, null],
      { nested: { deep: 'x' } },
    ];
    let taken = 0;
    for (const value of values) {
      const fm = yaml.dump({ key: value, after: 'x' }, { schema: yaml.CORE_SCHEMA, lineWidth: -1, noRefs: true });
      if (agrees(fm)) taken++;
    }
    assert.ok(taken >= values.length / 2, `only ${taken} of ${values.length} were read without js-yaml`);
  });

  it('when frontmatter is written by hand in other YAML shapes, then it leaves them to js-yaml or agrees with it', () => {
    const texts = [
      'a: 1 # note\n',
      'a: yes\n',
      'a:\n- x\n',
      'a:\n    b: 1\n',
      'a: [1, 2]\n',
      'a: {b: 1}\n',
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: "x"\n',
      'a: |\n  text\n',
      'a: b\n  c\n',
      'a: 1\na: 2\n',
      '__proto__: x\n',
      'True: 1\n',
      'a b: 1\n',
      '? a\n: b\n',
      '# only a comment\n',
      'a:  two spaces\n',
      'a: x\n\nb: y\n',
      'a:\n  - b: 1\n    c: 2\n  - d\n',
      'a:\n  b:\n    - 1\n  c: 2\nd: 3\n',
      'a:\n',
      'a:\nb: 1\n',
      '- x\n',
      '---\na: 1\n',
      'a: 1\n...\n',
      'a: \u2028x\n',
      'a:b\n',
      'a :b\n',
      ':a\n',
      'a:b: c\n',
      'a: b: c\n',
      '1a: x\n',
      '-a: x\n',
      'a-b_c: x\n',
      "'a': x\n",
      'a:\n  b:c\n',
      'a: x\u2029y\n',
    ];
    const taken = texts.filter(agrees).length;
    assert.ok(taken >= 4, `only ${taken} hand-written shapes were read without js-yaml`);
  });
});
