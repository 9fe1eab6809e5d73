import { strict as assert } from 'node:assert';
import { backlogBodyToContent } from '../../server/service/import/backlogMdImport';
import { dropUnknownLinks, linkOrder } from '../../server/service/import/importRelations';
import type { ImportedCard, ImportNote } from '../../server/service/import/importTypes';
import { parseObsidianKanban } from '../../server/service/import/obsidianKanbanImport';

const card = (key: string, links: { blockedBy?: string[]; parent?: string } = {}): ImportedCard => ({
  importedFrom: key,
  title: key,
  body: '',
  labels: [],
  metadata: {},
  comments: [],
  ...links,
});

describe('links between imported cards', () => {
  it('when a card waits for a later one or belongs to it, then it is created after it; others keep source order', () => {
    const notes: ImportNote[] = [];
    const cards = [card('a', { blockedBy: ['c'] }), card('b'), card('c', { parent: 'd' }), card('d')];
    assert.deepEqual(
      linkOrder(cards, notes).map((c) => c.importedFrom),
      ['d', 'c', 'a', 'b'],
    );
    assert.deepEqual(notes, []);
  });

  it('when links make a circle, then the link that closes it is left out with a note', () => {
    const notes: ImportNote[] = [];
    const cards = [card('a', { blockedBy: ['b'] }), card('b', { blockedBy: ['a'] })];
    assert.deepEqual(
      linkOrder(cards, notes).map((c) => c.importedFrom),
      ['b', 'a'],
    );
    assert.deepEqual(cards[1].blockedBy, []);
    assert.deepEqual(cards[0].blockedBy, ['b']);
    assert.match(notes[0].reason, /would make a circle/);
  });

  it('when a card links to one neither in the source nor on the board, then that link is left out with a note', () => {
    const notes: ImportNote[] = [];
    const cards = [card('a', { blockedBy: ['gone', 'earlier'], parent: 'gone' })];
    dropUnknownLinks(cards, new Set(['a', 'earlier']), notes);
    assert.deepEqual(cards[0].blockedBy, ['earlier']);
    assert.equal(cards[0].parent, undefined);
    assert.match(notes[0].reason, /links to gone, which is neither in the source nor on the board/);
  });
});

describe('source text of the Markdown importers', () => {
  it('when a Backlog.md body is read, then its section fences and criteria numbers go and its text stays', () => {
    const body =
      '\n## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\nShip it.\n<!-- SECTION:DESCRIPTION:END -->\n\n' +
      '## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [x] #1 Done once\n- [ ] #2 Not yet\n<!-- AC:END -->\n';
    assert.equal(backlogBodyToContent(body), 'Ship it.\n\n## Acceptance Criteria\n- [x] Done once\n- [ ] Not yet');
  });

  it('when an Obsidian note repeats a title, then each card gets its own key; a note without lanes is a note', () => {
    const parsed = parseObsidianKanban('## A\n\n- [ ] Same\n\n## B\n\n- [ ] Same\n', 'b.md');
    assert.deepEqual(
      parsed.cards.map((c) => [c.importedFrom, c.column]),
      [
        ['obsidian-kanban:b.md:Same', ['A']],
        ['obsidian-kanban:b.md:Same#2', ['B']],
      ],
    );
    assert.equal(parseObsidianKanban('just text', 'x.md').notes.length, 1);
  });
});
