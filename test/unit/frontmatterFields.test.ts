import { strict as assert } from 'node:assert';
import { fieldAtCursor, fieldValues } from '../../extension/cards/frontmatterFields';
import { frontmatterProblems } from '../../extension/cards/frontmatterProblems';

const lines = (text: string) => text.split('\n');

const vocabulary = {
  columns: [
    { id: 'todo', name: 'To Do' },
    { id: 'done', name: 'Done' },
  ],
  priorities: ['critical', 'high', 'medium', 'low'],
  labels: ['bug', 'feature'],
  folderStatus: 'todo',
  reservedStatuses: ['deleted', 'archived'],
};

describe('card file frontmatter fields', () => {
  it('when labels are an inline list or a block list, then each label is found at its own range', () => {
    const inline = fieldValues(lines('---\nlabels: [bug, "ui" ]\n---\n'));
    assert.deepEqual(
      inline.map((v) => [v.value, v.line, v.start, v.end]),
      [
        ['bug', 1, 9, 12],
        ['ui', 1, 15, 17],
      ],
    );
    const block = fieldValues(
      lines('---\nlabels:\n  - bug\n  - feture\nstatus: todo # moved\n---\n- not: frontmatter\n'),
    );
    assert.deepEqual(
      block.map((v) => [v.key, v.value, v.line, v.start]),
      [
        ['labels', 'bug', 2, 4],
        ['labels', 'feture', 3, 4],
        ['status', 'todo', 4, 8],
      ],
    );
  });

  it('when the cursor types a label in either list form, then it is a labels value; in the body it is nothing', () => {
    const text = lines('---\nlabels: [bug, f\nassignee: \n---\nstatus: \n');
    assert.deepEqual(fieldAtCursor(text, 1, 15), { key: 'labels', line: 1, start: 14 });
    assert.deepEqual(fieldAtCursor(text, 2, 10), { key: 'assignee', line: 2, start: 10 });
    assert.equal(fieldAtCursor(text, 4, 8), undefined);
    const block = lines('---\nlabels:\n  - bug\n  - \n---\n');
    assert.deepEqual(fieldAtCursor(block, 3, 4), { key: 'labels', line: 3, start: 4 });
  });

  it('when a label is not in .kanban.json, then it is a problem naming the closest; with no labels there, any label is free', () => {
    const text = lines('---\nstatus: todo\nlabels:\n  - feture\n---\n');
    const [problem] = frontmatterProblems(text, vocabulary);
    assert.equal(problem.replacement, 'feature');
    assert.match(problem.message, /known: bug, feature\. Did you mean "feature"\?/);
    assert.deepEqual(frontmatterProblems(text, { ...vocabulary, labels: [] }), []);
  });
});
