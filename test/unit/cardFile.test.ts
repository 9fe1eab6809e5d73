import { strict as assert } from 'node:assert';
import { CardFileError, parseCard, serializeCard, type CardLocation } from '../../server/storage/cardFile';
import { makeCard } from '../helpers/cards';

const where: CardLocation = {
  id: 'sample-card-2026-01-01',
  boardId: 'default',
  status: 'backlog',
  fileTime: '2026-02-02T00:00:00.000Z',
};

/** The card without keys whose value is undefined, so absent and undefined compare equal. */
function defined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function roundTrip(card = makeCard()) {
  return parseCard(serializeCard(card), {
    id: card.id,
    boardId: card.boardId,
    status: card.status,
    fileTime: where.fileTime,
  });
}

/** Top-level frontmatter keys of a serialized card, in file order. */
function frontmatterKeys(text: string): string[] {
  const fm = text.split('\n---\n')[0];
  return fm
    .split('\n')
    .filter((line) => /^[A-Za-z]\w*:/.test(line))
    .map((line) => line.slice(0, line.indexOf(':')));
}

describe('card files: writing', () => {
  it('when a card with every field is written, then the frontmatter keys come in the fixed order', () => {
    const card = makeCard({
      assignee: 'Ana',
      dueDate: '2026-05-01',
      labels: ['ui'],
      metadata: { sprint: 3 },
      forms: [{ name: 'bug' }],
      formData: { bug: { severity: 'high' } },
      actions: ['deploy'],
      attachments: ['shot.png'],
      completedAt: '2026-01-03T00:00:00.000Z',
      comments: [{ id: 'c_0123456789', author: 'Ana', content: 'hi', created: '2026-01-02T00:00:00.000Z' }],
    });
    assert.deepEqual(frontmatterKeys(serializeCard(card)), [
      'id',
      'status',
      'priority',
      'assignee',
      'dueDate',
      'labels',
      'metadata',
      'forms',
      'formData',
      'actions',
      'attachments',
      'order',
      'created',
      'modified',
      'completedAt',
      'comments',
    ]);
  });

  it('when optional fields are empty, then they are left out of the file', () => {
    assert.deepEqual(frontmatterKeys(serializeCard(makeCard())), [
      'id',
      'status',
      'priority',
      'order',
      'created',
      'modified',
    ]);
  });

  it('when a card is written, then the file is frontmatter, a blank line and the content, with LF endings', () => {
    const text = serializeCard(makeCard({ content: '# Title\n\nBody\n' }));
    assert.ok(text.startsWith('---\nid: sample-card-2026-01-01\n'), text);
    assert.ok(text.endsWith('\n---\n\n# Title\n\nBody\n'), text);
    assert.ok(!text.includes('\r'));
  });

  it('when the same card is written twice, then the text is identical', () => {
    const card = makeCard({ metadata: { b: 1, a: { d: 2, c: 3 } }, labels: ['z', 'a'] });
    assert.equal(serializeCard(card), serializeCard(structuredClone(card)));
  });
});

