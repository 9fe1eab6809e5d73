import { strict as assert } from 'node:assert';
import { warningHeaderValue } from '../../server/api/app';
import { warningTexts } from '../../webview/httpTransport';
import { asSentence, withWholeNames } from '../../webview/state/wipNotice';

describe('Warning header: what the server writes, the page reads back', () => {
  it('when the server sends two warnings, one with quotes and a backslash, then the page gets both texts as written', () => {
    const texts = ['column Doing is over its WIP limit (4/3)', 'column "Q\\A" is over its WIP limit (2/1)'];
    // fetch joins repeated headers with ", ".
    const joined = texts.map(warningHeaderValue).join(', ');
    assert.deepEqual(warningTexts(joined), texts);
  });

  it('when there is no Warning header, then there are no warnings', () => {
    assert.deepEqual(warningTexts(null), []);
    assert.deepEqual(warningTexts(''), []);
  });
});

describe('WIP toast text', () => {
  it('when a column name outside ASCII came back with "?" from the header, then the toast shows the board\'s whole name', () => {
    const header = warningHeaderValue('column Révision is over its WIP limit (2/1)');
    const [text] = warningTexts(header);
    assert.equal(text, 'column R?vision is over its WIP limit (2/1)');
    assert.equal(
      asSentence(withWholeNames(text, ['To Do', 'Révision'])),
      'Column Révision is over its WIP limit (2/1).',
    );
  });

  it('when the text has no stand-in characters, then only the sentence case changes', () => {
    assert.equal(
      asSentence(withWholeNames('column Doing is over its WIP limit (4/3)', ['Doing', 'Fertig ✓'])),
      'Column Doing is over its WIP limit (4/3).',
    );
  });
});
