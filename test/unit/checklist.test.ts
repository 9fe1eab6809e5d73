import { strict as assert } from 'node:assert';
import {
  addChecklistItem,
  checklistItems,
  checklistProgress,
  editChecklistItem,
  removeChecklistItem,
  withoutChecklistItems,
} from '../../server/core/checklist';
import { NotFoundError, ValidationError } from '../../server/core/errors';

const card = [
  '# Ship it',
  '',
  'Steps:',
  '',
  '- [ ] write',
  '* [x] test',
  '  + [X] nested',
  '- not an item',
  '- [y] not an item either',
  '',
].join('\n');

describe('checklists in card content', () => {
  it('when content has -, * and + task items at any indentation, then each is an item in order', () => {
    assert.deepEqual(checklistItems(card), [
      { index: 0, text: 'write', done: false },
      { index: 1, text: 'test', done: true },
      { index: 2, text: 'nested', done: true },
    ]);
    assert.deepEqual(checklistProgress(card), { done: 2, total: 3 });
  });

  it('when task items sit inside fenced code blocks, then they are not items', () => {
    const content = [
      '# A',
      '```md',
      '- [ ] in code',
      '```',
      '~~~',
      '- [x] in tilde code',
      '~~~',
      '- [ ] real',
      '',
    ].join('\n');
    assert.deepEqual(checklistItems(content), [{ index: 0, text: 'real', done: false }]);
  });

  it('when the items are taken out for a description, then every other line stays, code blocks included', () => {
    assert.equal(
      withoutChecklistItems(card),
      ['# Ship it', '', 'Steps:', '', '- not an item', '- [y] not an item either', ''].join('\n'),
    );
    const fenced = '# A\n```\n- [ ] in code\n```\n- [ ] real\n';
    assert.equal(withoutChecklistItems(fenced), '# A\n```\n- [ ] in code\n```\n');
  });

  it('when a fence is never closed, then nothing after it is an item', () => {
    assert.equal(checklistProgress('# A\n```\n- [ ] x\n'), null);
  });

  it('when content has no items, then the progress is null', () => {
    assert.equal(checklistProgress('# Plain\n\nNo list.\n'), null);
  });

  it('when an item is ticked, then only its mark changes and the rest of the file is byte for byte the same', () => {
    const ticked = editChecklistItem(card, 0, { done: true });
    assert.equal(ticked, card.replace('- [ ] write', '- [x] write'));
    assert.equal(editChecklistItem(ticked, 2, { done: false }), ticked.replace('  + [X] nested', '  + [ ] nested'));
  });

  it('when an item text is changed, then its marker, indentation and mark stay', () => {
    assert.equal(editChecklistItem(card, 2, { text: ' renamed ' }), card.replace('  + [X] nested', '  + [X] renamed'));
  });

  it('when an item is added, then it goes after the last item with its marker and indentation', () => {
    const added = addChecklistItem(card, 'deploy');
    assert.equal(added, card.replace('  + [X] nested\n', '  + [X] nested\n  + [ ] deploy\n'));
    assert.deepEqual(checklistProgress(added), { done: 2, total: 4 });
  });

  it('when the last item continues on indented lines, then an added item goes after them', () => {
    const content = '# A\n\n- [ ] first\n- [ ] long item\n  that wraps\n\nAfter.\n';
    assert.equal(
      addChecklistItem(content, 'next'),
      '# A\n\n- [ ] first\n- [ ] long item\n  that wraps\n- [ ] next\n\nAfter.\n',
    );
  });

  it('when content has no list, then an added item goes under a new "## Checklist" heading at the end', () => {
    assert.equal(addChecklistItem('# A\n\nBody.\n', 'first'), '# A\n\nBody.\n\n## Checklist\n\n- [ ] first\n');
  });

  it('when an item is removed, then its line goes and the others renumber', () => {
    const removed = removeChecklistItem(card, 0);
    assert.deepEqual(
      checklistItems(removed).map((i) => i.text),
      ['test', 'nested'],
    );
    assert.ok(!removed.includes('write'));
  });

  it('when an index names no item, then a not-found error says the valid range', () => {
    assert.throws(
      () => editChecklistItem(card, 3, { done: true }),
      (e: Error) => e instanceof NotFoundError && /0 to 2/.test(e.message),
    );
    assert.throws(
      () => removeChecklistItem('# A\n', 0),
      (e: Error) => e instanceof NotFoundError && /no checklist items/.test(e.message),
    );
  });

  it('when item text is empty or spans lines, then it is a validation error', () => {
    assert.throws(() => addChecklistItem(card, '  '), ValidationError);
    assert.throws(() => editChecklistItem(card, 0, { text: 'a\nb' }), ValidationError);
  });
});