describe('card files: round trip', () => {
  it('when a card is written and read back, then every field is the same', () => {
    const card = makeCard({
      priority: 'high',
      assignee: 'Ana María',
      dueDate: '2026-05-01T17:00:00Z',
      labels: ['ui', 'needs review'],
      metadata: { sprint: 3, done: false, links: { jira: 'ABC-1' }, list: [1, 'two'] },
      forms: [{ name: 'bug' }],
      formData: { bug: { severity: 'high' } },
      actions: { deploy: 'Deploy now' },
      attachments: ['shot.png'],
      completedAt: '2026-01-03T00:00:00.000Z',
    });
    assert.deepEqual(defined(roundTrip(card)), defined(card));
  });

  it('when text values look like numbers, booleans, null or dates, then they stay text', () => {
    const card = makeCard({
      assignee: '007',
      labels: ['true', 'null', '2026-01-01', '1e3'],
      metadata: { code: '0x1F', when: '2026-01-01' },
    });
    assert.deepEqual(defined(roundTrip(card)), defined(card));
  });

  it('when comments hold awkward Markdown, then their text survives exactly', () => {
    const awkward = [
      '  leading spaces\n\n---\n# not a heading\n\ttab\ntrailing spaces   \n\n\n',
      '---',
      'key: value',
      '"quoted" and \'single\' and : colon # hash',
      'ünïcödé ✓ and emoji 🚀',
      '',
    ];
    const card = makeCard({
      comments: awkward.map((content, i) => ({
        id: `c_${String(i).padStart(10, '0')}`,
        author: 'Ana',
        content,
        created: '2026-01-02T00:00:00.000Z',
      })),
    });
    assert.deepEqual(
      roundTrip(card).comments.map((c) => c.content),
      awkward,
    );
  });

  it('when the content has frontmatter-like lines and leading blank lines, then it survives exactly', () => {
    const content = '\n\n# Title\n\n---\nid: fake\n---\n\ntext\n\n';
    assert.equal(roundTrip(makeCard({ content })).content, content);
  });

  it('when the content has no final newline, then neither has the file, and the content reads back without one', () => {
    const text = serializeCard(makeCard({ content: '# Title\n\nno newline' }));
    assert.ok(text.endsWith('\n---\n\n# Title\n\nno newline'), text);
    assert.equal(roundTrip(makeCard({ content: '# Title\n\nno newline' })).content, '# Title\n\nno newline');
  });

  const contents: [string, string][] = [
    ['no final newline', '# T\n\nbody'],
    ['one final newline', '# T\n\nbody\n'],
    ['two final newlines', '# T\n\nbody\n\n'],
    ['nothing at all', ''],
    ['only a newline', '\n'],
    ['no heading', 'no heading'],
    ['CRLF line endings', '# crlf\r\nline\r\n'],
    ['CRLF and no final newline', '# crlf\r\nline'],
    ['a lone CR', '# lone\rcr\r'],
    ['leading blank lines and CRLF', '\r\n\n# late title\r\n'],
    ['unicode', '# Ünïcode ✓ 🚀\n\n\tzoë\u2028end'],
  ];
  for (const [what, content] of contents) {
    it(`when the content has ${what}, then it reads back byte for byte`, () => {
      assert.equal(JSON.stringify(roundTrip(makeCard({ content })).content), JSON.stringify(content));
    });
  }

  it('when the frontmatter names a status, then it is the card status whatever the folder', () => {
    const text = serializeCard(makeCard({ status: 'review' }));
    assert.match(text, /^status: review$/m);
    assert.equal(
      parseCard(text, {
        id: 'sample-card-2026-01-01',
        boardId: 'default',
        status: 'backlog',
        fileTime: '2026-01-01T00:00:00.000Z',
      }).status,
      'review',
    );
  });

  it('when the frontmatter has no status (an older file), then the folder gives it', () => {
    const text = '---\nid: x\npriority: low\n---\n\n# Old file\n';
    assert.equal(
      parseCard(text, { id: 'x', boardId: 'default', status: 'todo', fileTime: '2026-01-01T00:00:00.000Z' }).status,
      'todo',
    );
  });

  it('when the frontmatter status is not a folder name, then reading fails with a reason', () => {
    const text = '---\nstatus: ../../etc\n---\n\n# Bad\n';
    assert.throws(
      () => parseCard(text, { id: 'x', boardId: 'default', status: 'todo', fileTime: '2026-01-01T00:00:00.000Z' }),
      /"status" must be a column id/,
    );
  });

  it('when the YAML is broken, then the reason names the line in the file', () => {
    const text = '---\nid: x\npriority: [unclosed\n---\n\n# Broken\n';
    assert.throws(
      () => parseCard(text, { id: 'x', boardId: 'default', status: 'todo', fileTime: '2026-01-01T00:00:00.000Z' }),
      /at line \d+/,
    );
  });
});

describe('card files: reading hand-written files', () => {
  it('when a file has only a title and no dates or order, then defaults fill in and the file time is used', () => {
    const card = parseCard('---\n---\n# Written by hand\n', where);
    assert.equal(card.content, '# Written by hand\n');
    assert.equal(card.priority, 'medium');
    assert.equal(card.order, '');
    assert.equal(card.created, where.fileTime);
    assert.equal(card.modified, where.fileTime);
    assert.deepEqual(card.labels, []);
  });

  it('when the frontmatter holds only a YAML comment, then the card reads with defaults', () => {
    const card = parseCard('---\n# nothing here yet\n---\n# Title\n', where);
    assert.equal(card.priority, 'medium');
    assert.equal(card.content, '# Title\n');
  });

  it('when the file has CRLF line endings, then it is read like LF', () => {
    const card = parseCard('---\r\npriority: low\r\nlabels:\r\n  - a\r\n---\r\n\r\n# Windows\r\nline\r\n', where);
    assert.equal(card.priority, 'low');
    assert.deepEqual(card.labels, ['a']);
    assert.equal(card.content, '# Windows\nline\n');
  });

  it('when only the frontmatter has CRLF lines (a mixed file), then the whole file is still read like LF', () => {
    assert.equal(parseCard('---\npriority: low\r\n---\r\n\r\n# Mixed\r\n', where).content, '# Mixed\n');
  });

  it('when a file ends with a newline (as every earlier version wrote), then the content keeps it and writing it back gives the same bytes', () => {
    const text =
      '---\nid: sample-card-2026-01-01\nstatus: backlog\npriority: medium\norder: 3i00\ncreated: 2026-01-01T10:00:00.000Z\nmodified: 2026-01-01T10:00:00.000Z\n---\n\n# Old\n\nbody\n';
    const card = parseCard(text, where);
    assert.equal(card.content, '# Old\n\nbody\n');
    assert.equal(serializeCard(card), text);
  });

  it('when a file has LF frontmatter and CRs after it, then the CRs are part of the content', () => {
    assert.equal(parseCard('---\nid: x\n---\n\n# Pasted\r\nline\r\n', where).content, '# Pasted\r\nline\r\n');
  });

  it('when a file ends without a newline, then the content is all of its text', () => {
    assert.equal(parseCard('---\n---\n\n# Bare\n\nbody', where).content, '# Bare\n\nbody');
  });

  it('when the frontmatter id disagrees with the file name (a file renamed by hand), then the frontmatter id wins', () => {
    assert.equal(parseCard('---\nid: other-id\n---\n# x\n', where).id, 'other-id');
  });

  it('when the frontmatter id is not a valid id, then the file name is the id', () => {
    assert.equal(parseCard('---\nid: "../Other Id"\n---\n# x\n', where).id, where.id);
  });

  it('when the order key is not a valid key, then the card gets none (sorted last)', () => {
    assert.equal(parseCard('---\norder: "not a key!"\n---\n# x\n', where).order, '');
  });

  const broken: [string, string, RegExp][] = [
    ['no frontmatter', '# Just markdown\n', /missing YAML frontmatter/],
    ['an unclosed frontmatter', '---\npriority: high\n# Title\n', /not closed/],
    ['invalid YAML', '---\npriority: [high\n---\n# x\n', /not valid YAML/],
    ['an unknown priority', '---\npriority: urgent\n---\n# x\n', /priority/],
    ['labels that are not a list', '---\nlabels: 5\n---\n# x\n', /"labels" must be a list/],
    ['metadata that is not a mapping', '---\nmetadata: [1, 2]\n---\n# x\n', /"metadata" must be a mapping/],
    ['a comment without id', '---\ncomments:\n  - author: a\n    content: b\n---\n# x\n', /comments\[0\] has no id/],
    ['a key given twice', '---\npriority: high\npriority: low\n---\n# x\n', /not valid YAML/],
    ['frontmatter that is a list', '---\n- a\n- b\n---\n# x\n', /must be a mapping/],
  ];
  for (const [what, text, reason] of broken) {
    it(`when a file has ${what}, then reading it fails with a reason`, () => {
      assert.throws(
        () => parseCard(text, where),
        (error: unknown) => error instanceof CardFileError && reason.test(error.message),
      );
    });
  }
});
